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

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/resolve"
)

// Input limits. The YAML reader itself limits nesting to 10,000 levels.
const (
	// MaxFileSize is the largest file read, in bytes. Larger files are one finding.
	MaxFileSize = 64 << 20
	// MaxScalarSize is the longest scalar (key or value) accepted in a document, in bytes.
	// A document holding a longer one is dropped with one finding.
	MaxScalarSize = 64 << 10
	// MaxNodes is the most nodes a document may hold, and the most it may expand to once
	// aliases are followed. The YAML reader's tree takes about 200 bytes a node, so this
	// bounds memory too: only one document's tree is held at a time. A document over it is
	// one finding, found by counting the bytes that can begin a node before anything is
	// parsed.
	MaxNodes = 1_500_000
	// MaxAliasGrowth bounds what aliases may add to a document: its nodes, expanded, may
	// number at most MaxAliasGrowth times those written plus 65,536. Anchors used as
	// templates stay well within it; an alias bomb, or an item with a thousand mistakes
	// aliased a thousand times, does not.
	MaxAliasGrowth = 16
	// MaxDepth is the deepest a document may nest once aliases are followed, the YAML
	// reader's own limit for the text.
	MaxDepth = 10000
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
}

func scan(name string, data []byte, fn func(*Document), drop bool) *File {
	r := &reader{f: &File{Name: name}, fn: fn, drop: drop}
	if len(data) > MaxFileSize {
		r.problem(Position{1, 1}, InputLimit, fmt.Sprintf("file too large: more than %d bytes", MaxFileSize))
		return r.f
	}
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
		r.f.Skipped = append(r.f.Skipped, Skip{Line: line,
			Reason: "holds Go template actions ({{ ... }}), as a Helm chart template does: not a manifest until rendered"})
		return r.f
	}
	if isJSON(data) {
		r.readJSON(data)
	} else {
		r.readYAML(data, 1)
	}
	return r.f
}

func (r *reader) problem(pos Position, t FindingType, detail string) {
	r.f.Errors = append(r.f.Errors, fileProblem(r.f.Name, pos, t, detail))
}

// readYAML reads data, which starts on the given line of the file, as YAML documents.
func (r *reader) readYAML(data []byte, line int) {
	chunks := yamlChunks(data, func(l int, text string) {
		r.problem(Position{Line: l + line - 1, Column: 1}, SyntaxError, "invalid YAML document separator: "+
			strconv.Quote(text)+" follows ---: kubectl allows only a comment there, and reads no further")
	})
	for _, c := range chunks {
		c.line += line - 1
		r.readChunk(c)
	}
}

// readChunk reads one YAML document.
func (r *reader) readChunk(c chunk) {
	n, d, problem := parseChunk(r.f.Name, c)
	if problem != nil {
		// A document that cannot be read is not empty: it counts.
		r.f.Errors = append(r.f.Errors, *problem)
		r.f.Count++
		return
	}
	if n == nil {
		return
	}
	r.f.Count++
	if d != nil {
		r.add(n, d)
	}
}

// parseChunk parses one YAML document and retypes its scalars. It returns the root node and
// a decoder for it, or nil for an empty document; a problem that keeps the document from
// being read is returned (with a nil decoder, and the root when the document is not empty).
func parseChunk(name string, c chunk) (*yaml.Node, *decoder, *Finding) {
	lines := c.line - 1
	if blankOrComments(c.data) {
		return nil, nil, nil // nothing to read: no need to parse it
	}
	// nodeBound counts at most two nodes a byte: a shorter document needs no count.
	if 2*len(c.data)+2 > MaxNodes {
		if n := nodeBound(c.data); n > MaxNodes {
			x := fileProblem(name, Position{c.line, 1}, InputLimit, fmt.Sprintf("document too large: about %d nodes, more than %d", n, MaxNodes))
			return nil, nil, &x
		}
	}
	// Unmarshal reads the first document of its input, in place: a Decoder would copy the
	// text through its buffers.
	doc, err := parseDocument(c.data)
	if err != nil {
		x := syntaxError(name, c.data, err)
		x.Line += lines
		return nil, nil, &x
	}
	if len(doc.Content) == 0 {
		return nil, nil, nil
	}
	n := doc.Content[0]
	t := retyper{source: c.data, bangs: bytes.IndexByte(c.data, '!') >= 0}
	t.walk(n)
	if n.Kind == yaml.ScalarNode && n.Tag == tagFloat && !finite(n.Tag, n.Value) {
		t.refuse(n, "must be a finite number: "+n.Value+" has no JSON form, so kubectl cannot send it")
	}
	if _, refused := t.refused[n]; isNull(n) && !refused {
		return nil, nil, nil
	}
	if t.tooLong != nil {
		x := fileProblem(name, Position{t.tooLong.Line + lines, t.tooLong.Column}, InputLimit, fmt.Sprintf(
			"document ignored: a scalar of %d bytes, more than %d", len(t.tooLong.Value), MaxScalarSize))
		return n, nil, &x
	}
	d := newDecoder(t.nodes, min(MaxNodes, MaxAliasGrowth*t.nodes+65536), lines)
	d.refusedNodes, d.refusal, d.aliases = t.refused, len(t.refused) > 0, t.aliases > 0
	return n, d, nil
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
// reports whether that went without a syntax error; if not, nothing of it is kept.
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
	saved := *r.f
	try := &reader{f: &File{Name: r.f.Name}, each: r.each}
	try.readYAML(data[start:], line)
	for _, x := range try.f.Errors {
		if x.Type == SyntaxError {
			return false
		}
	}
	// Keep what the YAML reading found: run fn on its documents now.
	*r.f = saved
	r.f.Count += try.f.Count
	r.f.Skipped = append(r.f.Skipped, try.f.Skipped...)
	r.f.Errors = append(r.f.Errors, try.f.Errors...)
	for _, d := range try.f.Documents {
		r.deliver(d)
	}
	return true
}

// add recognises and decodes one non-empty document.
func (r *reader) add(n *yaml.Node, d *decoder) {
	if r.each != nil {
		r.each(n, d)
		d = d.fresh()
	}
	kind, skip, problem := recognise(n)
	if problem != nil {
		pos := d.pos(n)
		budget := MaxNodes
		if k, _ := lookup(n, "kind", &budget); k != nil {
			pos = d.pos(k)
		}
		r.f.Errors = append(r.f.Errors, Finding{File: r.f.Name, Position: pos, Err: problem})
		return
	}
	if kind == "" {
		r.f.Skipped = append(r.f.Skipped, Skip{Line: n.Line + d.lines, Reason: skip})
		return
	}
	doc := &Document{File: r.f.Name, Index: r.f.Count - 1, Line: n.Line + d.lines, Kind: kind, at: d.at}
	d.at.start = d.pos(n) // the document itself, and the place of what is above every recorded path
	workload := func(k Kind, p *field.Path, n *yaml.Node, w *resolve.Workload, note string, errs field.ErrorList) {
		doc.Workloads = append(doc.Workloads, Item[*resolve.Workload]{Path: p, Line: n.Line + d.lines, Kind: k, Object: w, Note: note, Errors: errs})
	}
	instanceType := func(it *instancetype.InstanceType, ip *field.Path, e *yaml.Node, errs field.ErrorList) {
		doc.InstanceTypes = append(doc.InstanceTypes, Item[*instancetype.InstanceType]{Path: ip, Line: e.Line + d.lines, Kind: KindInstanceType, Object: it, Errors: errs})
	}
	skipped := func(line int, reason string) {
		r.f.Skipped = append(r.f.Skipped, Skip{Line: line + d.lines, Reason: reason})
	}
	whole := false // the document is one object, whose errors are all the document's
	switch kind {
	case KindInstanceType:
		whole = true
		doc.InstanceTypes = append(doc.InstanceTypes, Item[*instancetype.InstanceType]{Line: doc.Line, Kind: kind, Object: d.instanceType(n, false)})
	case KindInstanceTypeList:
		d.list(n, instanceType, func(items int) { doc.InstanceTypes = slices.Grow(doc.InstanceTypes, items) })
	case KindList:
		d.v1List(n, instanceType, func(nd fit.Node, ip *field.Path, e *yaml.Node, errs field.ErrorList) {
			doc.Nodes = append(doc.Nodes, Item[fit.Node]{Path: ip, Line: e.Line + d.lines, Kind: KindNode, Object: nd, Errors: errs})
		}, skipped)
	case KindNode:
		whole = true
		doc.Nodes = append(doc.Nodes, Item[fit.Node]{Line: doc.Line, Kind: kind, Object: d.node(n)})
	case KindDeployment:
		whole = true
		workload(kind, nil, n, d.deployment(n), "", nil)
	case KindJob, KindSweepJob, KindAutoMLJob, KindBatchDeployment:
		whole = true
		w := d.job(n)
		workload(kind, nil, n, w, legacyNote(w), nil)
	case KindCompute:
		whole = true
		doc.Computes = append(doc.Computes, Item[Compute]{Line: doc.Line, Kind: kind, Object: d.compute(n)})
	case KindComputeList:
		d.computeList(n, func(c Compute, p *field.Path, e *yaml.Node, errs field.ErrorList) {
			doc.Computes = append(doc.Computes, Item[Compute]{Path: p, Line: e.Line + d.lines, Kind: KindCompute, Object: c, Errors: errs})
		})
	case KindPipelineJob:
		d.pipeline(n, func(p *field.Path, e *yaml.Node, w *resolve.Workload, errs field.ErrorList) {
			workload(kind, p, e, w, legacyNote(w), errs)
		}, skipped)
	case KindEndpoint:
		d.endpoint(n, func(p *field.Path, e *yaml.Node, w *resolve.Workload, errs field.ErrorList) {
			workload(KindDeployment, p, e, w, "an older form: an online endpoint file with its deployments inline; today each deployment has a file of its own, with $schema kubernetesOnlineDeployment.schema.json", errs)
		})
	}
	switch {
	case d.tooDeep != nil:
		r.problem(d.pos(d.tooDeep), InputLimit, fmt.Sprintf(
			"document ignored: nested more than %d levels once aliases are followed", MaxDepth))
		return
	case d.overflow:
		r.problem(d.pos(n), InputLimit, fmt.Sprintf(
			"document ignored: more than %d nodes once aliases are expanded", d.limit))
		return
	}
	d.unreported()
	doc.Errors, doc.refusal = d.errs, d.refusal
	d.at.index() // sorted, and no larger than it needs to be
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
}

// legacyNote is the note of a job written in the older form, with compute.instance_type.
func legacyNote(w *resolve.Workload) string {
	if !w.LegacyCompute {
		return ""
	}
	return "an older form: compute with target and instance_type; today a job names compute: azureml:TARGET and resources.instance_type"
}

// fresh returns a new decoder like d, for a second walk of its document.
func (d *decoder) fresh() *decoder {
	e := newDecoder(cap(d.at.entries)*2, d.limit, d.lines)
	e.json, e.refusedNodes, e.refusal, e.aliases = d.json, d.refusedNodes, d.refusal, d.aliases
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
