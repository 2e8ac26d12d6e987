package lint

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/azureml"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/source"
)

// IgnoreMarker begins the text of a suppression comment:
//
//	# instancetype:ignore R9
//	# instancetype:ignore R9, duplicate-key -- the GPU pool is being resized
//
// The rule ids follow it, separated by commas, spaces or both; text after " -- " is a
// reason, for people.
const IgnoreMarker = "instancetype:ignore"

// longList is the size past which a list is read item by item (source.Options.LongList):
// its runs of items are converted on every processor, and memory holds a run's values at
// a time rather than the whole list's.
const longList = 1 << 20

// readAs says what a file is read for, and so by whose reader.
type readAs uint8

const (
	// asInput: a manifest of the inputs, which may be anything: read as kubectl reads it,
	// but for an Azure ML file, which the Azure ML CLI reads (every line of it).
	asInput readAs = iota
	// asCluster: the cluster's instance types or nodes, as kubectl get prints them.
	asCluster
	// asComputes: compute targets, as az ml compute list prints them.
	asComputes
)

// document is one recognised document of a file, decoded: a Kubernetes document (decoded),
// or an Azure ML one (azure).
type document struct {
	file    string
	src     *source.Document
	decoded *decode.Result
	azure   *azureml.Result
	kind    string // decode.Kind or azureml.Kind
	// errs are every finding of decoding the document, of its objects included.
	errs field.ErrorList
}

// fileRead is what reading a file found besides its documents.
type fileRead struct {
	count    int // the non-empty documents, those that cannot be read included
	checked  int // the documents recognised and decoded
	skipped  []Skip
	findings []Finding        // the problems of the file, and of its documents that cannot be read
	comments []source.Comment // the suppression comments of documents not handed over
	// moreFindings and moreSkipped count those past maxFileReports, which the lists do
	// not hold.
	moreFindings, moreSkipped int
}

// maxFileReports is the most problems of reading, and documents skipped, a file's reading
// lists: past it, they are counted, so that a file of a million broken documents is not a
// million findings in memory.
const maxFileReports = 10_000

// addFinding adds a problem of reading the file, or counts it.
func (f *fileRead) addFinding(x Finding) {
	if len(f.findings) < maxFileReports {
		f.findings = append(f.findings, x)
		return
	}
	f.moreFindings++
}

// addSkip adds a document skipped, or counts it.
func (f *fileRead) addSkip(s Skip) {
	if len(f.skipped) < maxFileReports {
		f.skipped = append(f.skipped, s)
		return
	}
	f.moreSkipped++
}

// counted adds the findings and skips that count those past maxFileReports.
func (f *fileRead) counted(name string) {
	if f.moreFindings > 0 {
		at := f.findings[len(f.findings)-1].Position
		f.findings = append(f.findings, fileProblem(name, at, InputLimit, strconv.Itoa(f.moreFindings)+
			" more problems reading this file are not reported: a file's reading reports at most "+strconv.Itoa(maxFileReports)))
	}
	if f.moreSkipped > 0 {
		f.skipped = append(f.skipped, Skip{File: name, Line: f.skipped[len(f.skipped)-1].Line, Reason: strconv.Itoa(f.moreSkipped) +
			" more documents and items of this file skipped, not listed: a file's reading lists at most " + strconv.Itoa(maxFileReports)})
	}
}

// scanFile reads the contents of one file, named name in findings, calling fn with each
// document it recognises, in order: an InstanceType, an InstanceTypeList or a List, a Node,
// an Azure ML workload or compute (asComputes: every mapping of a name and a type is a
// compute). Other documents are skipped, with why, and a document that cannot be read is
// a finding. A file of Go template actions (a Helm chart's template) is skipped whole.
func scanFile(name string, data []byte, as readAs, fn func(*document)) *fileRead {
	f := &fileRead{}
	if as == asInput {
		if line, ok := templateAction(data); ok {
			f.skipped = append(f.skipped, Skip{File: name, Line: line,
				Reason: "holds Go template actions ({{ ... }}), as a Helm chart template does: not a manifest until rendered"})
			return f
		}
	}
	opts := source.Options{Reader: source.Kubectl, Marker: IgnoreMarker, LongList: longList}
	if as == asComputes {
		opts.Reader = source.Plain
	}
	if as != asInput || !source.LosesLastLine(data) {
		sf := source.Scan(data, opts, func(d *source.Document) bool {
			f.document(name, d, as, fn)
			return true
		})
		f.problems(name, sf)
		f.counted(name)
		return f
	}
	// kubectl loses the file's last line: its own documents are read as it reads them,
	// an Azure ML file as the Azure ML CLI reads it, with the line.
	var kubectl []*source.Document
	kf := source.Scan(data, opts, func(d *source.Document) bool { kubectl = append(kubectl, d); return true })
	opts.Reader = source.Plain
	azure := false
	pf := source.Scan(data, opts, func(d *source.Document) bool {
		if d.Problem == nil {
			if _, _, _, ok := decode.Recognise(d.Value); !ok {
				if kind, _ := azureml.Recognise(d.Value); kind != "" {
					azure = azure || d.Index >= len(kubectl)-1
					f.document(name, d, as, fn)
					return true
				}
			}
		}
		if d.Index < len(kubectl) {
			f.document(name, kubectl[d.Index], as, fn)
		}
		return true
	})
	if azure {
		f.problems(name, pf)
	} else {
		f.problems(name, kf)
	}
	f.counted(name)
	return f
}

// problems adds the problems of the file as a whole, and its comments in no document.
func (f *fileRead) problems(name string, sf *source.File) {
	for _, p := range sf.Problems {
		f.addFinding(problemFinding(name, p, ""))
	}
	f.comments = append(f.comments, sf.Comments...)
}

// problemFinding is the finding of a problem of reading; what, for a problem of a
// document's syntax, says which ("YAML", "JSON").
func problemFinding(file string, p source.Problem, what string) Finding {
	switch p.Kind {
	case source.Limit:
		return fileProblem(file, p.Position, InputLimit, p.Message)
	case source.Refused:
		f := fileProblem(file, p.Position, SyntaxError, p.Message)
		f.Err.Origin = rules.KubectlRefuses
		return f
	}
	msg := p.Message
	if what != "" {
		msg = what + " syntax error: " + msg
	}
	return fileProblem(file, p.Position, SyntaxError, msg)
}

// syntaxOf names the syntax of a document, for its syntax errors.
func syntaxOf(d *source.Document) string {
	if d.JSON {
		return "JSON"
	}
	return "YAML"
}

// document recognises and decodes one document.
func (f *fileRead) document(name string, d *source.Document, as readAs, fn func(*document)) {
	f.count++
	if d.Problem != nil {
		f.addFinding(problemFinding(name, *d.Problem, syntaxOf(d)))
		f.comments = append(f.comments, d.Comments...)
		return
	}
	doc := &document{file: name, src: d}
	skip := func(reason string) {
		f.addSkip(Skip{File: name, Line: d.Line, Reason: reason})
		f.comments = append(f.comments, d.Comments...)
	}
	if as == asComputes {
		kind, why := azureml.RecogniseCompute(d.Value)
		if kind == "" {
			skip(why)
			return
		}
		doc.kind, doc.azure = string(kind), azureml.Read(d, kind)
	} else if kind, why, problem, ok := decode.Recognise(d.Value); ok {
		switch {
		case problem != nil:
			f.addFinding(Finding{File: name, Position: d.PositionOf(problem.Field), Err: problem})
			f.comments = append(f.comments, d.Comments...)
			return
		case kind == "":
			skip(why)
			return
		}
		doc.kind, doc.decoded = string(kind), decode.Document(d, kind)
		if p := d.ItemsProblem(); p != nil {
			f.addFinding(problemFinding(name, *p, ""))
		}
	} else {
		kind, why := azureml.Recognise(d.Value)
		if kind == "" {
			skip(why)
			return
		}
		doc.kind, doc.azure = string(kind), azureml.Read(d, kind)
	}
	doc.collect()
	for _, s := range doc.skips() {
		f.addSkip(s)
	}
	f.checked++
	fn(doc)
}

// collect gathers every finding of decoding the document.
func (d *document) collect() {
	if r := d.decoded; r != nil {
		d.errs = append(d.errs, r.Errors...)
		for _, o := range r.InstanceTypes {
			d.errs = append(d.errs, o.Errors...)
		}
		for _, o := range r.Nodes {
			d.errs = append(d.errs, o.Errors...)
		}
	}
	if r := d.azure; r != nil {
		d.errs = append(d.errs, r.Errors...)
		for _, w := range r.Workloads {
			d.errs = append(d.errs, w.Errors...)
		}
		for _, c := range r.Computes {
			d.errs = append(d.errs, c.Errors...)
		}
	}
}

// skips are the parts of the document not checked: the items of a List of other kinds,
// the steps of a pipeline that do not run on Kubernetes.
func (d *document) skips() []Skip {
	var out []Skip
	if r := d.decoded; r != nil {
		for _, s := range r.Skipped {
			out = append(out, Skip{File: d.file, Line: d.src.PositionOf(s.Path.String()).Line, Reason: s.Reason})
		}
	}
	if r := d.azure; r != nil {
		for _, s := range r.Skipped {
			out = append(out, Skip{File: d.file, Line: d.src.ValuePositionOf(s.Path.String()).Line, Reason: s.Reason})
		}
	}
	return out
}

// instanceTypes are the document's instance types.
func (d *document) instanceTypes() []decode.Object[*instancetype.InstanceType] {
	if d.decoded == nil {
		return nil
	}
	return d.decoded.InstanceTypes
}

// nodes are the document's nodes.
func (d *document) nodes() []decode.Object[cluster.Node] {
	if d.decoded == nil {
		return nil
	}
	return d.decoded.Nodes
}

// workloads are the document's workloads.
func (d *document) workloads() []azureml.Item {
	if d.azure == nil {
		return nil
	}
	return d.azure.Workloads
}

// computes are the document's compute targets.
func (d *document) computes() []azureml.ComputeItem {
	if d.azure == nil {
		return nil
	}
	return d.azure.Computes
}

// forPositions is what placing the findings of the document's workloads needs, once it is
// decoded: its text, its findings of decoding (which the findings of validation must not
// restate), and where those whose path does not say are; not its values or its objects.
func (d *document) forPositions() *document {
	k := &document{file: d.file, src: d.src, kind: d.kind, errs: d.errs}
	if d.azure != nil {
		k.azure = &azureml.Result{At: d.azure.At, Aliases: d.azure.Aliases}
	}
	return k
}

// line is where the object at path p of the document starts: the document's first line
// for the document itself.
func (d *document) line(p *field.Path) int {
	if p == nil {
		return d.src.Line
	}
	return d.src.ValuePositionOf(p.String()).Line
}

// maxFieldLen is the longest field path a finding repeats. A path holds the keys above the
// offending node, which a file may make as long as a scalar may be: a longer path is cut,
// as values are, so that one long key does not repeat in full in every finding below it.
// The finding's line still leads to the node.
const maxFieldLen = 1024

// locate returns the findings of errs, the document's own (of decoding) and those of
// validation, each with the position of its field in the document's file. A finding of
// validation at or below a value that decoding refused (a number where a string belongs)
// is left out: decoding has said it, and one mistake gets one finding
// (decode.WithoutRestated). A field path longer than maxFieldLen is cut.
func (d *document) locate(errs field.ErrorList) []Finding {
	own := make(map[*field.Error]bool, len(d.errs))
	for _, e := range d.errs {
		own[e] = true
	}
	var decoded, validation field.ErrorList
	for _, e := range errs {
		if own[e] {
			decoded = append(decoded, e)
		} else {
			validation = append(validation, e)
		}
	}
	validation = decode.WithoutRestated(d.errs, validation, d.alias)
	out := make([]Finding, 0, len(decoded)+len(validation))
	for _, e := range errs {
		if own[e] {
			out = append(out, d.finding(e))
		}
	}
	for _, e := range validation {
		out = append(out, d.finding(e))
	}
	return out
}

// finding is the finding of one error of the document.
func (d *document) finding(e *field.Error) Finding {
	pos, ok := d.at(e)
	if !ok {
		pos = d.src.PositionOf(d.alias(e.Field))
	}
	f := Finding{File: d.file, Position: pos, Err: e}
	if e.Origin == rules.UnknownField {
		f.Type = UnknownField
	}
	if len(e.Field) > maxFieldLen {
		c := *e
		c.Field = clip.To(e.Field, maxFieldLen)
		f.Err = &c
	}
	return f
}

// at is where the error e is, when the path does not say.
func (d *document) at(e *field.Error) (Position, bool) {
	var at map[*field.Error]source.Position
	if d.decoded != nil {
		at = d.decoded.At
	} else if d.azure != nil {
		at = d.azure.At
	}
	p, ok := at[e]
	return p, ok
}

// alias is the path a value is written at, for the path validation knows it by:
// resources.limits[gpu] for resources.limits[nvidia.com/gpu] in an Azure ML file.
func (d *document) alias(p string) string {
	if d.azure == nil || d.azure.Aliases == nil {
		return p
	}
	for known, written := range d.azure.Aliases {
		if p == known || strings.HasPrefix(p, known) && (p[len(known)] == '.' || p[len(known)] == '[') {
			return written + p[len(known):]
		}
	}
	return p
}
