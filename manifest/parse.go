package manifest

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/workload"
)

// Input limits. The YAML reader itself limits nesting to 10,000 levels.
const (
	// MaxFileSize is the largest file read, in bytes. Larger files are one finding.
	MaxFileSize = 64 << 20
	// MaxScalarSize is the longest scalar (key or value) accepted in a document, in bytes.
	// A document holding a longer one is dropped with one finding.
	MaxScalarSize = 64 << 10
	// MaxNodes is the most nodes a document read whole may hold, and the most it may
	// expand to once aliases are followed. The YAML reader's tree takes about 200 bytes a
	// node, so this bounds memory too: only one document's tree is held at a time. A
	// document over it is one finding, found by counting the bytes that can begin a node
	// before anything is parsed. A long list read in parts (see MaxListNodes) holds each
	// of its parts to it.
	MaxNodes = 1_500_000
	// MaxAliasGrowth bounds what aliases may add to a document: its nodes, expanded, may
	// number at most MaxAliasGrowth times those written plus 65,536. Anchors used as
	// templates stay well within it; an alias bomb, or an item with a thousand mistakes
	// aliased a thousand times, does not.
	MaxAliasGrowth = 16
	// MaxDepth is the deepest a document may nest once aliases are followed, the YAML
	// reader's own limit for the text.
	MaxDepth = 10000
	// MaxItems is the most items one document may hold: instance types, Kubernetes
	// Nodes, compute targets, pipeline steps, and the items of a List skipped. A document
	// of more, a list, is ignored with one finding, met at the first item past the limit,
	// so that what a document holds until it is read (about 2 KB an instance type) stays
	// bounded. No cluster has near as many (Kubernetes supports 5,000 nodes).
	MaxItems = 25_000
	// MaxFileReports is the most findings of reading one file (File.Errors) and the most
	// documents and items skipped (File.Skipped) a File lists: past it, one more of each
	// counts the rest, so that a file of millions of broken or foreign documents is read
	// in bounded memory.
	MaxFileReports = 10_000
)

// manifestExtensions are the file name extensions of manifests.
var manifestExtensions = [...]string{".yaml", ".yml", ".json"}

// IsManifestName reports whether a file of this name is read when a directory is walked:
// its extension is .yaml, .yml or .json, in any case.
func IsManifestName(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || strings.ContainsAny(name[dot:], `/\`) {
		return false
	}
	for _, e := range manifestExtensions {
		if strings.EqualFold(name[dot:], e) {
			return true
		}
	}
	return false
}

// Parse reads the documents of one file's contents. name is used in findings only. Each
// document keeps the table of positions its decoding filled (see [Document.Position]), not
// its node tree: memory holds one document's tree at a time, and after reading, the decoded
// documents.
//
// Parse never fails: every problem, a syntax error included, is a finding of the returned
// File. A syntax error ends its document only; the documents after it are read.
func Parse(name string, data []byte) *File { return scan(name, data, nil, false) }

// Scan is Parse for large inputs, in memory that does not grow with the number of
// documents: it calls fn with each recognised document once it is decoded, and does not
// keep the document in the File (whose Documents stay empty, and whose Findings leave out
// those of the documents: fn has them). A document fn keeps answers every question as one
// of Parse would. fn may be nil.
func Scan(name string, data []byte, fn func(*Document)) *File { return scan(name, data, fn, true) }

// ScanComputes is Scan for a file that holds compute targets, as its caller was told (the
// instancetype command's --computes): each document is read as a compute target when it
// is a mapping with a name and a type, or as a list of them when it is a list of such
// mappings, whatever else it holds, as well as when Scan would read it as one. So a
// compute file that holds its name and type alone, which among manifests may be taken for
// an online endpoint, is a compute target here, and one whose type is misspelt is a
// compute target with a finding at its type. Any other document is skipped.
func ScanComputes(name string, data []byte, fn func(*Document)) *File {
	r := &reader{f: &File{Name: name}, fn: fn, drop: true, as: recogniseCompute}
	return r.read(data)
}

// Read is Parse on the contents of r, read up to MaxFileSize. It fails only if r does.
func Read(name string, r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	return Parse(name, data), nil
}

// reader reads one file.
type reader struct {
	f    *File
	fn   func(*Document)
	drop bool                       // do not keep the documents in f (Scan)
	each func(*yaml.Node, *decoder) // for tests: called with every non-empty document
	// as recognises the documents: recognise when nil.
	as func(*yaml.Node) (Kind, string, *field.Error)
	// moreErrors and moreSkips count the findings and skips past MaxFileReports, which
	// f does not hold; moreAt is the first of those findings, skipAt the line of the
	// first of those skips.
	moreErrors, moreSkips int
	moreAt                Position
	skipAt                int
	// comments is set when the file is YAML holding IgnoreMarker: suppression comments
	// are then read from each document as it is parsed (see readComments).
	comments *commentReader
	marked   bool // the file begins with UTF-8's byte order mark (see dropLostLine)
}

// lostLine reports the line lost of YAML that starts on the given line and column of the
// file, if lost is one (see dropLostLine).
func (r *reader) lostLine(lost, line, column int) {
	if lost == 0 {
		return
	}
	pos := Position{Line: line + lost - 1, Column: 1}
	if lost == 1 {
		pos.Column += column
	}
	r.problem(pos, SyntaxError, "kubectl ignores this line: the file's last line has no line break, "+
		"and kubectl's YAML reader drops such a line when its length is a multiple of 4,096 bytes: end the file with a line break")
}

// commentReader reads the suppression comments of a YAML file document by document, from
// the parse the reader makes of each, so that no document is parsed twice.
type commentReader struct {
	lines cursor // the file's text, for the "---" lines between documents
	// sup are the comments that apply to the document being read, which the Document
	// made of it takes; pending those of a document of comments alone, which apply to
	// the next.
	sup, pending []Suppression
}

func scan(name string, data []byte, fn func(*Document), drop bool) *File {
	r := &reader{f: &File{Name: name}, fn: fn, drop: drop}
	return r.read(data)
}

// read reads the documents of data into r.f.
func (r *reader) read(data []byte) *File {
	if len(data) > MaxFileSize {
		r.problem(Position{1, 1}, InputLimit, fmt.Sprintf("file too large: more than %d bytes", MaxFileSize))
		return r.f
	}
	r.marked = bytes.HasPrefix(data, utf8Mark)
	text, problem := decodeText(data)
	if problem != nil {
		r.problem(Position{problem.line, 1}, SyntaxError, problem.detail)
		if problem.fatal {
			r.f.Count++ // a document that cannot be read
			return r.f
		}
	}
	data = text
	if line, ok := templateAction(data); ok {
		r.skip(Skip{Line: line,
			Reason: "holds Go template actions ({{ ... }}), as a Helm chart template does: not a manifest until rendered"})
		return r.f
	}
	if isJSON(data) {
		r.readJSON(data) // JSON has no comments, nor the YAML kubectl may read instead
	} else {
		lost := 0
		data, lost = dropLostLine(data, r.marked)
		r.lostLine(lost, 1, 0)
		if bytes.Contains(data, []byte(IgnoreMarker)) {
			r.comments = &commentReader{lines: cursor{data: data, line: 1}}
		}
		r.readYAML(data, 1, 0)
		if r.comments != nil && len(r.comments.pending) > 0 {
			applyToNext(r.comments.pending, nil) // comments at the end: no document after them
			r.f.Suppressions = append(r.f.Suppressions, r.comments.pending...)
		}
	}
	if r.moreErrors > 0 {
		r.f.Errors = append(r.f.Errors, fileProblem(r.f.Name, r.moreAt, InputLimit, fmt.Sprintf(
			"%d more problems reading this file are not reported: a file's reading reports at most %d", r.moreErrors, MaxFileReports)))
	}
	if r.moreSkips > 0 {
		r.f.Skipped = append(r.f.Skipped, Skip{Line: r.skipAt, Reason: fmt.Sprintf(
			"%d more documents and items of this file skipped, not listed: a file's reading lists at most %d", r.moreSkips, MaxFileReports)})
	}
	return r.f
}

func (r *reader) problem(pos Position, t FindingType, detail string) {
	r.addError(fileProblem(r.f.Name, pos, t, detail))
}

// addError adds a finding of reading the file, or counts it past MaxFileReports.
func (r *reader) addError(x Finding) {
	if len(r.f.Errors) < MaxFileReports {
		r.f.Errors = append(r.f.Errors, x)
		return
	}
	if r.moreErrors == 0 {
		r.moreAt = x.Position
	}
	r.moreErrors++
}

// skip adds a document or an item skipped, or counts it past MaxFileReports.
func (r *reader) skip(s Skip) {
	if len(r.f.Skipped) < MaxFileReports {
		r.f.Skipped = append(r.f.Skipped, s)
		return
	}
	if r.moreSkips == 0 {
		r.skipAt = s.Line
	}
	r.moreSkips++
}

// readYAML reads data, which starts on the given line of the file, as YAML documents.
func (r *reader) readYAML(data []byte, line, column int) {
	for c := range yamlChunks(data, r.badSeparator(line)) {
		if c.line == 1 {
			c.column = column
		}
		c.line += line - 1
		r.readChunk(c)
	}
}

// badSeparator returns the function that reports a separator kubectl refuses, in text that
// starts on the given line of the file.
func (r *reader) badSeparator(line int) func(int, string) {
	return func(l int, text string) {
		r.problem(Position{Line: l + line - 1, Column: 1}, SyntaxError, "invalid YAML document separator: "+
			strconv.Quote(clip.String(text))+" follows ---: kubectl allows only a comment there, and reads no further")
	}
}

// readChunk reads one YAML document.
func (r *reader) readChunk(c chunk) {
	n, d, problem := parseChunk(r.f.Name, c)
	if r.comments != nil {
		r.comments.read(c, n, d, problem != nil)
		// The comments no document took (one skipped, or that cannot be read) are the
		// file's.
		defer func() {
			r.f.Suppressions = append(r.f.Suppressions, r.comments.sup...)
			r.comments.sup = nil
		}()
	}
	if problem != nil {
		// A document that cannot be read is not empty: it counts.
		r.addError(*problem)
		r.f.Count++
		return
	}
	if n == nil {
		return
	}
	r.f.Count++
	if d != nil && !r.add(n, d) {
		// A part of a long list does not read alone: the document is read whole.
		n, d, problem = parseChunkWhole(r.f.Name, c)
		if problem != nil {
			r.addError(*problem)
		}
		if d != nil {
			r.add(n, d)
		}
	}
}

// parseChunk parses one YAML document and retypes its scalars. It returns the root node and
// a decoder for it, or nil for an empty document; a problem that keeps the document from
// being read is returned (with a nil decoder, and the root when the document is not empty).
// A long list is read in parts (see parts.go): the root returned holds the list empty, and
// the decoder parses and retypes its parts as it comes to their items.
func parseChunk(name string, c chunk) (*yaml.Node, *decoder, *Finding) {
	return parseChunkAs(name, c, true)
}

// parseChunkWhole is parseChunk for a document read whole, whatever it holds.
func parseChunkWhole(name string, c chunk) (*yaml.Node, *decoder, *Finding) {
	return parseChunkAs(name, c, false)
}

func parseChunkAs(name string, c chunk, inParts bool) (*yaml.Node, *decoder, *Finding) {
	lines := c.line - 1
	if emptyDocument(c.data) {
		return nil, nil, nil // nothing to read: no need to parse it
	}
	var doc *yaml.Node
	var list *longList
	if inParts && len(c.data) >= splitMin {
		doc, list, _ = cutList(c.data, partSize)
	}
	if list == nil {
		// nodeBound counts at most two nodes a byte: a shorter document needs no count.
		if 2*len(c.data)+2 > MaxNodes {
			if n := nodeBound(c.data); n > MaxNodes {
				x := fileProblem(name, Position{c.line, 1}, InputLimit, fmt.Sprintf("document too large: about %d nodes, more than %d", n, MaxNodes))
				return nil, nil, &x
			}
		}
		var err error
		if doc, err = parseDocument(c.data); err != nil {
			x := syntaxError(name, c.data, err)
			x.Position = c.position(x.Line, x.Column)
			return nil, nil, &x
		}
	}
	if len(doc.Content) == 0 {
		return nil, nil, nil
	}
	n := doc.Content[0]
	t := &retyper{source: c.data, bangs: bytes.IndexByte(c.data, '!') >= 0}
	t.walkRoot(n)
	t.unsendable(n)
	if _, refused := t.refused[n]; isNull(n) && !refused {
		return nil, nil, nil
	}
	if t.tooLong != nil {
		x := fileProblem(name, c.position(t.tooLong.Line, t.tooLong.Column), InputLimit, fmt.Sprintf(
			"document ignored: a scalar of %d bytes, more than %d", len(t.tooLong.Value), MaxScalarSize))
		return n, nil, &x
	}
	limit := min(MaxNodes, MaxAliasGrowth*t.nodes+65536)
	if list != nil {
		limit = MaxListNodes // a list read in parts holds no alias: it grows by none
	}
	d := newDecoder(t.nodes, limit, lines)
	d.columns = c.column
	d.refusedNodes, d.refusal, d.aliases = t.refused, refusedWherever(t.refused), t.aliases > 0
	d.long, d.retype = list, t
	return n, d, nil
}

// parseDocument parses one YAML document, as yaml.Unmarshal does, into its document node.
// Unmarshal reads the first document of its input in place: a Decoder would copy the text
// through its buffers.
func parseDocument(data []byte) (*yaml.Node, error) {
	if doc := parsePlain(data); doc != nil {
		return doc, nil
	}
	var doc yaml.Node
	err := yaml.Unmarshal(data, &doc)
	return &doc, err
}

// readJSON reads data as kubectl reads a JSON stream: one document per value. When the
// first value, or the second, is not an object kubectl reads the rest as YAML instead, and
// so does this; when that fails too, the JSON problem is reported.
func (r *reader) readJSON(data []byte) {
	j := newJSONReader(data)
	j.limit = MaxNodes
	end := 0 // where the last value read ends
	for count := 0; j.more(); count++ {
		v, err := j.value(0)
		if err == nil && v.Kind != yaml.MappingNode {
			err = &jsonError{pos: Position{v.Line, v.Column}, msg: "a JSON " + strings.TrimPrefix(kindName(v), "a ") + ", not an object"}
		}
		if err != nil {
			je := err.(*jsonError)
			if je.limit {
				// kubectl would read the value as JSON: no YAML instead.
				r.f.Count++
				r.problem(je.pos, InputLimit, je.msg)
				return
			}
			if count <= 1 && r.yamlInstead(data, end, count) {
				return
			}
			r.f.Count++ // the value that cannot be read
			r.problem(je.pos, SyntaxError, "JSON syntax error: "+je.msg)
			return
		}
		end = j.off
		r.f.Count++
		if j.tooLong != nil {
			r.problem(Position{j.tooLong.Line, j.tooLong.Column}, InputLimit, fmt.Sprintf(
				"document ignored: a value of %d bytes, more than %d", len(j.tooLong.Value), MaxScalarSize))
			j.nodes, j.refused, j.tooLong = 0, nil, nil
			continue
		}
		d := newDecoder(j.nodes, min(MaxNodes, MaxAliasGrowth*j.nodes+65536), 0)
		d.json, d.refusedNodes, d.refusal = true, j.refused, len(j.refused) > 0
		j.nodes, j.refused = 0, nil
		r.add(v, d)
	}
}

// yamlInstead reads data as YAML from where kubectl rewinds to after failing on its
// count-th JSON value (the first, or the second, after a first that ended at end), and
// reports whether that went without a syntax error; if not, nothing of it is read. The
// YAML is first read for syntax errors alone, document by document, then read again to be
// decoded, so that no document is kept waiting for the verdict: memory holds one at a
// time, as in any other reading.
func (r *reader) yamlInstead(data []byte, end, count int) bool {
	start := 0
	if count == 1 {
		start = end
	}
	// kubectl drops the white space there, up to and including the first line break; it
	// reads four bytes at a time for that, and gives up, reading no YAML, when fewer are
	// left.
	for {
		if len(data)-start < 4 {
			return false
		}
		c, size := utf8.DecodeRune(data[start:])
		if !unicode.IsSpace(c) {
			break
		}
		start += size
		if c == '\n' {
			break
		}
	}
	line := 1 + bytes.Count(data[:start], []byte("\n"))
	// The YAML may start on the line where the JSON ends: its columns there come after
	// the JSON's.
	column := utf8.RuneCount(data[bytes.LastIndexByte(data[:start], '\n')+1 : start])
	// kubectl's line reader starts there, so its last line may be lost counted from there.
	text, lost := dropLostLine(data[start:], r.marked)
	bad := false
	for c := range yamlChunks(text, func(int, string) { bad = true }) {
		if bad {
			return false
		}
		if _, _, problem := parseChunk(r.f.Name, c); problem != nil && problem.Type == SyntaxError {
			return false
		}
	}
	if bad {
		return false
	}
	r.lostLine(lost, line, column)
	r.readYAML(text, line, column)
	return true
}

// add recognises and decodes one non-empty document. It reports false, having kept
// nothing of it, when a part of its long list does not read alone: the document is to be
// read whole.
func (r *reader) add(n *yaml.Node, d *decoder) bool {
	if r.each != nil {
		r.each(n, d)
		d = d.fresh()
	}
	as := r.as
	if as == nil {
		as = recognise
	}
	kind, skip, problem := as(n)
	if (problem != nil || kind == "") && d.long != nil && !d.long.readsAlone() {
		return false // the whole's reading reports the syntax error kubectl meets
	}
	if problem != nil {
		pos := d.pos(n)
		budget := MaxNodes
		if k, _ := lookup(n, "kind", &budget); k != nil {
			pos = d.pos(k)
		}
		r.addError(Finding{File: r.f.Name, Position: pos, Err: problem})
		return true
	}
	if kind == "" {
		r.skip(Skip{Line: n.Line + d.lines, Reason: skip})
		return true
	}
	// The skips of items below are dropped if the document is read again.
	skipsBefore, moreSkips, skipAt := len(r.f.Skipped), r.moreSkips, r.skipAt
	doc := &Document{File: r.f.Name, Index: r.f.Count - 1, Line: n.Line + d.lines, Kind: kind, at: d.at}
	if r.comments != nil {
		doc.Suppressions, r.comments.sup = r.comments.sup, nil
	}
	d.at.start = d.pos(n) // the document itself, and the place of what is above every recorded path
	addWorkload := func(k Kind, p *field.Path, n *yaml.Node, w *workload.Workload, note string, errs field.ErrorList) {
		doc.Workloads = append(doc.Workloads, Item[*workload.Workload]{Path: p, Line: n.Line + d.lines, Kind: k, Object: w, Note: note, Errors: errs})
	}
	// items counts the items of the document read, kept or skipped, and ends the walk
	// past MaxItems.
	held := 0
	items := func(line int) {
		if held++; held > MaxItems && d.tooMany == 0 {
			d.tooMany, d.budget = line, 0
		}
	}
	instanceType := func(it *instancetype.InstanceType, ip *field.Path, e *yaml.Node, errs field.ErrorList) {
		doc.InstanceTypes = append(doc.InstanceTypes, Item[*instancetype.InstanceType]{Path: ip, Line: e.Line + d.lines, Kind: KindInstanceType, Object: it, Errors: errs})
		items(e.Line)
	}
	skipped := func(line int, reason string) {
		r.skip(Skip{Line: line + d.lines, Reason: reason})
		items(line)
	}
	whole := false // the document is one object, whose errors are all the document's
	switch kind {
	case KindInstanceType:
		whole = true
		doc.InstanceTypes = append(doc.InstanceTypes, Item[*instancetype.InstanceType]{Line: doc.Line, Kind: kind, Object: d.instanceType(n, false)})
	case KindInstanceTypeList:
		d.list(n, instanceType, func(n int) { doc.InstanceTypes = slices.Grow(doc.InstanceTypes, min(n, MaxItems+1)) })
	case KindList:
		d.v1List(n, instanceType, func(nd cluster.Node, ip *field.Path, e *yaml.Node, errs field.ErrorList) {
			doc.Nodes = append(doc.Nodes, Item[cluster.Node]{Path: ip, Line: e.Line + d.lines, Kind: KindNode, Object: nd, Errors: errs})
			items(e.Line)
		}, skipped)
	case KindNode:
		whole = true
		doc.Nodes = append(doc.Nodes, Item[cluster.Node]{Line: doc.Line, Kind: kind, Object: d.node(n)})
	case KindDeployment:
		whole = true
		addWorkload(kind, nil, n, d.deployment(n), "", nil)
	case KindJob, KindSweepJob, KindAutoMLJob, KindBatchDeployment:
		whole = true
		w := d.job(n)
		addWorkload(kind, nil, n, w, legacyNote(w), nil)
	case KindCompute:
		whole = true
		doc.Computes = append(doc.Computes, Item[Compute]{Line: doc.Line, Kind: kind, Object: d.compute(n)})
	case KindComputeList:
		d.computeList(n, func(c Compute, p *field.Path, e *yaml.Node, errs field.ErrorList) {
			doc.Computes = append(doc.Computes, Item[Compute]{Path: p, Line: e.Line + d.lines, Kind: KindCompute, Object: c, Errors: errs})
			items(e.Line)
		})
	case KindPipelineJob:
		d.pipeline(n, func(p *field.Path, e *yaml.Node, w *workload.Workload, errs field.ErrorList) {
			addWorkload(kind, p, e, w, legacyNote(w), errs)
		}, skipped)
	case KindEndpoint:
		d.endpoint(n, func(p *field.Path, e *yaml.Node, w *workload.Workload, errs field.ErrorList) {
			addWorkload(KindDeployment, p, e, w, "an older form: an online endpoint file with its deployments inline; today each deployment has a file of its own, with $schema kubernetesOnlineDeployment.schema.json", errs)
		})
	}
	switch {
	case d.partFailed:
		r.f.Skipped, r.moreSkips, r.skipAt = r.f.Skipped[:skipsBefore], moreSkips, skipAt
		return false
	case d.tooLong != nil:
		r.problem(d.pos(d.tooLong), InputLimit, fmt.Sprintf(
			"document ignored: a scalar of %d bytes, more than %d", len(d.tooLong.Value), MaxScalarSize))
		return true
	case d.tooMany > 0:
		r.problem(Position{Line: d.tooMany + d.lines, Column: 1}, InputLimit, fmt.Sprintf(
			"document ignored: more than %d items (instance types, nodes, compute targets, pipeline steps, objects skipped), the most a document may hold", MaxItems))
		return true
	case d.tooDeep != nil:
		r.problem(d.pos(d.tooDeep), InputLimit, fmt.Sprintf(
			"document ignored: nested more than %d levels once aliases are followed", MaxDepth))
		return true
	case d.overflow && d.long != nil:
		r.problem(d.pos(n), InputLimit, fmt.Sprintf("document too large: more than %d nodes", d.limit))
		return true
	case d.overflow:
		r.problem(d.pos(n), InputLimit, fmt.Sprintf(
			"document ignored: more than %d nodes once aliases are expanded", d.limit))
		return true
	}
	d.unreported(n)
	doc.Errors, doc.refusal = d.errs, d.refusal
	if whole {
		for i := range doc.InstanceTypes {
			doc.InstanceTypes[i].Errors = doc.Errors
		}
		for i := range doc.Workloads {
			doc.Workloads[i].Errors = doc.Errors
		}
		for i := range doc.Nodes {
			doc.Nodes[i].Errors = doc.Errors
		}
		for i := range doc.Computes {
			doc.Computes[i].Errors = doc.Errors
		}
	}
	r.deliver(doc)
	return true
}

// legacyNote is the note of a job written in the older form, with compute.instance_type.
func legacyNote(w *workload.Workload) string {
	if !w.LegacyCompute {
		return ""
	}
	return "an older form: compute with target and instance_type; today a job names compute: azureml:TARGET and resources.instance_type"
}

// fresh returns a new decoder like d, for a second walk of its document.
func (d *decoder) fresh() *decoder {
	e := newDecoder(cap(d.at.entries)*2, d.limit, d.lines)
	e.json, e.refusedNodes, e.refusal, e.aliases = d.json, d.refusedNodes, d.refusal, d.aliases
	e.long, e.retype, e.columns = d.long, d.retype, d.columns
	return e
}

// deliver hands a decoded document to the caller, and keeps it in the file unless the
// caller scans.
func (r *reader) deliver(doc *Document) {
	if r.fn != nil {
		r.fn(doc)
	}
	if !r.drop {
		r.f.Documents = append(r.f.Documents, doc)
	}
	r.f.Checked++
}

// syntaxError turns an error of the YAML reader into a finding at its line. The reader
// names no line for bad bytes (invalid UTF-8, control characters); those are found here.
func syntaxError(name string, data []byte, err error) Finding {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	pos := Position{Line: 1, Column: 1}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(num); err == nil {
				if parserProblem(tail) {
					line++
				}
				pos.Line, msg = line, tail
			}
		}
	} else if p, what, ok := badByte(data); ok {
		pos, msg = p, what
	} else if a, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		// The reader names no line for an alias to an anchor it has not met: find the
		// alias in the text.
		name := strings.TrimSuffix(a, "' referenced")
		if p, ok := aliasAt(data, name); ok {
			pos = p
		}
		msg += ": an alias (*" + clip.String(name) + ") must come after its anchor (&" + clip.String(name) + ") in the same document"
	}
	// The reader may place a problem at the end of the text on a line of its own, after
	// the final line break (which the document reader adds to a text without one): keep
	// the position on the last line that has text.
	lines := lineCount(data)
	if lines > 1 && (data[len(data)-1] == '\n' || data[len(data)-1] == '\r') {
		lines--
	}
	if pos.Line > lines {
		pos = Position{Line: lines, Column: 1}
	}
	return fileProblem(name, pos, SyntaxError, "YAML syntax error: "+msg)
}

// aliasAt returns the position of the first alias *name in data, outside comments: the
// alias the YAML reader reports when name is not an anchor it has met (it reads the
// document in order, so the first alias to name comes before any anchor of it).
func aliasAt(data []byte, name string) (Position, bool) {
	if name == "" {
		return Position{}, false
	}
	line, start, comment := 1, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line, start, comment = line+1, i+1, false
		case comment:
		case c == '#' && (i == start || isBlank(data[i-1])):
			comment = true
		case c == '*' && (i == start || isBlank(data[i-1]) || strings.IndexByte("[{,", data[i-1]) >= 0) &&
			bytes.HasPrefix(data[i+1:], []byte(name)) && (i+1+len(name) == len(data) || !isAnchorChar(data[i+1+len(name)])):
			return Position{Line: line, Column: utf8.RuneCount(data[start:i]) + 1}, true
		}
	}
	return Position{}, false
}

// isAnchorChar reports a byte the YAML reader takes into an anchor's name.
func isAnchorChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

// parserProblem reports a problem found by the YAML reader's parser rather than its
// scanner. go.yaml.in/yaml/v3 numbers the lines of parser problems from 0 (those of
// scanner problems from 1), and names the line where the enclosing construct starts.
// Some scanner messages begin like parser ones ("did not find expected tag URI"), so the
// parser's messages are matched whole.
func parserProblem(msg string) bool {
	switch msg {
	case "did not find expected <stream-start>",
		"did not find expected <document start>",
		"did not find expected node content",
		"did not find expected '-' indicator",
		"did not find expected key",
		"did not find expected ',' or ']'",
		"did not find expected ',' or '}'",
		"found duplicate %YAML directive",
		"found duplicate %TAG directive",
		"found incompatible YAML document",
		"found undefined tag handle":
		return true
	}
	return false
}

// badByte finds the first byte the YAML reader refuses: invalid UTF-8, or a control
// character other than tab, line feed and carriage return.
func badByte(data []byte) (Position, string, bool) {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return Position{line, col}, fmt.Sprintf("invalid UTF-8 byte 0x%02x", data[i]), true
		case r == '\n':
			line, col = line+1, 0
		case (r < 0x20 && r != '\t' && r != '\r') || r == 0x7f || (r >= 0x80 && r < 0xa0 && r != 0x85) || r == 0xfffe || r == 0xffff:
			return Position{line, col}, fmt.Sprintf("control character %U is not allowed", r), true
		}
		i += size
		col++
	}
	return Position{}, "", false
}
