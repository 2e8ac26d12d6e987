package source

import (
	"strings"
	"testing"
)

// Each problem is placed where it is: the offending line (and, in JSON, character), not
// the document's first line or the end of the value before it.
func TestProblemPositions(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		want       Position
		says       string
	}{
		// kubectl's decoder reports a JSON error at an offset from the end of the value
		// before it, wrapped before two values are read and not after.
		{"a JSON syntax error after two values", "{\"a\": 1}\n{\"b\": 2}\n{bad\n", Position{3, 2}, "invalid character 'b'"},
		{"a JSON syntax error on the line of two values", `{"a": 1} {"b": 2} {"c": [}`, Position{1, 26}, "invalid character '}'"},
		{"a second JSON value, then ---", "{\"a\": 1}\n[1]\n---\nb: 2\n", Position{3, 2}, "in numeric literal"},
		// What the YAML reader refuses without naming a line, at the node.
		{"a merge of a scalar", "a: 1\nm:\n  <<: 1\n  b: 2\n", Position{3, 1}, "map merge requires map or sequence of maps"},
		{"a merge of a list holding a scalar", "a: 1\nm:\n  b: 2\n  <<: [{c: 1}, 2]\n", Position{4, 1}, "map merge requires map or sequence of maps"},
		{"a merge of an alias to a scalar", "a: &x 1\nm:\n  b: 2\n  <<: *x\n", Position{4, 1}, "map merge requires map or sequence of maps"},
		{"a tag that does not fit", "a: 1\nb:\n  c: {d: !!int x}\n", Position{3, 1}, "cannot decode !!str `x` as a !!int"},
		{"a !!binary that is not base64", "a: 1\nb: !!binary A\n", Position{2, 1}, "invalid base64 data"},
	} {
		var problems []Problem
		f := Scan([]byte(tt.data), Options{}, func(d *Document) bool {
			if d.Problem != nil {
				problems = append(problems, *d.Problem)
			}
			return true
		})
		problems = append(problems, f.Problems...)
		if len(problems) != 1 || problems[0].Position != tt.want || !strings.Contains(problems[0].Message, tt.says) {
			t.Errorf("%s: Scan(%q) problems %+v; want one at %v saying %q", tt.name, tt.data, problems, tt.want, tt.says)
		}
	}
}
