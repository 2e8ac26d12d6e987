package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// runCheck runs validate, resolve or list.
func runCheck(cmd string, args []string, e env) int {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprint(e.stdout, commandHelp[cmd])
			return exitOK
		}
		if a == "--" {
			break
		}
	}
	o, err := parseFlags(cmd, args)
	if err != nil {
		fmt.Fprintf(e.stderr, "instancetype %s: %v\nRun 'instancetype help %s' for usage.\n", cmd, err, cmd)
		return exitUsage
	}
	if len(o.paths) == 0 && cmd != "list" {
		fmt.Fprintf(e.stderr, "instancetype %s: no PATH given (use - for standard input)\nRun 'instancetype help %s' for usage.\n", cmd, cmd)
		return exitUsage
	}
	files, err := load(o.paths, e.stdin)
	if err != nil {
		fmt.Fprintf(e.stderr, "instancetype %s: %v\n", cmd, err)
		return exitUsage
	}
	r := check(files, validate.Options{NodeSelector: o.nodeSelector, StrictSubset: o.strictSubset})
	if cmd == "resolve" {
		r.resolveAll(o.nodeSelector)
	}
	w := writer{env: e, cmd: cmd}
	if o.output == "json" {
		err = w.json(r)
	} else {
		err = w.text(r)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "instancetype %s: writing output: %v\n", cmd, err)
		return exitUsage
	}
	if len(r.findings) > 0 {
		return exitFindings
	}
	return exitOK
}

// report is the outcome of checking a set of files.
type report struct {
	files      []*manifest.File
	documents  int // non-empty documents read, recognised or not
	findings   []manifest.Finding
	catalog    *resolve.Catalog
	origin     map[string]manifest.Finding // where each custom instance type in the catalog is defined (File and Position only)
	placements []placement
}

// placement is a resolved workload with its place in the inputs.
type placement struct {
	doc *manifest.Document
	resolve.Placement
}

// check decodes, validates and builds the catalog.
func check(files []*manifest.File, opts validate.Options) *report {
	r := &report{files: files, origin: map[string]manifest.Finding{}}
	var srcs []validate.Source
	var docs []*manifest.Document // the document of each source
	var types []*instancetype.InstanceType
	for _, f := range files {
		r.documents += f.Count
		for _, d := range f.Documents {
			for i, it := range d.InstanceTypes {
				p := d.ItemPath(i)
				pos := d.Position(p.Child("metadata", "name").String())
				srcs = append(srcs, validate.Source{InstanceType: it, Path: p, Origin: d.File + ":" + strconv.Itoa(pos.Line)})
				docs = append(docs, d)
				types = append(types, it)
				r.origin[it.Name] = manifest.Finding{File: d.File, Position: pos}
			}
		}
	}
	r.catalog = resolve.NewCatalog(types...)

	// Findings: those of decoding first, then validation's, less any at a path decoding
	// already reported (a value of the wrong type is not also "required").
	seen := map[findingKey]bool{}
	for _, f := range files {
		for _, x := range f.Errors {
			r.findings = append(r.findings, x)
		}
		for _, d := range f.Documents {
			for _, e := range d.Errors {
				seen[findingKey{d, e.Field}] = true
			}
			r.findings = append(r.findings, d.Locate(d.Errors)...)
		}
	}
	addValidation := func(d *manifest.Document, errs field.ErrorList) {
		for _, x := range d.Locate(errs) {
			if !seen[findingKey{d, x.Err.Field}] {
				r.findings = append(r.findings, x)
			}
		}
	}
	for i, errs := range validate.InstanceTypes(srcs, opts) {
		addValidation(docs[i], errs)
	}
	for _, f := range files {
		for _, d := range f.Documents {
			if d.Workload != nil {
				addValidation(d, validate.Workload(r.catalog, d.Workload, nil, opts))
			}
		}
	}
	slices.SortStableFunc(r.findings, func(a, b manifest.Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return r
}

type findingKey struct {
	doc   *manifest.Document
	field string
}

// resolveAll resolves every workload of the inputs.
func (r *report) resolveAll(extension map[string]string) {
	for _, f := range r.files {
		for _, d := range f.Documents {
			if d.Workload != nil {
				p, _ := resolve.Resolve(r.catalog, d.Workload, nil, resolve.Options{NodeSelector: extension})
				r.placements = append(r.placements, placement{doc: d, Placement: p})
			}
		}
	}
}

// filesWithFindings counts the distinct files the findings are in.
func (r *report) filesWithFindings() int {
	n := 0
	for i, f := range r.findings {
		if i == 0 || f.File != r.findings[i-1].File {
			n++
		}
	}
	return n
}
