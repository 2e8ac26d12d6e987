package quantity

import "testing"

// Package-level sinks, so that the compiler cannot drop the calls being measured.
var (
	sinkQuantity Quantity
	sinkErr      error
	sinkInt      int
	sinkInt64    int64
	sinkBytes    []byte
	sinkString   string
)

// allocInputs has every kind of input the zero-allocation promise covers.
var allocInputs = []string{
	"0", "1", "2", "100m", "700m", "1500Mi", "2Gi", "1Gi", "0.5Gi", "0.2Gi", "0.1", "1024Mi",
	"4G", "1e3", // decimal, binary suffix, exponent, fraction
	"5n", "3u", "1.5e-3", "9E", "-1.5", "-2Gi", "+100m", "-1e-3", // nano, micro, negative
	"0.0000000001", "1.0000000001Ki", "0.000000000001Ki", "7Ei", // rounding, 128-bit paths
	"1.0000000000000000000000001", "9223372036854775806.9999999999", // more than 19 digits
	"050.10679935660691460504Ki", "-0.37252902984619140625Ki", "1234567890123456789012345678e-28",
	"9223372036854775807", ".5", "1.", "Ki", // limits and odd corners
}

func TestParseDoesNotAllocate(t *testing.T) {
	for _, s := range allocInputs {
		if _, err := Parse(s); err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if n := testing.AllocsPerRun(100, func() { sinkQuantity, sinkErr = Parse(s) }); n != 0 {
			t.Errorf("Parse(%q) allocates %v times; want 0", s, n)
		}
		b := []byte(s)
		if n := testing.AllocsPerRun(100, func() { sinkErr = sinkQuantity.UnmarshalText(b) }); n != 0 {
			t.Errorf("UnmarshalText(%q) allocates %v times; want 0", s, n)
		}
		j := []byte(`"` + s + `"`)
		if n := testing.AllocsPerRun(100, func() { sinkErr = sinkQuantity.UnmarshalJSON(j) }); n != 0 {
			t.Errorf("UnmarshalJSON(%s) allocates %v times; want 0", j, n)
		}
	}
}

func TestMethodsDoNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 64)
	for _, s := range allocInputs {
		q := MustParse(s)
		r := MustParse("1.5Gi")
		checks := []struct {
			name string
			f    func()
		}{
			{"Cmp", func() { sinkInt = q.Cmp(r) }},
			{"AppendText", func() { sinkBytes, sinkErr = q.AppendText(buf[:0]) }},
			{"MilliValue", func() { sinkInt64 = q.MilliValue() }},
			{"Value", func() { sinkInt64 = q.Value() }},
			{"Add", func() { sinkQuantity, sinkErr = q.Add(r) }},
			{"Sub", func() { sinkQuantity, sinkErr = q.Sub(r) }},
			{"ToResource", func() { r := q.ToResource(); sinkInt = r.Sign() }},
		}
		for _, c := range checks {
			if n := testing.AllocsPerRun(100, c.f); n != 0 {
				t.Errorf("%s on %q allocates %v times; want 0", c.name, s, n)
			}
		}
	}
}

func TestStringAllocatesOnce(t *testing.T) {
	q := MustParse("1500Mi")
	if n := testing.AllocsPerRun(100, func() { sinkString = q.String() }); n > 1 {
		t.Errorf("String allocates %v times; want 1, for the string", n)
	}
	if n := testing.AllocsPerRun(100, func() { sinkBytes, sinkErr = q.MarshalJSON() }); n > 1 {
		t.Errorf("MarshalJSON allocates %v times; want 1", n)
	}
}
