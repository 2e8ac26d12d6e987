package python

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCorpusAgreesWithCPython compares every .py file and every notebook
// code cell under INSTANCETYPES_PYTHON_CORPUS with CPython's ast, and says how
// many agree. It is for development: the corpus (Azure/azureml-examples'
// sdk/python, fetched as docs/python.md says) is public code and stays out of
// the repository, so the test skips without it.
func TestCorpusAgreesWithCPython(t *testing.T) {
	root := os.Getenv("INSTANCETYPES_PYTHON_CORPUS")
	if root == "" {
		t.Skip("INSTANCETYPES_PYTHON_CORPUS is not set: no corpus to compare")
	}
	var programs, names []string
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".py":
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			programs = append(programs, string(b))
			names = append(names, path)
		case ".ipynb":
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			cells, err := codeCells(b)
			if err != nil {
				t.Logf("%s: not a notebook: %v", path, err)
				return nil
			}
			files++
			for i, c := range cells {
				if c == "" {
					continue
				}
				programs = append(programs, c)
				names = append(names, path+"#cell"+strconv.Itoa(i+1))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := cpython(t, programs)
	agree, calls, refused := 0, 0, 0
	for i, src := range programs {
		if want[i] == nil {
			refused++
			_, err := Parse([]byte(src))
			t.Logf("%s: refused by CPython; here: %v", names[i], err)
		}
		for _, f := range want[i] {
			if strings.HasPrefix(f, "call ") {
				calls++
			}
		}
		if d := diffFacts(want[i], facts(src)); d != "" {
			t.Errorf("%s: %s", names[i], d)
			continue
		}
		agree++
	}
	t.Logf("%d files, %d programs (files and code cells), %d refused by CPython, %d calls; %d programs agree (%.2f%%)",
		files, len(programs), refused, calls, agree, 100*float64(agree)/float64(len(programs)))
}

// codeCells returns the source of each cell of a notebook, "" for cells that
// are not code and for cells run by a cell magic (%%bash...). IPython's line
// magics and shell escapes (lines starting with % or !) become blank lines,
// so that line numbers hold.
func codeCells(b []byte) ([]string, error) {
	var nb struct {
		Cells []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, err
	}
	out := make([]string, len(nb.Cells))
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		var src string
		var lines []string
		if err := json.Unmarshal(c.Source, &lines); err == nil {
			src = strings.Join(lines, "")
		} else if err := json.Unmarshal(c.Source, &src); err != nil {
			return nil, err
		}
		if strings.HasPrefix(strings.TrimSpace(src), "%%") {
			continue
		}
		ls := strings.Split(src, "\n")
		for j, l := range ls {
			if t := strings.TrimLeft(l, " \t"); strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
				ls[j] = ""
			}
		}
		out[i] = strings.Join(ls, "\n")
	}
	return out, nil
}
