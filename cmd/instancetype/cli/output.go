package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/amlarc-go/instancetypes/azureml"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/workload"
)

// colorWanted reports whether output to f may use colour: only on a terminal, never with
// NO_COLOR set or TERM=dumb.
func ColorWanted(f *os.File) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// writer prints a report in the chosen format.
type writer struct {
	Env
	cmd         string
	catalogHint string // Inputs.CatalogHint
	program     string // the program's name, for the summary of CI formats
}

// JSON shapes. Field names and order are a contract.
type (
	jsonFinding struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Field   string `json:"field"`
		Type    string `json:"type"`
		Rule    string `json:"rule"`
		Message string `json:"message"`
		// Cell and CellLine are a notebook's cell (1-based among all cells) and the
		// line in it; absent elsewhere.
		Cell     int `json:"cell,omitempty"`
		CellLine int `json:"cellLine,omitempty"`
	}
	jsonSuppressed struct {
		jsonFinding
		By string `json:"by"`
	}
	jsonSummary struct {
		Files      int `json:"files"`
		Documents  int `json:"documents"`
		Skipped    int `json:"skipped"`
		Findings   int `json:"findings"`
		Suppressed int `json:"suppressed"`
		// NotLiteral counts the values of azure-ai-ml calls not read (not literal);
		// absent when there are none.
		NotLiteral int `json:"notLiteral,omitempty"`
	}
	jsonSkip struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Reason string `json:"reason"`
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
		Resolved     bool              `json:"resolved"`
		Fits         *int              `json:"fits,omitempty"`
		// Compute is the compute target's name, "" when the workload names none; an Azure
		// ML expression (${{parent.inputs.compute}}) or a placeholder as written;
		// ComputeType is "kubernetes" when the computes given say so, and absent when its
		// type is not known.
		Compute     string `json:"compute"`
		ComputeType string `json:"computeType,omitempty"`
		// Path is where the workload is in its document, as the text's NAME column shows
		// a step: jobs.train for a pipeline's step, deployments[0] for a deployment inside
		// an endpoint, "" for a workload that is its whole document.
		Path string `json:"path"`
	}
	jsonInstanceType struct {
		Name         string            `json:"name"`
		BuiltIn      bool              `json:"builtIn"`
		Cluster      bool              `json:"cluster,omitempty"`
		File         string            `json:"file,omitempty"`
		Line         int               `json:"line,omitempty"`
		NodeSelector map[string]string `json:"nodeSelector"`
		Resources    jsonResources     `json:"resources"`
		Nodes        *jsonFit          `json:"nodes,omitempty"`
	}
	jsonFit struct {
		Matching   int `json:"matching"`
		Candidates int `json:"candidates"`
		Fits       int `json:"fits"`
	}
)

func toJSON(f lint.Finding) jsonFinding {
	return jsonFinding{
		File: f.File, Line: f.Line, Column: f.Column,
		Field: f.Err.Field, Type: f.TypeName(), Rule: f.Rule(), Message: f.Message(),
		Cell: f.Cell, CellLine: f.CellLine,
	}
}

func (w writer) json(r *lint.Report) error {
	findings := make([]jsonFinding, 0, len(r.Findings))
	for _, f := range r.Findings {
		findings = append(findings, toJSON(f))
	}
	suppressed := make([]jsonSuppressed, 0, len(r.Suppressed))
	for _, s := range r.Suppressed {
		suppressed = append(suppressed, jsonSuppressed{toJSON(s.Finding), s.By})
	}
	var notes []jsonFinding // absent when there are none
	for _, f := range r.Notes {
		notes = append(notes, toJSON(f))
	}
	sum := jsonSummary{Files: r.Files, Documents: r.Documents, Skipped: len(r.Skipped), Findings: len(r.Findings), Suppressed: r.SuppressedCount, NotLiteral: r.NotLiteral}
	skipped := make([]jsonSkip, 0, len(r.Skipped))
	for _, s := range r.Skipped {
		skipped = append(skipped, jsonSkip{File: s.File, Line: s.Line, Reason: s.Reason})
	}
	var out any
	switch w.cmd {
	case "validate":
		out = struct {
			Findings   []jsonFinding    `json:"findings"`
			Skipped    []jsonSkip       `json:"skipped"`
			Suppressed []jsonSuppressed `json:"suppressed"`
			Notes      []jsonFinding    `json:"notes,omitempty"`
			Summary    jsonSummary      `json:"summary"`
		}{findings, skipped, suppressed, notes, sum}
	case "resolve":
		ps := make([]jsonPlacement, 0, len(r.Placements))
		for _, p := range r.Placements {
			ps = append(ps, jsonPlacement{
				File: p.File, Line: p.Line, Kind: string(p.DocumentKind), Name: p.Name,
				InstanceType: p.InstanceType, NodeSelector: nonNil(p.NodeSelector()),
				Resources: jsonResources{Requests: canonical(p.Requests()), Limits: canonical(p.Limits())},
				Resolved:  p.Resolved, Compute: p.Compute, ComputeType: p.ComputeType,
			})
			if p.Path != nil {
				ps[len(ps)-1].Path = p.Path.String()
			}
			if r.Nodes > 0 && p.Fit != nil {
				n := p.Fit.Fits
				ps[len(ps)-1].Fits = &n
			}
		}
		out = struct {
			Placements []jsonPlacement  `json:"placements"`
			Findings   []jsonFinding    `json:"findings"`
			Skipped    []jsonSkip       `json:"skipped"`
			Suppressed []jsonSuppressed `json:"suppressed"`
			Notes      []jsonFinding    `json:"notes,omitempty"`
			Summary    jsonSummary      `json:"summary"`
		}{ps, findings, skipped, suppressed, notes, sum}
	case "list":
		var its []jsonInstanceType
		for it := range r.Catalog.All() {
			j := jsonInstanceType{
				Name: it.Name, BuiltIn: r.Catalog.IsBuiltIn(it.Name), NodeSelector: nonNil(it.Spec.NodeSelector),
				Resources: jsonResources{Requests: canonical(it.Spec.Resources.Requests), Limits: canonical(it.Spec.Resources.Limits)},
			}
			if o, ok := r.Origin(it.Name); ok && !j.BuiltIn {
				j.File, j.Line, j.Cluster = o.File, o.Line, o.Cluster
			}
			if res, ok := r.Fit(it.Name); ok {
				j.Nodes = &jsonFit{Matching: res.Matching, Candidates: res.Candidates, Fits: res.Fits}
			} else if r.Nodes > 0 {
				j.Nodes = &jsonFit{}
			}
			its = append(its, j)
		}
		out = struct {
			InstanceTypes []jsonInstanceType `json:"instanceTypes"`
			Findings      []jsonFinding      `json:"findings"`
			Suppressed    []jsonSuppressed   `json:"suppressed"`
			Summary       jsonSummary        `json:"summary"`
		}{its, findings, suppressed, sum}
	}
	enc := json.NewEncoder(escapedJSON{w.Stdout})
	enc.SetEscapeHTML(false) // "<stdin>", not "\u003cstdin\u003e": the output is read by people and jq, not put in HTML
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
	if !w.Color {
		return s
	}
	return code + s + reset
}

func (w writer) text(r *lint.Report) error {
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
	for _, f := range r.Findings {
		loc := Escape(f.File) + ":" + strconv.Itoa(f.Line) + ":"
		line := w.style(loc, bold) + " "
		if f.Err.Field != "" {
			line += w.style(Escape(f.Err.Field), yellow) + ": "
		}
		if _, err := fmt.Fprintln(w.Stdout, line+Escape(f.Message())+ruleTag(f.Rule())); err != nil {
			return err
		}
	}
	for _, f := range r.Notes {
		// To standard error, as the summary: a note is no finding, and the findings on
		// standard output stay what fails the run.
		line := Escape(f.File) + ":" + strconv.Itoa(f.Line) + ": "
		if f.Err.Field != "" {
			line += Escape(f.Err.Field) + ": "
		}
		if _, err := fmt.Fprintln(w.Stderr, line+"note: "+Escape(f.Message())); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w.Stderr, summary(r, w.catalogHint))
	return err
}

// ruleTag is the rule id that ends a finding's text line, " [R9]", so that
// "# instancetype:ignore R9" can be written from it; "" for a finding with no rule.
func ruleTag(rule string) string {
	if rule == "" {
		return ""
	}
	return " [" + Escape(rule) + "]"
}

// Escape makes s safe to print as part of one line: line breaks, other control characters
// (terminal escapes among them: ESC, BEL, the C1 controls), invalid UTF-8 and the
// characters that reorder text are written escaped, as %q would write them, so that input
// cannot forge a line of output or drive the terminal (kubectl escapes terminal special
// characters so since CVE-2021-25743). Text with nothing to escape is returned as it is.
func Escape(s string) string {
	clean := true
	for _, r := range s {
		if !printable(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case printable(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// maxMessage is the longest error message the command prints, in bytes.
const maxMessage = 2048

// EscapeMessage is a message that may repeat text from elsewhere (a flag's value, a path,
// an API server's error): clipped to 2 KiB, so that a huge argument makes a short message,
// and escaped (Escape), so that it is one line of plain text whatever it holds.
func EscapeMessage(s string) string { return Escape(clip.To(s, maxMessage)) }

// printable reports a character safe on one line of a terminal.
func printable(r rune) bool {
	return r != utf8.RuneError && unicode.IsPrint(r) && !unicode.Is(unicode.Bidi_Control, r)
}

// summary is the one-line account printed after text output; hint, when not empty,
// replaces the advice given when no instance type was given (Inputs.CatalogHint).
func summary(r *lint.Report, hint string) string {
	checked := plural(r.Files, "file") + ", " + plural(r.Documents, "document") + " checked"
	if r.Nodes > 0 {
		checked += " against " + plural(r.Nodes, "node")
	}
	if r.NotLiteral > 0 {
		checked += ", " + plural(r.NotLiteral, "Python value") + " not literal, not checked"
	}
	if len(r.Skipped) > 0 {
		checked += ", " + strconv.Itoa(len(r.Skipped)) + " skipped (-o json says why)"
	}
	if r.SuppressedCount > 0 {
		checked += ", " + plural(r.SuppressedCount, "finding") + " suppressed"
	}
	if len(r.Notes) > 0 {
		checked += ", " + plural(len(r.Notes), "note")
	}
	if !r.NamesChecked && r.Workloads > 0 {
		if hint == "" {
			hint = "no instance types given; give the cluster's with --catalog (kubectl get instancetypes -o yaml > catalog.yaml)"
		}
		checked += "; instance type names checked for form only: " + hint
	}
	if len(r.Findings) == 0 {
		return "no problems; " + checked
	}
	files := 0
	for i, f := range r.Findings {
		if i == 0 || f.File != r.Findings[i-1].File {
			files++
		}
	}
	return plural(len(r.Findings), "problem") + " in " + plural(files, "file") + "; " + checked
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func (w writer) placementTable(r *lint.Report) error {
	if len(r.Placements) == 0 {
		_, err := fmt.Fprintln(w.Stdout, "no deployments or jobs found")
		return err
	}
	t := table{
		header: []string{"WORKLOAD", "NAME", "COMPUTE", "INSTANCE TYPE", "STATUS"},
		last:   []bool{true},
	}
	if r.Nodes > 0 {
		t.header = append(t.header, "NODES")
	}
	for _, p := range r.Placements {
		kind := "deployment"
		switch {
		case p.DocumentKind == azureml.KindBatchDeployment:
			kind = "batch"
		case p.Kind == workload.ComputeJob:
			kind = "job"
		}
		compute := Escape(p.Compute)
		switch {
		case p.Compute == "" || p.ComputeType != "":
		case azureml.ParseCompute(p.Compute).Expression:
			compute += " (an expression: bound when the job is submitted)"
		case rules.PlaceholderOf(p.Compute) != rules.NoPlaceholder:
			compute += " (not filled in)"
		default:
			compute += " (type unknown)"
		}
		// kind/name, as kubectl names objects: deployment/blue, job/jobs.train for a
		// pipeline's step, job for a job with no name.
		name := p.Name
		if p.Path != nil && name == "" {
			name = p.Path.String()
		}
		if name != "" {
			name = kind + "/" + Escape(name)
		} else {
			name = kind
		}
		status := "ok"
		if !p.Resolved {
			status = "unresolved"
		}
		row := []string{Escape(p.File) + ":" + strconv.Itoa(p.Line), name, dash(compute), dash(Escape(p.InstanceType)), status}
		if r.Nodes > 0 {
			fits := "-"
			if p.Fit != nil {
				fits = strconv.Itoa(p.Fit.Fits) + "/" + strconv.Itoa(r.Nodes)
			}
			row = append(row, fits)
		}
		t.rows = append(t.rows, row)
		// What the placement gets, under its row: too long for columns of 120.
		t.notes = append(t.notes, "node selector "+pairs(p.NodeSelector())+"; requests "+written(p.Requests())+"; limits "+written(p.Limits()))
	}
	return t.write(w.Stdout)
}

func (w writer) catalogTable(r *lint.Report) error {
	tw := tabwriter.NewWriter(w.Stdout, 0, 4, 2, ' ', 0)
	nodes := ""
	if r.Nodes > 0 {
		nodes = "\tNODES"
	}
	fmt.Fprintln(tw, "NAME\tCPU REQUEST\tCPU LIMIT\tMEMORY REQUEST\tMEMORY LIMIT\tGPU\tNODE SELECTOR\tSOURCE"+nodes)
	for it := range r.Catalog.All() {
		res := it.Spec.Resources
		source := "built-in"
		if o, ok := r.Origin(it.Name); ok && !r.Catalog.IsBuiltIn(it.Name) {
			source = Escape(o.File) + ":" + strconv.Itoa(o.Line)
			if o.Cluster {
				source = "cluster (" + source + ")"
			}
			if it.Name == instancetype.DefaultName {
				source += " (overrides built-in)"
			}
		}
		fits := ""
		if r.Nodes > 0 {
			f, _ := r.Fit(it.Name)
			fits = "\t" + strconv.Itoa(f.Fits) + "/" + strconv.Itoa(r.Nodes)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s%s\n", Escape(it.Name),
			amount(res.Requests[instancetype.ResourceCPU]), amount(res.Limits[instancetype.ResourceCPU]),
			amount(res.Requests[instancetype.ResourceMemory]), amount(res.Limits[instancetype.ResourceMemory]),
			extended(res.Limits), pairs(it.Spec.NodeSelector), source, fits)
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
// name=value pairs otherwise. Names that are no extended resource (cpus) are left out:
// findings report them.
func extended(l instancetype.ResourceList) string {
	var names []string
	for name, a := range l {
		if rules.Classify(name) == rules.Extended && a.IsSet() {
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

// pairs renders a selector as k=v pairs, sorted, written as they are (escaped).
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
		keys[i] = Escape(k) + "=" + Escape(m[k])
	}
	return strings.Join(keys, ",")
}

// written renders the valid amounts of a list as name=amount pairs, each amount as it is
// written where it comes from (0.2Gi, not its canonical 214748364800m).
func written(l instancetype.ResourceList) string {
	out := make(map[string]string, len(l))
	for name, a := range l {
		if a.IsValid() {
			out[string(name)] = strings.TrimSpace(a.String())
		}
	}
	return pairs(out)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
