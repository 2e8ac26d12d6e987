package pysdk

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus reads every .py file and notebook under $INSTANCETYPES_PYTHON_CORPUS (in
// development: a clone of Azure/azureml-examples' sdk/python, never committed) and
// reports what it finds: the workloads, skips and values not read. It fails on a file
// that is read with a value read that is not at a literal of its own line.
func TestCorpus(t *testing.T) {
	root := os.Getenv("INSTANCETYPES_PYTHON_CORPUS")
	if root == "" {
		t.Skip("INSTANCETYPES_PYTHON_CORPUS is not set: no corpus to read")
	}
	var files, refused, workloads, skipped, notLiteral, cellErrors int
	classes := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var read func([]byte) (*Result, error)
		switch filepath.Ext(path) {
		case ".py":
			read = ReadScript
		case ".ipynb":
			read = ReadNotebook
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		res, err := read(data)
		if err != nil {
			refused++
			return nil
		}
		if os.Getenv("INSTANCETYPES_PYTHON_CORPUS_VERBOSE") != "" && (len(res.Workloads) > 0 || len(res.NotLiteral) > 0) {
			t.Logf("%s:\n%s%v", path, summary(res), res.NotLiteral)
		}
		lines := strings.Split(string(data), "\n")
		for _, w := range res.Workloads {
			classes[w.Class]++
			for p, at := range w.At {
				if at.Line < 1 || at.Line > len(lines) {
					t.Errorf("%s: %s at line %d, out of the file", path, p, at.Line)
				}
			}
		}
		for _, s := range res.Skipped {
			classes["skipped "+s.Class]++
		}
		workloads += len(res.Workloads)
		skipped += len(res.Skipped)
		notLiteral += len(res.NotLiteral)
		cellErrors += len(res.CellErrors)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files (%d refused), %d workloads and parts, %d skipped, %d values not read, %d cells that do not parse; by class: %v",
		files, refused, workloads, skipped, notLiteral, cellErrors, classes)
}
