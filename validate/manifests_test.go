package validate_test

import (
	"io/fs"
	"os"
	"testing"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// exampleManifests is the examples directory of the module: the source document's
// manifests, and deliberate mistakes under broken/.
var exampleManifests = os.DirFS("../examples")

// validateFiles validates every instance type and workload of the manifests matching
// pattern in exampleManifests, together, as the command-line tool does, and returns the
// findings of validation (not of decoding) by file.
func validateFiles(t *testing.T, pattern string) map[string][]manifest.Finding {
	t.Helper()
	names, err := fs.Glob(exampleManifests, pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Skipf("no manifests match examples/%s", pattern)
	}
	var files []*manifest.File
	for _, name := range names {
		data, err := fs.ReadFile(exampleManifests, name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, manifest.Parse(name, data))
	}
	found := map[string][]manifest.Finding{}
	for _, name := range names {
		found[name] = nil
	}
	var srcs []validate.Source
	var docs []*manifest.Document
	var types []*instancetype.InstanceType
	for _, f := range files {
		for _, d := range f.Documents {
			for i, it := range d.InstanceTypes {
				srcs = append(srcs, validate.Source{InstanceType: it, Path: d.ItemPath(i), Origin: d.File})
				docs = append(docs, d)
				types = append(types, it)
			}
		}
	}
	for i, errs := range validate.InstanceTypes(srcs, validate.Options{}) {
		for _, x := range docs[i].Locate(errs) {
			found[x.File] = append(found[x.File], x)
		}
	}
	catalog := resolve.NewCatalog(types...)
	for _, f := range files {
		for _, d := range f.Documents {
			if d.Workload != nil {
				for _, x := range d.Locate(validate.Workload(catalog, d.Workload, nil, validate.Options{})) {
					found[x.File] = append(found[x.File], x)
				}
			}
		}
	}
	return found
}

// The manifests of the source document are valid together.
func TestSourceManifests(t *testing.T) {
	for file, findings := range validateFiles(t, "*.yaml") {
		for _, x := range findings {
			t.Errorf("%s: %v", file, x)
		}
	}
}

// Every file of deliberate mistakes has findings, each on a line of the file.
func TestBrokenManifests(t *testing.T) {
	for name, findings := range validateFiles(t, "broken/*.yaml") {
		if len(findings) == 0 {
			t.Errorf("%s: no findings", name)
		}
		for _, x := range findings {
			if x.Line < 1 {
				t.Errorf("%s: finding without a line: %v", name, x)
			}
		}
	}
}
