// Validate-manifests lints manifests the way `instancetype validate` does, using the
// library instead of the command: it reads the source document's manifests and the
// deliberately broken ones (both embedded in package examples), builds the catalog from
// every instance type found, validates the instance types together (so that a name
// defined twice, in any two inputs, is reported) and every deployment and job against
// that catalog, and prints each finding as FILE:LINE: FIELD: MESSAGE, sorted, followed by
// a summary line.
//
// Run it with
//
//	go run ./examples/validate-manifests
//
// A CI linter built on this would exit non-zero when there are findings; this example
// exits 0 as long as it can read its inputs, since the findings are what it shows.
package main

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "validate-manifests:", err)
		os.Exit(1)
	}
}

// run validates the embedded manifests and prints the findings to w.
func run(w io.Writer) error {
	return lint(w, validate.Options{}, examples.Manifests, examples.Broken)
}

// lint reads every manifest of each file system, checks them all together and prints
// the findings and a summary to w.
func lint(w io.Writer, opts validate.Options, inputs ...fs.FS) error {
	var files []*manifest.File
	for _, fsys := range inputs {
		parsed, err := manifest.ParseFS(fsys, ".")
		if err != nil {
			return err
		}
		files = append(files, parsed...)
	}

	findings := check(files, opts)
	for _, f := range findings {
		fmt.Fprintln(w, f)
	}

	documents, withFindings := 0, map[string]bool{}
	for _, f := range files {
		documents += f.Count
	}
	for _, f := range findings {
		withFindings[f.File] = true
	}
	_, err := fmt.Fprintf(w, "%s in %s; %s, %s checked\n",
		count(len(findings), "problem"), count(len(withFindings), "file"),
		count(len(files), "file"), count(documents, "document"))
	return err
}

// count returns "1 thing" or "n things".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// check returns every finding of files, sorted by file and position: those found
// decoding, then those of validating the instance types together and each workload
// against the catalog they form.
func check(files []*manifest.File, opts validate.Options) []manifest.Finding {
	var (
		findings []manifest.Finding
		srcs     []validate.Source
		srcDocs  []*manifest.Document // the document of each source
		types    []*instancetype.InstanceType
	)
	// A field that failed to decode is reported once, by the decoder: validation would
	// only add "Required value" at the same place.
	type place struct {
		doc   *manifest.Document
		field string
	}
	decoded := map[place]bool{}
	for _, f := range files {
		findings = append(findings, f.Errors...)
		for _, d := range f.Documents {
			findings = append(findings, d.Locate(d.Errors)...)
			for _, e := range d.Errors {
				decoded[place{d, e.Field}] = true
			}
			for i, it := range d.InstanceTypes {
				p := d.ItemPath(i)
				line := d.Position(p.Child("metadata", "name").String()).Line
				srcs = append(srcs, validate.Source{InstanceType: it, Path: p, Origin: d.File + ":" + strconv.Itoa(line)})
				srcDocs = append(srcDocs, d)
				types = append(types, it)
			}
		}
	}
	addValidation := func(d *manifest.Document, errs field.ErrorList) {
		for _, f := range d.Locate(errs) {
			if !decoded[place{d, f.Err.Field}] {
				findings = append(findings, f)
			}
		}
	}
	for i, errs := range validate.InstanceTypes(srcs, opts) {
		addValidation(srcDocs[i], errs)
	}
	catalog := resolve.NewCatalog(types...)
	for _, f := range files {
		for _, d := range f.Documents {
			if d.Workload != nil {
				addValidation(d, validate.Workload(catalog, d.Workload, nil, opts))
			}
		}
	}

	slices.SortStableFunc(findings, func(a, b manifest.Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return findings
}
