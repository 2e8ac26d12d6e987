package notebook

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// A notebook as Jupyter writes it: indent 1, sources as arrays of lines.
const jupyter = `{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "# Title\n",
    "text"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {"tags": ["a", {"nested": [1, 2]}]},
   "outputs": [{"name": "stdout", "text": ["source\n"]}],
   "source": [
    "%pip install azure-ai-ml\n",
    "from azure.ai.ml import command\n",
    "job = command(compute=\"k8s\", instance_type=\"cpu-small\",\n",
    "              environment=\"é\\u00e9\\\"\")"
   ]
  },
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": "x = 1\ny = 2\n"},
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": [
    "%%bash\n",
    "echo hi\n"
   ]
  }
 ],
 "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 2
}
`

func TestParseJupyter(t *testing.T) {
	nb, err := Parse([]byte(jupyter))
	if err != nil {
		t.Fatal(err)
	}
	if nb.Language != "python" {
		t.Errorf("Language = %q, want python", nb.Language)
	}
	want := []Cell{
		{Number: 1, Type: "markdown", Source: "# Title\ntext", Lines: []int{7, 8}},
		{Number: 2, Type: "code", Source: "%pip install azure-ai-ml\nfrom azure.ai.ml import command\njob = command(compute=\"k8s\", instance_type=\"cpu-small\",\n              environment=\"é\\u00e9\\\"\")",
			Lines: []int{17, 18, 19, 20}},
		{Number: 3, Type: "code", Source: "x = 1\ny = 2\n", Lines: []int{23, 23, 23}},
		{Number: 4, Type: "code", Source: "%%bash\necho hi\n", Lines: []int{29, 30, 30}},
	}
	got := make([]Cell, len(nb.Cells))
	for i, c := range nb.Cells {
		got[i] = Cell{Number: c.Number, Type: c.Type, Source: c.Source, Lines: c.Lines}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse(jupyter).Cells =\n%#v\nwant\n%#v", nb.Cells, want)
	}
	// Columns of the file: the line's JSON string starts at column 5 (its quote);
	// \" is two characters, é one, \\ two.
	for _, tt := range []struct{ n, col, want int }{
		{1, 1, 6}, {4, 15, 20}, {4, 27, 32}, {4, 28, 34}, {4, 30, 35}, {4, 1000, 0}, {5, 1, 0}, {0, 1, 0},
	} {
		if got := nb.Cells[1].FileColumn(tt.n, tt.col); got != tt.want {
			t.Errorf("Cells[1].FileColumn(%d, %d) = %d; want %d", tt.n, tt.col, got, tt.want)
		}
	}
	// A Columns walks once for increasing columns, and again for a smaller one.
	k := nb.Cells[1].Columns(4)
	for col := 1; col <= len("              environment=\"é\\u00e9\\\"\")")+1; col++ {
		if got, want := k.At(col), nb.Cells[1].FileColumn(4, col); got != want {
			t.Errorf("Columns(4).At(%d) = %d; FileColumn = %d", col, got, want)
		}
	}
	if got := k.At(15); got != 20 {
		t.Errorf("Columns(4).At(15) after a later column = %d; want 20", got)
	}
	py, ok := nb.Cells[1].Python()
	if !ok || !strings.HasPrefix(py, "pass\nfrom azure.ai.ml import command\n") {
		t.Errorf("Cells[1].Python() = %q, %v; want the magic a pass", py, ok)
	}
	if _, ok := nb.Cells[3].Python(); ok {
		t.Errorf("Cells[3].Python(): a %%%%bash cell is not Python")
	}
	if _, ok := nb.Cells[0].Python(); ok {
		t.Errorf("Cells[0].Python(): a markdown cell is not Python")
	}
	if got := nb.Cells[1].FileLine(3); got != 19 {
		t.Errorf("FileLine(3) = %d, want 19", got)
	}
	if got := nb.Cells[1].FileLine(5); got != 0 {
		t.Errorf("FileLine(5) = %d, want 0", got)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		in       string
		notebook bool // the error wraps ErrNotNotebook
	}{
		{``, false},
		{`{`, false},
		{`[]`, true},
		{`{}`, true},
		{`{"cells": {}}`, true},
		{`{"cells": [{"cell_type": "code"}]}`, true},
		{`{"cells": [{"source": 1}]}`, true},
		{`{"cells": [{"source": [1]}]}`, true},
		{`{"cells": [{"source": ["a",`, false},
		{`{"cells": [{"source": `, false},
		{`{"cells": []} x`, false},
		{`{"worksheets": [{"cells": []}], "nbformat": 3}`, true},
	} {
		nb, err := Parse([]byte(tc.in))
		if err == nil || nb != nil {
			t.Errorf("Parse(%q) = %v, %v; want an error", tc.in, nb, err)
			continue
		}
		if got := errors.Is(err, ErrNotNotebook); got != tc.notebook {
			t.Errorf("Parse(%q) = %v; errors.Is(ErrNotNotebook) = %v, want %v", tc.in, err, got, tc.notebook)
		}
	}
}

// TestLinesProperty draws notebooks, writes them as Jupyter does or compact,
// and checks that each source line maps to a line of the file holding the
// JSON string it came from, and that the sources read back unchanged.
func TestLinesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		type cell struct {
			CellType string   `json:"cell_type"`
			Metadata any      `json:"metadata"`
			Source   []string `json:"source"`
		}
		piece := rapid.SampledFrom([]string{"x = 1", "f(a=\"é\")", "\t", "", "\"", "\\", "a\nb", "\n", "</script>", "\u2028", "{", "]", "😀", "\x01"})
		cells := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) cell {
			src := []string{}
			for i, n := 0, rapid.IntRange(0, 4).Draw(t, "strings"); i < n; i++ {
				s := ""
				for j, m := 0, rapid.IntRange(0, 3).Draw(t, "pieces"); j < m; j++ {
					s += piece.Draw(t, "piece")
				}
				src = append(src, s)
			}
			return cell{CellType: "code", Metadata: map[string]any{}, Source: src}
		}), 0, 4).Draw(t, "cells")
		var data []byte
		var err error
		if rapid.Bool().Draw(t, "indent") {
			data, err = json.MarshalIndent(map[string]any{"cells": cells, "nbformat": 4}, "", " ")
		} else {
			data, err = json.Marshal(map[string]any{"cells": cells, "nbformat": 4})
		}
		if err != nil {
			t.Fatal(err)
		}
		nb, err := Parse(data)
		if err != nil {
			t.Fatalf("Parse: %v\n%s", err, data)
		}
		if len(nb.Cells) != len(cells) {
			t.Fatalf("%d cells, want %d", len(nb.Cells), len(cells))
		}
		fileLines := strings.Split(string(data), "\n")
		for i, c := range nb.Cells {
			joined := strings.Join(cells[i].Source, "")
			if c.Source != joined {
				t.Fatalf("cell %d: Source %q, want %q", i+1, c.Source, joined)
			}
			if len(cells[i].Source) == 0 {
				if len(c.Lines) != 0 {
					t.Fatalf("cell %d: no strings but Lines %v", i+1, c.Lines)
				}
				continue
			}
			if got := len(strings.Split(c.Source, "\n")); len(c.Lines) != got {
				t.Fatalf("cell %d: %d Lines for %d lines", i+1, len(c.Lines), got)
			}
			// The k-th line of the source starts in the string that holds its
			// first character (or the last string, for a last empty line).
			k, at := 0, true
			for _, str := range cells[i].Source {
				enc, _ := json.Marshal(str)
				for _, ch := range []byte(str) {
					if at {
						if !strings.Contains(fileLines[c.Lines[k]-1], string(enc)) {
							t.Fatalf("cell %d line %d: file line %d %q does not hold %s", i+1, k+1, c.Lines[k], fileLines[c.Lines[k]-1], enc)
						}
						k++
						at = false
					}
					if ch == '\n' {
						at = true
					}
				}
			}
			// Each character of a line that the string holding its first
			// character holds is at FileColumn's column of that string's file
			// line: the JSON escape there decodes to it. A character a later
			// string holds has no column.
			k, lineLen, startedIn := 1, 0, -1
			for si, str := range cells[i].Source {
				for j, seg := range strings.Split(str, "\n") {
					if j > 0 {
						k, lineLen, startedIn = k+1, 0, -1
					}
					if seg != "" && startedIn < 0 {
						startedIn = si
					}
					for col := 1; col <= len(seg); {
						r, size := utf8.DecodeRuneInString(seg[col-1:])
						fc := c.FileColumn(k, lineLen+col)
						if startedIn != si {
							if fc != 0 {
								t.Fatalf("cell %d line %d col %d: FileColumn %d in a later string", i+1, k, lineLen+col, fc)
							}
						} else {
							checkColumn(t, fileLines[c.Lines[k-1]-1], fc, r)
						}
						col += size
					}
					lineLen += len(seg)
				}
			}
		}
	})
}

// checkColumn checks that the JSON escape at the 1-based character column fc of
// the file line decodes to r.
func checkColumn(t *rapid.T, fileLine string, fc int, r rune) {
	runes := []rune(fileLine)
	if fc < 1 || fc > len(runes) {
		t.Fatalf("FileColumn %d of %q, for %q", fc, fileLine, r)
	}
	tail := string(runes[fc-1:])
	n := 1
	switch {
	case strings.HasPrefix(tail, `\u`) && len(tail) >= 12 && strings.ContainsAny(tail[2:3], "dD") && tail[6:8] == `\u`:
		n = 12 // a surrogate pair
	case strings.HasPrefix(tail, `\u`):
		n = 6
	case tail[0] == '\\':
		n = 2
	default:
		_, n = utf8.DecodeRuneInString(tail)
	}
	var dec string
	if err := json.Unmarshal([]byte(`"`+tail[:n]+`"`), &dec); err != nil || dec != string(r) {
		t.Fatalf("FileColumn %d of %q: %q decodes to %q (%v); want %q", fc, fileLine, tail[:n], dec, err, r)
	}
}

func ExampleParse() {
	nb, err := Parse([]byte(`{
 "cells": [
  {"cell_type": "code", "metadata": {}, "outputs": [],
   "source": [
    "from azure.ai.ml import command\n",
    "job = command(instance_type=\"cpu-small\")"
   ]}
 ],
 "nbformat": 4
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	c := nb.Cells[0]
	src, _ := c.Python()
	fmt.Printf("cell %d, %d lines; line 2 is at line %d of the file\n", c.Number, strings.Count(src, "\n")+1, c.FileLine(2))
	// Output: cell 1, 2 lines; line 2 is at line 6 of the file
}

// IPython's escapes become Python, line for line: a statement where IPython's call is one,
// an assignment of a value not literal, and the lines a backslash continues them onto blank.
func TestPythonOfEscapes(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"!pip install azure-ai-ml\nx = 1", "pass\nx = 1"},
		{"for f in fs:\n    !echo $f\n    %time g(f)\ny = 2", "for f in fs:\n    pass\n    pass\ny = 2"},
		{"!cat a.json | curl $uri \\\n    --request POST \\\n    --data-binary @-\nz = 3", "pass\n\n\nz = 3"},
		{"files = !ls\nhome, = %env HOME\nself.out = !date", "files = get_ipython()\nhome, = get_ipython()\nself.out = get_ipython()"},
		{"x = 1 if a else !b", "x = 1 if a else !b"}, // not an escape IPython reads: left for the parser to refuse
		{"x == !y", "x == !y"},
		{"2x = !ls", "2x = !ls"},
		{"d['k'] = !ls", "d['k'] = !ls"},
		{"s = 'a % b'\nt = \"!\"", "s = 'a % b'\nt = \"!\""},
		{"%%bash\necho", ""},
	} {
		c := Cell{Type: "code", Source: tt.src}
		got, ok := c.Python()
		if !ok && tt.want != "" || got != tt.want {
			t.Errorf("Python(%q) = %q, %v; want %q", tt.src, got, ok, tt.want)
		}
		if ok && strings.Count(got, "\n") != strings.Count(tt.src, "\n") {
			t.Errorf("Python(%q) = %q: the lines moved", tt.src, got)
		}
	}
}
