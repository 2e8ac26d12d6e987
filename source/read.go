package source

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Input limits. Past them a file or a document is one Problem of kind Limit, not read.
const (
	// MaxFileSize is the largest file read.
	MaxFileSize = 64 << 20
	// MaxDocument is the longest document converted whole, and MaxNodes the most YAML
	// nodes it may make, as estimated before it is parsed (see nodeBound): what converting
	// it takes stays within a few hundred megabytes. A longer list (a List or an
	// InstanceTypeList, kubectl get -o yaml of a large cluster) is read item by item.
	MaxDocument = 8 << 20
	MaxNodes    = 1_000_000
	// MaxItems is the most items of a list that Items hands over: past it, it stops, and
	// ItemsProblem says why. No cluster has near as many nodes or instance types; the
	// limit bounds what a caller makes of the items (an object each), whatever the list
	// (a megabyte of "-" lines is half a million items).
	MaxItems = 25_000
)

// The limits in force: variables, so that tests can lower them.
var (
	maxDocument = MaxDocument
	maxNodes    = MaxNodes
	maxItems    = MaxItems
)

// Reader says which program's reading a file gets.
type Reader uint8

const (
	// Kubectl reads a file as kubectl does (InstanceTypes, Nodes, kubectl get output):
	// its line reader's quirk included, which loses a last line that has no line break and
	// whose length is a multiple of 4,096 bytes.
	Kubectl Reader = iota
	// Plain reads every line (Azure ML files, az ml compute list): the documents are cut
	// by the same rules, and nothing is lost.
	Plain
)

// Options are the settings of a Scan.
type Options struct {
	// Reader is the program whose reading the file gets.
	Reader Reader
	// Marker, when set, is the text that begins the comments Scan collects (see Comment):
	// "instancetype:ignore".
	Marker string
	// LongList is the size in bytes past which a list is read item by item (see
	// Document.Items); 0 means MaxDocument. A document past it that is no list is read
	// whole, within MaxDocument.
	LongList int
}

// File is what Scan found of a file as a whole.
type File struct {
	// Documents is the number of non-empty documents: those handed to Scan's function.
	Documents int
	// Problems are what keeps some of the file from being read, not tied to a document
	// kubectl reads: its encoding, its size, an invalid document separator, a JSON stream
	// kubectl stops reading, the last line kubectl's line reader loses.
	Problems []Problem
	// LostLine, when not 0, is the last line of the file, which kubectl's line reader
	// loses (Reader Kubectl only); the same file read with Reader Plain has it.
	LostLine int
	// Comments are the marked comments not in any non-empty document: those of documents
	// kubectl skips (comments alone at the end of a file) that apply to nothing after them.
	Comments []Comment
}

// Scan reads data, the contents of one file, as kubectl reads it and calls fn with each
// non-empty document in order (kubectl skips the empty ones, and those that are null).
// It stops when fn returns false. Memory holds one document at a time, and of a long
// list one run of its items at a time.
//
// Everything comes from kubectl's own code: the encoding is decoded by the decoder
// kubectl's file reader uses (golang.org/x/text's BOMOverride over UTF-8: a UTF-16 file
// with its byte order mark is converted, a UTF-8 mark dropped, invalid UTF-8 made
// U+FFFD); a stream that starts with "{" within its first 4,096 bytes is cut by
// apimachinery's YAMLOrJSONDecoder itself, any other by its YAML reader
// (k8s.io/apimachinery/pkg/util/yaml.NewYAMLReader), as kubectl's YAMLToJSONDecoder cuts
// it; each YAML document's value is what sigs.k8s.io/yaml.YAMLToJSON makes of it, each
// JSON document's the value as written. Scan never fails: what kubectl refuses is a
// Problem, of the file or of its document.
func Scan(data []byte, opts Options, fn func(*Document) bool) *File {
	s := &scanner{opts: opts, fn: fn, file: &File{}}
	s.scan(data)
	return s.file
}

// scanner is one Scan.
type scanner struct {
	opts    Options
	fn      func(*Document) bool
	file    *File
	text    []byte
	lines   lineCursor
	stopped bool
	// pending are the comments of documents kubectl skips (comments alone), which apply
	// to the next document, and those of the "---" line before it.
	pending  []Comment
	refusals int // the documents refused so far
	// syntaxSearched is how many bytes of documents positions of syntax errors were
	// looked for in (syntaxPosition).
	syntaxSearched int
}

// maxLocated is the most refused documents of a file whose problems are looked for in
// the document's text (see Document.explain): past it, the problem is placed at the
// document's start, so that a file of a million broken documents costs no more than
// reading them.
const maxLocated = 1000

func (s *scanner) scan(data []byte) {
	if len(data) > MaxFileSize {
		s.problem(Problem{Position: Position{1, 1}, Kind: Limit, Message: "file too large: more than " + strconv.Itoa(MaxFileSize) + " bytes"})
		return
	}
	text, p := decodeText(data)
	if p != nil {
		s.problem(*p)
		if text == nil {
			return
		}
	}
	if s.opts.Reader == Plain && len(text) > 0 && text[len(text)-1] != '\n' {
		// A line break at the end: the line reader then loses nothing.
		text = append(text[:len(text):len(text)], '\n')
	}
	s.text = text
	s.lines = lineCursor{text: text, line: 1}
	// GuessJSONStream's test on its first 4,096 bytes, without its buffered reader.
	if utilyaml.IsJSONBuffer(text[:min(len(text), 4096)]) {
		s.jsonStream()
	} else {
		s.yamlStream(0)
	}
	if !s.stopped {
		// Comments that wait for a document after them, and none comes: their own line.
		for _, c := range s.pending {
			c.From, c.To = c.Line, c.Line
			s.file.Comments = append(s.file.Comments, c)
		}
	}
}

// problem records a problem of the file.
func (s *scanner) problem(p Problem) { s.file.Problems = append(s.file.Problems, p) }

// LosesLastLine reports whether kubectl's line reader loses the last line of data, the
// contents of a file: it has no line break, and its length is a multiple of the 4,096
// bytes the reader reads at a time (File.LostLine says which line). Reader Plain reads it.
func LosesLastLine(data []byte) bool {
	if len(data) == 0 || data[len(data)-1] == '\n' || len(data) > MaxFileSize {
		return false
	}
	text, p := decodeText(data)
	if p != nil || len(text) == 0 || text[len(text)-1] == '\n' {
		return false
	}
	last := len(text) - bytes.LastIndexByte(text, '\n') - 1
	return last%4096 == 0
}

// decodeText returns data as kubectl's file reader decodes it. UTF-32 and UTF-16 without a
// byte order mark, which kubectl reads as UTF-8 and refuses for their NUL bytes, are a
// problem that names the encoding, and nothing is read.
func decodeText(data []byte) ([]byte, *Problem) {
	if what := foreignEncoding(data); what != "" {
		return nil, &Problem{Position: Position{1, 1}, Kind: Syntax, Message: what + "; kubectl reads it as UTF-8 and refuses it: save it as UTF-8"}
	}
	if !bytes.HasPrefix(data, []byte{0xfe, 0xff}) && !bytes.HasPrefix(data, []byte{0xff, 0xfe}) &&
		!bytes.HasPrefix(data, []byte{0xef, 0xbb, 0xbf}) && utf8.Valid(data) {
		return data, nil // what the decoder makes of it: itself
	}
	out, _, err := transform.Bytes(xunicode.BOMOverride(xunicode.UTF8.NewDecoder()), data)
	if err != nil {
		return nil, &Problem{Position: Position{1, 1}, Kind: Syntax, Message: "cannot decode the file's text: " + err.Error()}
	}
	return out, nil
}

// foreignEncoding names an encoding kubectl does not read, told by its byte order mark or by
// where the NUL bytes of the first characters are; "" for any other text.
func foreignEncoding(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff}):
		return "the file is UTF-32 (big-endian, by its byte order mark)"
	case bytes.HasPrefix(data, []byte{0xff, 0xfe, 0, 0}):
		return "the file is UTF-32 (little-endian, by its byte order mark)"
	case len(data) < 4 || data[0] == 0xfe || data[0] == 0xff:
		return ""
	case data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] != 0:
		return "the file looks like UTF-32 (big-endian) without a byte order mark: three bytes of every four are 0"
	case data[0] != 0 && data[1] == 0 && data[2] == 0 && data[3] == 0:
		return "the file looks like UTF-32 (little-endian) without a byte order mark: three bytes of every four are 0"
	case data[0] == 0 && data[1] != 0 && data[2] == 0 && data[3] != 0:
		return "the file looks like UTF-16 (big-endian) without a byte order mark: every other byte is 0"
	case data[0] != 0 && data[1] == 0 && data[2] != 0 && data[3] == 0:
		return "the file looks like UTF-16 (little-endian) without a byte order mark: every other byte is 0"
	}
	return ""
}

// yamlStream reads the text from offset from as a stream of YAML documents, cut by
// apimachinery's YAML reader as kubectl's YAMLToJSONDecoder cuts it (over a bufio.Reader of
// its default size, 4,096 bytes, which its line reader's quirk depends on).
func (s *scanner) yamlStream(from int) {
	lc := eachYAML(s.text, from, s.opts.Marker, func(y yamlDoc) bool {
		if y.err != nil {
			// An invalid separator: what the reader had of the document is lost with it.
			s.problem(Problem{Position: y.at, Kind: Syntax, Message: "invalid document separator: " +
				clipText(strings.TrimRight(string(y.text), "\r"), 256) + ": after ---, only a comment may follow on its line (kubectl reads no further)"})
			return true
		}
		s.yamlDocument(y)
		s.pending = append(s.pending, y.next...)
		return !s.stopped
	})
	if s.stopped {
		return
	}
	s.lostLine(lc)
}

// lostLine records the last line of the file, where kubectl's YAML reader stopped with the
// cursor lc and text left: it loses a last line without a line break whose length is a
// multiple of 4,096 bytes (Reader Kubectl; Plain reads it).
func (s *scanner) lostLine(lc *lineCursor) {
	if last := lc.remaining(); last > 0 && s.opts.Reader == Kubectl {
		s.file.LostLine = lc.line
		s.problem(Problem{Position: Position{lc.line, 1}, Kind: Syntax, Message: "kubectl ignores this line: the file's last line has no line break, " +
			"and kubectl's YAML reader drops such a line when its length is a multiple of 4,096 bytes (this one is " + strconv.Itoa(last) + "): end the file with a line break"})
	}
}

// yamlDoc is a document of a YAML stream as the reader cut it, or the invalid separator it
// stopped at.
type yamlDoc struct {
	text  []byte    // the document as cut; the separator line, for an invalid one
	empty bool      // it holds only blank lines, comments and "---" lines: null to kubectl
	start Position  // where text starts
	at    Position  // where its content starts, after the "---", blank and comment lines it begins with
	next  []Comment // marked comments on the "---" line that ends it: the next document's
	err   error
}

// lineBuffers holds the buffered readers under kubectl's YAML reader: bufio's default
// 4,096 bytes, as kubectl's, since a line of that length at the end of a file is where
// its reader loses the line (LosesLastLine). The reader copies every line it returns, so a
// buffer is free again once a file is cut.
var lineBuffers = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// eachYAML cuts the text from offset from into YAML documents as kubectl's YAML reader
// does, calling fn with each until it returns false, and returns the cursor where the
// reader stopped. The reader ends a document at a "---" line (which it consumes) when it
// holds a line, and keeps the "---" lines it meets before that in the document.
func eachYAML(text []byte, from int, marker string, fn func(yamlDoc) bool) *lineCursor {
	lc := &lineCursor{text: text, line: 1}
	lc.moveTo(from)
	br := lineBuffers.Get().(*bufio.Reader)
	defer func() {
		br.Reset(nil) // the pool keeps the buffer, not the file
		lineBuffers.Put(br)
	}()
	br.Reset(bytes.NewReader(text[from:]))
	r := utilyaml.NewYAMLReader(br)
	for {
		doc, err := r.Read()
		if err == io.EOF {
			return lc
		}
		if err != nil {
			line := lc.badSeparator()
			if !fn(yamlDoc{text: lc.lineText(line), at: Position{line, 1}, err: err}) {
				return lc
			}
			continue
		}
		y := yamlDoc{text: doc, start: lc.here(), empty: true}
		y.at = y.start
		lines := bytes.Count(doc, []byte("\n"))
		for k, off := 0, 0; k < lines; k++ {
			nl := bytes.IndexByte(doc[off:], '\n')
			if !blankLine(doc[off : off+nl]) {
				if k > 0 {
					y.at = Position{y.start.Line + k, 1}
				}
				y.empty = false
				break
			}
			off += nl + 1
		}
		lc.advance(lines)
		if l := lc.current(); lc.off < len(text) && isSeparator(l) && validSeparator(l) {
			// The "---" line that ended the document.
			if marker != "" && bytes.Contains(l, []byte(marker)) {
				if c, ok := separatorComment(l, lc.line, marker); ok {
					y.next = append(y.next, c)
				}
			}
			lc.advance(1)
		}
		if !fn(y) {
			return lc
		}
	}
}

// yamlDocument converts one YAML document, as the reader cut it, and hands it over when
// kubectl would read it.
func (s *scanner) yamlDocument(y yamlDoc) {
	text := y.text
	d := &Document{Position: y.at, start: y.start, text: text}
	if y.empty {
		// Blank lines, comments and "---" lines alone: null, which kubectl skips, without
		// converting what may be megabytes of them.
		s.skipped(d)
		return
	}
	nodes := nodeBound(text)
	if long := s.opts.LongList; long > 0 && len(text) > long && s.longList(d, long) {
		s.emit(d)
		return
	}
	if len(text) > maxDocument || nodes > maxNodes {
		if !s.longList(d, maxDocument) {
			d.Problem = &Problem{Position: d.Position, Kind: Limit, Message: "the document is too large to read whole (" + megabytes(len(text)) +
				", about " + strconv.Itoa(nodes) + " YAML nodes; at most " + megabytes(MaxDocument) + " and " + strconv.Itoa(MaxNodes) +
				"), and is not a list whose items can be read one at a time"}
		}
	} else {
		v, dups, err := yamlValue(text)
		if err != nil {
			d.Problem = s.refusal(d, err)
		} else if v == nil {
			s.skipped(d)
			return
		}
		d.Value, d.dups = v, dups
	}
	s.emit(d)
}

// yamlValue converts one YAML document as kubectl does (sigs.k8s.io/yaml.YAMLToJSON), and
// decodes the JSON, numbers as written: nil for a document that is null. dups reports a
// key set twice in a mapping, which the strict conversion refuses (kubectl keeps the last).
func yamlValue(text []byte) (v any, dups bool, err error) {
	j, dups, err := yamlJSON(text)
	if err != nil {
		return nil, false, err
	}
	v, err = jsonValue(j)
	return v, dups, err
}

// yamlJSON is the JSON of a YAML text, as kubectl converts it, and whether the strict
// conversion found a key set twice: the strict conversion is tried first (it costs the
// same), and when a duplicate is all it refuses, the text is converted again as kubectl
// converts it, the last value of a key in effect.
func yamlJSON(text []byte) ([]byte, bool, error) {
	j, err := yaml.YAMLToJSONStrict(text)
	if err == nil {
		return j, false, nil
	}
	if !strings.Contains(err.Error(), "already set in map") {
		return nil, false, err
	}
	j, err = yaml.YAMLToJSON(text)
	return j, true, err
}

// jsonValue decodes JSON with encoding/json, numbers kept as written (json.Number).
func jsonValue(j []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// refusal is the problem of a document kubectl refuses: its conversion failed with err.
// The line is the one the message names, else where yaml.v3 finds the problem, else the
// document's first line.
func (s *scanner) refusal(d *Document, err error) *Problem {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				msg = strings.TrimSpace(rest[i+1:])
				line = readerLine(n, msg)
			}
		}
	}
	problem := msg // the parser's own words, which explain may reword
	kind := Syntax
	switch {
	case strings.HasPrefix(msg, "json: unsupported value"), strings.Contains(msg, "map key"), strings.Contains(msg, "value contains itself"),
		strings.HasPrefix(msg, "map merge requires"), strings.HasPrefix(msg, "cannot decode !!"):
		kind = Refused
	case strings.Contains(msg, "excessive aliasing") || strings.Contains(msg, "exceeded max depth"):
		kind = Limit
	}
	at, msg := 1, msg
	if s.refusals++; s.refusals <= maxLocated {
		at, msg = d.explain(msg, kind)
	}
	if line == 0 {
		line = at
	}
	if kind == Syntax && s.refusals <= maxLocated {
		// At the offending token, which the message's line is not always.
		if p, ok := s.syntaxPosition(d, problem); ok {
			return &Problem{Position: p, Kind: kind, Message: clipText(msg, maxMessage)}
		}
	}
	// The reader may name the line after the last, where the document ends.
	line = min(max(line, 1), d.lineCount())
	return &Problem{Position: Position{d.textAt().Line + line - 1, 1}, Kind: kind, Message: clipText(msg, maxMessage)}
}

// skipped handles a document kubectl skips, null or empty: its comments apply to the next.
func (s *scanner) skipped(d *Document) {
	if s.opts.Marker != "" && bytes.Contains(d.text, []byte(s.opts.Marker)) {
		cs := d.comments(s.opts.Marker, true)
		s.pending = append(s.pending, cs...)
	}
}

// emit hands a document over, with its comments.
func (s *scanner) emit(d *Document) {
	d.Index = s.file.Documents
	s.file.Documents++
	if s.opts.Marker != "" {
		for i := range s.pending {
			s.pending[i].From, s.pending[i].To = d.Line, d.Line+d.lineCount()-1
		}
		d.Comments, s.pending = s.pending, nil
		if bytes.Contains(d.text, []byte(s.opts.Marker)) {
			d.Comments = append(d.Comments, d.comments(s.opts.Marker, false)...)
		}
	}
	if !s.fn(d) {
		s.stopped = true
	}
}

// jsonStream reads a stream that starts with "{" with kubectl's YAMLOrJSONDecoder itself:
// JSON values, and, when its first or second value is not JSON, YAML from there on. The
// values are the decoder's; where each stands in the text is found beside it.
func (s *scanner) jsonStream() {
	if len(s.text) > maxDocument && !json.Valid(bytes.TrimSpace(s.text)) && !jsonStreamOnly(s.text) {
		s.problem(Problem{Position: Position{1, 1}, Kind: Limit, Message: "the file starts as JSON and is " + megabytes(len(s.text)) +
			": a stream of JSON values is read at any size, but one that goes on as YAML only up to " + megabytes(MaxDocument)})
		return
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(s.text), 4096)
	end, count := 0, 0 // where the last JSON value ends; the values decoded
	var yamlDocs []yamlDoc
	var lc *lineCursor // where the YAML reader stops, once the decoder goes on as YAML
	next := 0          // the next of yamlDocs
	defer func() {
		if lc != nil && !s.stopped {
			s.lostLine(lc)
		}
	}()
	for calls := 0; !s.stopped; calls++ {
		var c capture
		err := dec.Decode(&c)
		if err == io.EOF {
			if from, ok := yamlStart(s.text, end); yamlDocs == nil && count > 0 && ok {
				// Text after the last JSON value, of which the decoder, gone on as YAML,
				// read nothing: comments, or a last line its line reader loses.
				_, lc = cutYAML(s.text, from)
			}
			return
		}
		if yamlDocs == nil {
			if err == nil {
				if start, ok := jsonValueAt(s.text, end, c.raw); ok {
					count++
					end = start + len(c.raw)
					s.jsonDocument(c.raw, start)
					continue
				}
			} else if count > 1 {
				s.jsonProblem(err, end)
				return
			}
			// The decoder goes on as YAML from where the last JSON value ended.
			from, ok := yamlStart(s.text, end)
			if !ok {
				s.jsonProblem(err, end)
				return
			}
			yamlDocs, lc = cutYAML(s.text, from)
			if len(yamlDocs) == 0 {
				if err != nil {
					s.jsonProblem(err, end)
				}
				return
			}
		}
		if next >= len(yamlDocs) || calls > len(yamlDocs)+count+2 {
			return // the decoder and the cut disagree: nothing more is read
		}
		y := yamlDocs[next]
		next++
		if y.err != nil {
			s.problem(Problem{Position: y.at, Kind: Syntax, Message: "invalid document separator: after ---, only a comment may follow on its line (kubectl reads no further)"})
			continue
		}
		d := &Document{Position: y.at, start: y.start, text: y.text}
		switch {
		case err != nil:
			// The decoder's error is the JSON one; the YAML's is the document's.
			_, _, yerr := yamlValue(y.text)
			if yerr == nil {
				yerr = err
			}
			d.Problem = s.refusal(d, yerr)
		case c.raw == nil:
			s.skipped(d)
			continue
		default:
			v, err := jsonValue(c.raw)
			if err != nil {
				d.Problem = s.refusal(d, err)
				break
			}
			d.Value = v
			_, d.dups, _ = yamlValue(y.text)
		}
		s.emit(d)
	}
}

// capture receives a document from the decoder as kubectl's runtime.RawExtension does: its
// JSON, or nothing for null.
type capture struct{ raw []byte }

func (c *capture) UnmarshalJSON(b []byte) error {
	if !bytes.Equal(b, []byte("null")) {
		c.raw = append(c.raw[:0], b...)
	}
	return nil
}

// jsonValueAt reports where the JSON value raw, just decoded, starts in text: after the
// white space that follows the last value, which ended at end. When raw is not there, the
// decoder read it as YAML.
func jsonValueAt(text []byte, end int, raw []byte) (int, bool) {
	i := end
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
		i++
	}
	if raw == nil {
		return i + 4, bytes.HasPrefix(text[i:], []byte("null"))
	}
	return i, bytes.HasPrefix(text[i:], raw)
}

// jsonDocument hands over one JSON value of the stream, raw, which starts at offset start.
func (s *scanner) jsonDocument(raw []byte, start int) {
	pos := s.lines.position(start)
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || len(bytes.TrimSpace(raw)) == 0 {
		return
	}
	d := &Document{Position: pos, JSON: true, text: raw}
	if long := s.opts.LongList; long > 0 && len(raw) > long && s.longJSON(d) {
		s.emit(d)
		return
	}
	if len(raw) > maxDocument || nodeBound(raw) > maxNodes {
		if !s.longJSON(d) {
			d.Problem = &Problem{Position: pos, Kind: Limit, Message: "the JSON value is too large to read whole (" + megabytes(len(raw)) +
				"), and is not a list whose items can be read one at a time"}
		}
	} else {
		v, err := jsonValue(raw)
		refused, dups := kubectlDecodes(raw)
		switch {
		case err != nil:
			d.Problem = &Problem{Position: pos, Kind: Syntax, Message: err.Error()}
		case refused:
			d.Problem, v = d.numberProblem(beyondFloat(raw)), nil
		}
		d.Value, d.dups = v, dups
	}
	s.emit(d)
}

// beyondFloat returns the first number of the JSON value raw that is neither an int64 nor
// a float64, or "": kubectl's decoder converts every number of a document to one of them as
// it reads it (kubectlDecodes), and refuses the document when it cannot. (A YAML document's
// numbers are Go's own: sigs.k8s.io/yaml reads a number beyond a float's range as a
// string.)
func beyondFloat(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	for {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		if n, ok := t.(json.Number); ok {
			if _, err := n.Int64(); err == nil {
				continue
			}
			if _, err := n.Float64(); err != nil {
				return string(n)
			}
		}
	}
}

// jsonProblem records the error kubectl's decoder stops at, in a JSON stream whose last value
// ended at end.
func (s *scanner) jsonProblem(err error, end int) {
	at := end
	// The offset is that of the offending byte from the start of the stream, counted from
	// 1: the decoder returns its JSON decoder's own error once it has read two values, and
	// wraps it before.
	var off int64
	var wrapped utilyaml.JSONSyntaxError
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &wrapped):
		off = wrapped.Offset
	case errors.As(err, &syn):
		off = syn.Offset
	}
	if off > 0 {
		at = min(max(int(off)-1, end), len(s.text))
	}
	msg := err.Error()
	if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "json: offset") && i > 0 {
		if j := strings.Index(msg[i+2:], ": "); j >= 0 {
			msg = msg[i+2+j+2:]
		}
	}
	s.problem(Problem{Position: s.lines.position(at), Kind: Syntax, Message: "JSON syntax error: " + msg + " (kubectl reads no further)"})
}

// yamlStart is where apimachinery's YAMLOrJSONDecoder goes on as YAML after a JSON value
// that ended at end (0 for none) is followed by something that is not JSON: past white
// space, up to and including the first line break; it reads from there in 4-byte steps,
// and goes on only if at least 4 bytes are left and the character there is valid UTF-8.
func yamlStart(text []byte, end int) (int, bool) {
	for o := end; ; {
		if len(text)-o < 4 {
			return 0, false
		}
		r, size := utf8.DecodeRune(text[o : o+4])
		if r == utf8.RuneError || size == 0 {
			return 0, false
		}
		if !unicode.IsSpace(r) {
			return o, true
		}
		o += size
		if r == '\n' {
			return o, true
		}
	}
}

// blankLine reports a line that makes no node: empty, or blanks, a comment or a "---" line
// (what follows "---" on its line is a comment: validSeparator). It is conservative: a
// line with a tab before its first character, or a line break other than its last (a
// lone carriage return, or one of Unicode's, which YAML takes for line breaks), or any
// byte outside printable ASCII (a control character, which the reader refuses even in a
// comment), is not blank.
func blankLine(l []byte) bool {
	l = bytes.TrimSuffix(l, []byte("\r"))
	for _, c := range l {
		if c >= 0x7f || c < 0x20 && c != '\t' {
			return false // outside printable ASCII: a line break, or what the reader refuses
		}
	}
	if isSeparator(l) {
		// A document marker to YAML too only when a blank follows (---# is a scalar).
		return validSeparator(l) && (len(l) == 3 || l[3] == ' ' || l[3] == '\t')
	}
	l = bytes.TrimLeft(l, " ")
	return len(l) == 0 || l[0] == '#'
}

// cutYAML cuts the text from offset from into YAML documents as kubectl's YAML reader does,
// and returns the cursor where the reader stopped.
func cutYAML(text []byte, from int) ([]yamlDoc, *lineCursor) {
	var out []yamlDoc
	lc := eachYAML(text, from, "", func(y yamlDoc) bool { out = append(out, y); return true })
	return out, lc
}

// jsonStreamOnly reports text that is a stream of JSON values alone.
func jsonStreamOnly(text []byte) bool {
	d := json.NewDecoder(bytes.NewReader(text))
	for {
		var v json.RawMessage
		if err := d.Decode(&v); err == io.EOF {
			return true
		} else if err != nil {
			return false
		}
	}
}

func megabytes(n int) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}
