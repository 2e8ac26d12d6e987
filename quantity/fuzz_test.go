package quantity

import "testing"

// FuzzParse is the differential fuzz target: Parse against resource.ParseQuantity on
// acceptance, value, String, Format, MilliValue and Value (see diffOne). Inputs on
// which apimachinery would not return in time are skipped from the comparison and
// checked against the grammar instead (see apimachinerySlow). The seeds are the
// differential tables plus the commented corpus in testdata/fuzz (see its README.md).
func FuzzParse(f *testing.F) {
	for _, s := range apimachineryCases {
		f.Add(s)
	}
	for _, s := range oddCases {
		f.Add(s)
	}
	for _, s := range longCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := diffOne(s); err != nil {
			t.Fatal(err)
		}
	})
}
