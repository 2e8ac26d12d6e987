package source

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
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
)

// The limits in force: variables, so that tests can lower them.
var (
	maxDocument = MaxDocument
	maxNodes    = MaxNodes
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
	// to the next document; sep those of the "---" line before the next document.
	pending []Comment
}

func (s *scanner) scan(data []byte) {
	if len(data) > MaxFileSize {
		s.problem(Problem{Position: Position{1, 1}, Kind: Limit, Message: "the file is " + megabytes(len(data)) +
			", more than the " + megabytes(MaxFileSize) + " read"})
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
	if _, _, isJSON := utilyaml.GuessJSONStream(bytes.NewReader(text), 4096); isJSON {
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
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(s.text[from:])))
	s.lines.moveTo(from)
	for !s.stopped {
		doc, err := r.Read()
		if err == io.EOF {
			break
		}
		start := s.lines.skipSeparators(s)
		if err != nil {
			// An invalid separator: what the reader had of the document is lost with it.
			at := s.lines.badSeparator()
			s.problem(Problem{Position: Position{at, 1}, Kind: Syntax, Message: "invalid document separator: " +
				strings.TrimRight(string(s.lines.lineText(at)), "\r") + ": after ---, only a comment may follow on its line (kubectl reads no further)"})
			continue
		}
		s.lines.advance(bytes.Count(doc, []byte("\n")))
		s.yamlDocument(doc, start)
	}
	if s.stopped {
		return
	}
	s.lines.skipSeparators(s)
	if last := s.lines.remaining(); last > 0 && s.opts.Reader == Kubectl {
		s.file.LostLine = s.lines.line
		s.problem(Problem{Position: Position{s.lines.line, 1}, Kind: Syntax, Message: "kubectl loses this line: it has no line break at its end, " +
			"and its length (" + strconv.Itoa(last) + " bytes) is a multiple of the 4,096 bytes kubectl's line reader reads at a time; end the file with a line break"})
	}
}

// yamlDocument converts one YAML document, text as the reader cut it, which starts at
// start, and hands it over when kubectl would read it.
func (s *scanner) yamlDocument(text []byte, start Position) {
	d := &Document{Position: start, text: text}
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
				line, msg = n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	kind := Syntax
	switch {
	case strings.HasPrefix(msg, "json: unsupported value"):
		kind = Unsendable
	case strings.Contains(msg, "excessive aliasing") || strings.Contains(msg, "exceeded max depth"):
		kind = Limit
	}
	if line == 0 {
		line = d.problemLine(msg, kind == Unsendable)
	}
	return &Problem{Position: Position{d.Line + max(line, 1) - 1, 1}, Kind: kind, Message: explain(msg)}
}

// explain adds to a message of the YAML reader what it means for the user.
func explain(msg string) string {
	switch {
	case strings.HasPrefix(msg, "unknown anchor"):
		return msg + ": an alias (*NAME) must come after its anchor (&NAME) in the same document"
	case strings.HasPrefix(msg, "json: unsupported value"):
		return "a value kubectl cannot send (" + strings.TrimPrefix(msg, "json: unsupported value: ") + " has no JSON form), so it refuses the document"
	}
	return msg
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
	next := 0 // the next of yamlDocs
	for calls := 0; !s.stopped; calls++ {
		var c capture
		err := dec.Decode(&c)
		if err == io.EOF {
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
			yamlDocs = cutYAML(s.text, from)
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
		d := &Document{Position: y.at, text: y.text}
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
		if err != nil {
			d.Problem = &Problem{Position: pos, Kind: Syntax, Message: err.Error()}
		}
		d.Value, d.dups = v, jsonDuplicates(raw)
	}
	s.emit(d)
}

// jsonProblem records the error kubectl's decoder stops at, in a JSON stream whose last value
// ended at end.
func (s *scanner) jsonProblem(err error, end int) {
	at := end
	var syn utilyaml.JSONSyntaxError
	if errors.As(err, &syn) && syn.Offset > 0 {
		at = min(end+int(syn.Offset)-1, len(s.text))
	}
	msg := err.Error()
	if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "json: offset") && i > 0 {
		if j := strings.Index(msg[i+2:], ": "); j >= 0 {
			msg = msg[i+2+j+2:]
		}
	}
	s.problem(Problem{Position: s.lines.position(at), Kind: Syntax, Message: "JSON: " + msg + " (kubectl reads no further)"})
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

// yamlDoc is a document of a YAML stream as the reader cut it, or the invalid separator it
// stopped at.
type yamlDoc struct {
	text []byte
	at   Position
	err  error
}

// cutYAML cuts the text from offset from into YAML documents as kubectl's YAML reader does.
func cutYAML(text []byte, from int) []yamlDoc {
	var out []yamlDoc
	lc := lineCursor{text: text, line: 1}
	lc.moveTo(from)
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(text[from:])))
	for {
		doc, err := r.Read()
		if err == io.EOF {
			return out
		}
		start := lc.skipSeparators(nil)
		if err != nil {
			out = append(out, yamlDoc{at: Position{lc.badSeparator(), 1}, err: err})
			continue
		}
		lc.advance(bytes.Count(doc, []byte("\n")))
		out = append(out, yamlDoc{text: doc, at: start})
	}
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
