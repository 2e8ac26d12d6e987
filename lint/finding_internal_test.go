package lint

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Findings sort by file, line and column, keeping the order of those at one place; the
// count of a file's findings left out comes after all the others of its file.
func TestSortFindings(t *testing.T) {
	at := func(file string, line, col int, detail string) Finding {
		return Finding{File: file, Position: Position{Line: line, Column: col}, Err: field.Invalid(nil, nil, detail)}
	}
	count := fileProblemAt("a", 1, TooManyFindings, "7")
	fs := []Finding{at("b", 1, 1, "1"), at("a", 2, 1, "2"), count, at("a", 1, 5, "3"), at("a", 1, 2, "4"), at("a", 1, 2, "5"), at("a", 10, 1, "6")}
	sortFindings(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Err.Detail)
	}
	if want := []string{"4", "5", "3", "2", "6", "7", "1"}; !slices.Equal(got, want) {
		t.Errorf("sortFindings order = %v; want %v (file, line, column, then as given; the count last in its file)", got, want)
	}
}
