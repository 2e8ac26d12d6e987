package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
)

// colorWanted reports whether output to f may use colour: only on a terminal, never with
// NO_COLOR set or TERM=dumb.
func colorWanted(f *os.File) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// writer prints a report in the chosen format.
type writer struct {
	env
	cmd string
}

// JSON shapes. Field names and order are a contract (DESIGN.md §3).
type (
	jsonFinding struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Field   string `json:"field"`
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	jsonResources struct {
		Requests map[string]string `json:"requests"`
		Limits   map[string]string `json:"limits"`
	}
	jsonPlacement struct {
		File         string            `json:"file"`
		Line         int               `json:"line"`
		Kind         string            `json:"kind"`
		Name         string            `json:"name"`
		InstanceType string            `json:"instanceType"`
		NodeSelector map[string]string `json:"nodeSelector"`
		Resources    jsonResources     `json:"resources"`
	}
	jsonInstanceType struct {
		Name         string            `json:"name"`
		BuiltIn      bool              `json:"builtIn"`
		File         string            `json:"file,omitempty"`
		Line         int               `json:"line,omitempty"`
		NodeSelector map[string]string `json:"nodeSelector"`
		Resources    jsonResources     `json:"resources"`
	}
)

func (w writer) json(r *report) error {
	findings := make([]jsonFinding, 0, len(r.findings))
	for _, f := range r.findings {
		findings = append(findings, jsonFinding{
			File: f.File, Line: f.Line, Column: f.Column,
			Field: f.Err.Field, Type: string(f.Err.Type), Message: f.Message(),
		})
	}
	var out any
	switch w.cmd {
	case "validate":
		out = struct {
			Findings []jsonFinding `json:"findings"`
		}{findings}
	case "resolve":
		ps := make([]jsonPlacement, 0, len(r.placements))
		for _, p := range r.placements {
			ps = append(ps, jsonPlacement{
				File: p.doc.File, Line: p.doc.Line, Kind: string(p.doc.Workload.Kind), Name: p.doc.Workload.Name,
				InstanceType: p.InstanceType, NodeSelector: nonNil(p.NodeSelector()),
				Resources: jsonResources{Requests: canonical(p.Requests()), Limits: canonical(p.Limits())},
			})
		}
		out = struct {
			Placements []jsonPlacement `json:"placements"`
			Findings   []jsonFinding   `json:"findings"`
		}{ps, findings}
	case "list":
		var its []jsonInstanceType
		for _, name := range r.catalog.Names() {
			it, _ := r.catalog.Get(name)
			j := jsonInstanceType{
				Name: name, BuiltIn: r.catalog.IsBuiltIn(name), NodeSelector: nonNil(it.Spec.NodeSelector),
				Resources: jsonResources{Requests: canonical(it.Spec.Resources.Requests), Limits: canonical(it.Spec.Resources.Limits)},
			}
			if o, ok := r.origin[name]; ok && !j.BuiltIn {
				j.File, j.Line = o.File, o.Line
			}
			its = append(its, j)
		}
		out = struct {
			InstanceTypes []jsonInstanceType `json:"instanceTypes"`
			Findings      []jsonFinding      `json:"findings"`
		}{its, findings}
	}
	enc := json.NewEncoder(w.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// canonical renders the valid amounts of a list in canonical quantity form.
func canonical(l instancetype.ResourceList) map[string]string {
	out := make(map[string]string, len(l))
	for name, a := range l {
		if q, err := a.Quantity(); err == nil {
			out[string(name)] = q.String()
		}
	}
	return out
}

// ANSI styles, used only when colour is wanted.
const (
	bold   = "\x1b[1m"
	yellow = "\x1b[33m"
	reset  = "\x1b[0m"
)

func (w writer) style(s, code string) string {
	if !w.color {
		return s
	}
	return code + s + reset
}

func (w writer) text(r *report) error {
	switch w.cmd {
	case "resolve":
		if err := w.placementTable(r); err != nil {
			return err
		}
	case "list":
		if err := w.catalogTable(r); err != nil {
			return err
		}
	}
	for _, f := range r.findings {
		loc := f.File + ":" + strconv.Itoa(f.Line) + ":"
		line := w.style(loc, bold) + " "
		if f.Err.Field != "" {
			line += w.style(f.Err.Field, yellow) + ": "
		}
		if _, err := fmt.Fprintln(w.stdout, line+f.Message()); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w.stderr, summary(r))
	return err
}

// summary is the one-line account printed after text output.
func summary(r *report) string {
	checked := plural(len(r.files), "file") + ", " + plural(r.documents, "document") + " checked"
	if len(r.findings) == 0 {
		return "no problems; " + checked
	}
	return plural(len(r.findings), "problem") + " in " + plural(r.filesWithFindings(), "file") + "; " + checked
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func (w writer) placementTable(r *report) error {
	if len(r.placements) == 0 {
		_, err := fmt.Fprintln(w.stdout, "no deployments or jobs found")
		return err
	}
	tw := tabwriter.NewWriter(w.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKLOAD\tKIND\tNAME\tINSTANCE TYPE\tNODE SELECTOR\tREQUESTS\tLIMITS")
	for _, p := range r.placements {
		kind := "deployment"
		if p.doc.Workload.Kind == resolve.Job {
			kind = "job"
		}
		fmt.Fprintf(tw, "%s:%d\t%s\t%s\t%s\t%s\t%s\t%s\n",
			p.doc.File, p.doc.Line, kind, dash(p.doc.Workload.Name), dash(p.InstanceType),
			pairs(p.NodeSelector()), resourcePairs(p.Requests()), resourcePairs(p.Limits()))
	}
	return tw.Flush()
}

func (w writer) catalogTable(r *report) error {
	tw := tabwriter.NewWriter(w.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCPU REQUEST\tCPU LIMIT\tMEMORY REQUEST\tMEMORY LIMIT\tGPU\tNODE SELECTOR\tSOURCE")
	for _, name := range r.catalog.Names() {
		it, _ := r.catalog.Get(name)
		res := it.Spec.Resources
		source := "built-in"
		if o, ok := r.origin[name]; ok && !r.catalog.IsBuiltIn(name) {
			source = o.File + ":" + strconv.Itoa(o.Line)
			if name == instancetype.DefaultName {
				source += " (overrides built-in)"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name,
			amount(res.Requests[instancetype.ResourceCPU]), amount(res.Limits[instancetype.ResourceCPU]),
			amount(res.Requests[instancetype.ResourceMemory]), amount(res.Limits[instancetype.ResourceMemory]),
			extended(res.Limits), pairs(it.Spec.NodeSelector), source)
	}
	return tw.Flush()
}

// amount renders one value for a table: canonical when valid, as written otherwise.
func amount(a instancetype.Amount) string {
	if q, err := a.Quantity(); err == nil {
		return q.String()
	}
	if !a.IsSet() {
		return "-"
	}
	return strconv.Quote(a.String())
}

// extended renders the extended resources (GPUs) of limits: "1" for nvidia.com/gpu alone,
// name=value pairs otherwise.
func extended(l instancetype.ResourceList) string {
	var names []string
	for name, a := range l {
		if name != instancetype.ResourceCPU && name != instancetype.ResourceMemory && a.IsSet() {
			names = append(names, string(name))
		}
	}
	switch {
	case len(names) == 0:
		return "-"
	case len(names) == 1 && names[0] == string(instancetype.ResourceNvidiaGPU):
		return amount(l[instancetype.ResourceNvidiaGPU])
	}
	slices.Sort(names)
	for i, n := range names {
		names[i] = n + "=" + amount(l[instancetype.ResourceName(n)])
	}
	return strings.Join(names, ",")
}

func pairs(m map[string]string) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		keys[i] = k + "=" + m[k]
	}
	return strings.Join(keys, ",")
}

func resourcePairs(l instancetype.ResourceList) string { return pairs(canonical(l)) }

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
