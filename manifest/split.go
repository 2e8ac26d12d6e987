package manifest

import (
	"bytes"
	"iter"
	"unicode"
	"unicode/utf8"
)

// A chunk is one YAML document of a file as kubectl cuts it: the lines between two
// separator lines.
type chunk struct {
	data []byte // the document's text
	line int    // the line of the file its first line is, from 1
	// column is how many columns of the file come before the text on its first line: 0,
	// but for YAML that kubectl reads after a JSON value on the same line.
	column int
}

// position returns the place in the file of line and column of c's text.
func (c chunk) position(line, column int) Position {
	if line == 1 {
		column += c.column
	}
	return Position{Line: line + c.line - 1, Column: column}
}

// yamlChunks cuts data into documents as kubectl's YAML reader
// (k8s.io/apimachinery/pkg/util/yaml) does, line by line, and yields them one at a time,
// in order, so that reading a file holds one document's text at a time (of millions of
// documents, no list): a line that begins with "---" ends a document, provided nothing but
// spaces and a comment follow on it. A line that begins with "---" followed by anything
// else is refused by kubectl, which reads no further; here bad is called with it (before
// the document it ends is yielded) and the line is taken as a separator, so that the rest
// of the file is still checked. A separator line that ends a document belongs to no
// document; one that begins a document (the first line of the file, or the second of two
// separators in a row) is kept in it, as kubectl keeps it, and such a document of a
// separator alone is empty (see emptyDocument). Line breaks are read as kubectl's line
// reader does: "\r\n" ends a line as "\n" does, and a document's text has "\n" for it.
func yamlChunks(data []byte, bad func(line int, text string)) iter.Seq[chunk] {
	return func(yield func(chunk) bool) {
		start, startLine := 0, 1
		line, counted := 1, 0 // the line of data[counted:]
		// Each separator is a line that begins with "---": at the start, or after a line
		// feed.
		for i := 0; i < len(data); {
			if !bytes.HasPrefix(data[i:], []byte("---")) {
				j := bytes.Index(data[i:], []byte("\n---"))
				if j < 0 {
					break
				}
				i += j + 1
			}
			line += bytes.Count(data[counted:i], []byte("\n"))
			counted = i
			end := bytes.IndexByte(data[i:], '\n')
			next := len(data)
			if end >= 0 {
				end += i
				next = end + 1
			} else {
				end = len(data)
			}
			if rest := bytes.TrimSpace(data[i+3 : end]); len(rest) > 0 && rest[0] != '#' {
				bad(line, string(rest))
			}
			if i > start {
				// The line ends a document and belongs to none; one that would begin a
				// document is kept in it, as kubectl keeps it.
				if !yield(chunk{data: lineFeeds(data[start:i]), line: startLine}) {
					return
				}
				start, startLine = next, line+1
			}
			i = next
		}
		if start < len(data) {
			last := lineFeeds(data[start:])
			if last[len(last)-1] != '\n' {
				// kubectl's line reader ends the last line with a line feed too, which a
				// block scalar there keeps.
				last = append(last[:len(last):len(last)], '\n')
			}
			yield(chunk{data: last, line: startLine})
		}
	}
}

// lineFeeds returns the text of a document with each "\r\n" made "\n", as kubectl's line
// reader has it: a copy when there is one, else the text itself. The document of a bare
// separator, of which a file of CRLF separators holds millions, is not copied.
func lineFeeds(data []byte) []byte {
	switch {
	case !bytes.Contains(data, []byte("\r\n")):
		return data
	case string(data) == "---\r\n":
		return bareSeparator
	}
	return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
}

// bareSeparator is the text of a document of a separator alone; it is never modified.
var bareSeparator = []byte("---\n")

// isJSON reports whether kubectl reads data as a stream of JSON objects: its first
// character other than white space is "{", within the first jsonSniff bytes. kubectl
// looks no further: behind more white space than that, "{" starts YAML to it (a flow
// mapping), where two objects in a row are a syntax error and a number past float64 is
// an infinity. White space is valid UTF-8, so its length is the same in kubectl's text.
func isJSON(data []byte) bool {
	i := 0
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if !unicode.IsSpace(r) {
			return r == '{' && i < jsonSniff
		}
		i += size
	}
	return false
}

// jsonSniff is how many bytes of a file kubectl's reader looks at to tell JSON from YAML
// (k8s.io/cli-runtime reads a stream through NewYAMLOrJSONDecoder with a buffer of 4,096
// bytes, of which it peeks all).
const jsonSniff = 4096

// emptyDocument reports a document the YAML reader reads as empty, without parsing it:
// blank lines and comment lines (blankOrComments), after a first line that may be a
// separator: "---" alone, or followed by blanks, or by blanks and a comment. kubectl keeps
// the second of two separators in a row in the document that follows it, so that a file
// of millions of separators is millions of such documents, none of which need be parsed.
func emptyDocument(data []byte) bool {
	if bytes.HasPrefix(data, []byte("---")) {
		i := 3
		for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
			i++
		}
		switch {
		case i == len(data):
			return true
		case data[i] == '\n':
			data = data[i+1:]
		case data[i] == '#' && i > 3: // "---#" is no separator to the YAML reader
			end := bytes.IndexByte(data[i:], '\n')
			if end < 0 {
				return !containsBreak(data[i:])
			}
			if containsBreak(data[i : i+end]) {
				return false
			}
			data = data[i+end+1:]
		default:
			return false
		}
	}
	return blankOrComments(data)
}

// blankOrComments reports a document of nothing but blank lines and comment lines (spaces,
// then "#" and anything up to the line's end), which the YAML reader reads as empty: a file
// of megabytes of them need not be parsed. A tab, or anything else, leaves the reading to
// the reader.
func blankOrComments(data []byte) bool {
	for len(data) > 0 {
		i := 0
		for i < len(data) && (data[i] == ' ' || data[i] == '\r') {
			i++
		}
		switch {
		case i == len(data):
			return true
		case data[i] == '\n':
			data = data[i+1:]
		case data[i] == '#':
			end := bytes.IndexByte(data[i:], '\n')
			if end < 0 {
				return !containsBreak(data[i:])
			}
			if containsBreak(data[i : i+end]) {
				return false
			}
			data = data[i+end+1:]
		default:
			return false
		}
	}
	return true
}

// containsBreak reports a line break of the YAML reader's other than "\n" (CR, which a
// document's text holds only alone, NEL, LS, PS), after which a comment's text would be
// content.
func containsBreak(b []byte) bool {
	return bytes.IndexByte(b, '\r') >= 0 || bytes.Contains(b, []byte("\u0085")) || bytes.Contains(b, []byte("\u2028")) || bytes.Contains(b, []byte("\u2029"))
}

// lineCount returns the number of lines of data as the YAML reader counts them: line feeds,
// carriage returns and CRLF pairs, NEL, LS and PS all end a line.
func lineCount(data []byte) int {
	n := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) - bytes.Count(data, []byte("\r\n"))
	for _, br := range []string{"\u0085", "\u2028", "\u2029"} {
		n += bytes.Count(data, []byte(br))
	}
	return n
}

// NodeBound bounds, without parsing data, the number of nodes the YAML reader can make of
// its largest document, which bounds the memory of reading it (about 200 bytes a node; a
// long list is read in parts, in less). See nodeBound for how.
func NodeBound(data []byte) int {
	if len(data) <= 1<<12 {
		return 2*len(data) + 2 // what nodeBound gives at most: a small file needs no count
	}
	most, start := 0, 0
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], []byte("\n---"))
		if j < 0 {
			break
		}
		most = max(most, nodeBound(data[start:i+j+1]))
		start = i + j + 1
		i = start
	}
	return max(most, nodeBound(data[start:]))
}

// nodeBound bounds the number of nodes the YAML reader can make of the document data,
// without parsing it. The reader makes a node of each scalar, alias and collection, and an
// empty one where an indicator has nothing after it (a key without a value, "- " alone):
//
//   - a scalar or an alias starts a word: a run of bytes that begins after a line break
//     (NEL, LS and PS too), the start of the text or one of the indicators below, and runs
//     to the next of them; spaces do not end it, as a plain scalar may hold them. Each word
//     counts one (a plain scalar over several lines, a quoted one holding ", " or ": ", or
//     a comment that does, counts more than it makes: the bound stays an upper one without
//     telling strings and comments apart, which a reader of bytes could get wrong);
//   - ":" followed by white space, a flow indicator or the end, or right after a quote or a
//     closing bracket (a JSON-like key), and "- ", count one when something follows on
//     their line (the collection the entry may start), two when nothing does (and an empty
//     value); "? ", "[" and "{" count two; "," "]" and "}" count one. A ":" or "-" inside a
//     word ("repo:tag", "aks-pool-1") is part of it, as it is to the reader.
//
// So text of long strings, comments and blank lines counts little, as it makes few nodes;
// the node list of a real cluster counts about twice the nodes it makes.
func nodeBound(data []byte) int {
	n := 2 // the document and its root
	word := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n' || c == '\r':
			word = false
		case c == 0xc2 && i+1 < len(data) && data[i+1] == 0x85, // NEL
			c == 0xe2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xa8 || data[i+2] == 0xa9): // LS, PS
			word = false
		case c == ' ' || c == '\t':
		case c == '[' || c == '{':
			n += 2
			word = false
		case c == ',' || c == ']' || c == '}':
			n++
			word = false
		case c == '?' && indicator(data, i):
			n += 2
			word = false
		case (c == ':' || c == '-') && indicator(data, i):
			n += 1 + emptyAfter(data, i+1)
			word = false
		default:
			if !word {
				n++
				word = true
			}
		}
	}
	return n
}

// emptyAfter is 1 when nothing follows data[i:] on its line but blanks, a comment, or a flow
// indicator that ends an entry: an empty node may come there; 0 otherwise.
func emptyAfter(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	if i == len(data) {
		return 1
	}
	switch data[i] {
	case '\n', '\r', '#', ',', ']', '}', 0xc2, 0xe2:
		return 1
	}
	return 0
}

// indicator reports whether the ":", "-" or "?" at data[i] can be an indicator to the YAML
// reader: followed by white space or the end; a ":" or "?" also followed by a flow
// indicator, and a ":" right after a quote or a closing bracket.
func indicator(data []byte, i int) bool {
	if i+1 == len(data) {
		return true
	}
	switch next := data[i+1]; {
	case next == ' ' || next == '\t' || next == '\n' || next == '\r':
		return true
	case next == 0xc2 || next == 0xe2:
		return true // a NEL, LS or PS perhaps: count it, as the bound must hold
	case data[i] != '-' && (next == ',' || next == '[' || next == ']' || next == '{' || next == '}'):
		return true
	}
	if data[i] == ':' && i > 0 {
		switch data[i-1] {
		case '"', '\'', ']', '}':
			return true
		}
	}
	return false
}

// lineReaderBuffer is the size of the buffer kubectl's line reader reads lines through
// (k8s.io/apimachinery/pkg/util/yaml reads a file in buffers of 4,096 bytes).
const lineReaderBuffer = 4096

// dropLostLine returns text without its last line when kubectl's YAML reader loses that
// line, with the line's number; else text and 0. The reader takes a long line in pieces
// of a buffer's length (one byte less where a piece would end in a carriage return, which
// it keeps for the next piece); when the last line has no line break and its last piece
// fills the buffer exactly, the reader meets the end of the file while asking for more of
// the line, and drops the whole line with it. The lengths are those of kubectl's text:
// each invalid UTF-8 sequence is U+FFFD to it (three bytes), except behind a UTF-8 byte
// order mark, after which it decodes nothing (marked).
func dropLostLine(text []byte, marked bool) ([]byte, int) {
	start := bytes.LastIndexByte(text, '\n') + 1
	last := text[start:]
	if len(last) == 0 || 3*len(last) < lineReaderBuffer {
		return text, 0
	}
	if !marked && !utf8.Valid(last) {
		var b bytes.Buffer
		b.Grow(3 * len(last))
		for rest := last; len(rest) > 0; {
			r, size := decodeRune(rest)
			if r == utf8.RuneError && size <= 3 && !bytes.HasPrefix(rest, []byte("\ufffd")) {
				b.WriteString("\ufffd")
			} else {
				b.Write(rest[:size])
			}
			rest = rest[size:]
		}
		last = b.Bytes()
	}
	at := 0
	for len(last)-at >= lineReaderBuffer {
		n := lineReaderBuffer
		if last[at+n-1] == '\r' {
			n--
		}
		at += n
	}
	if at != len(last) {
		return text, 0
	}
	return text[:start], len(lineStarts(text[:start]))
}
