package python

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/internal/notebook"
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
			nb, err := notebook.Parse(b)
			if err != nil {
				t.Logf("%s: not a notebook: %v", path, err)
				return nil
			}
			files++
			checkLines(t, path, b, nb)
			for _, c := range nb.Cells {
				src, ok := c.Python()
				if !ok || src == "" {
					continue
				}
				programs = append(programs, src)
				names = append(names, path+"#cell"+strconv.Itoa(c.Number))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := cpython(t, programs)
	agree, calls, nodes, refused := 0, 0, 0, 0
	for i, src := range programs {
		if want[i] == nil {
			refused++
			_, err := Parse([]byte(src))
			t.Logf("%s: refused by CPython; here: %v", names[i], err)
		}
		for _, f := range want[i] {
			switch {
			case strings.HasPrefix(f, "call "):
				calls++
			case strings.HasPrefix(f, "node "):
				nodes++
			}
		}
		if d := diffFacts(want[i], facts(src)); d != "" {
			t.Errorf("%s: %s", names[i], d)
			continue
		}
		agree++
	}
	t.Logf("%d files, %d programs (files and code cells), %d refused by CPython, %d calls, %d nodes; %d programs agree (%.2f%%)",
		files, len(programs), refused, calls, nodes, agree, 100*float64(agree)/float64(len(programs)))
}

// checkLines checks that each line of each cell is held by the JSON string
// that starts on the line of the file the notebook reader gives.
func checkLines(t *testing.T, path string, data []byte, nb *notebook.Notebook) {
	fileLines := strings.Split(string(data), "\n")
	for _, c := range nb.Cells {
		for k, line := range strings.Split(c.Source, "\n") {
			if line == "" {
				continue
			}
			at := strings.TrimSpace(fileLines[c.FileLine(k+1)-1])
			at = strings.TrimSuffix(strings.TrimPrefix(at, `"source": `), ",")
			var s string
			if err := json.Unmarshal([]byte(at), &s); err != nil || !strings.Contains(s, line) {
				t.Errorf("%s: cell %d line %d %q: the file's line %d is %q", path, c.Number, k+1, line, c.FileLine(k+1), at)
				return
			}
		}
	}
}
