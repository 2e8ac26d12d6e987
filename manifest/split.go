package manifest

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A chunk is one YAML document of a file as kubectl cuts it: the lines between two
// separator lines.
type chunk struct {
	data []byte // the document's text
	line int    // the line of the file its first line is, from 1
}

// yamlChunks cuts data into documents as kubectl's YAML reader
// (k8s.io/apimachinery/pkg/util/yaml) does, line by line: a line that begins with "---"
// ends a document, provided nothing but spaces and a comment follow on it. A line that
// begins with "---" followed by anything else is refused by kubectl, which reads no
// further; here it is a finding and the line is taken as a separator, so that the rest of
// the file is still checked. A separator line that ends a document belongs to no
// document; one that begins a document (the first line of the file, or the second of two
// separators in a row) is kept in it. Line breaks are read as kubectl's line reader does:
// "\r\n" ends a line as "\n" does.
func yamlChunks(data []byte, bad func(line int, text string)) []chunk {
	if bytes.Contains(data, []byte("\r\n")) {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	var chunks []chunk
	start, startLine := 0, 1
	line := 1
	for i := 0; i < len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		next := len(data)
		if end >= 0 {
			end += i
			next = end + 1
		} else {
			end = len(data)
		}
		if text := data[i:end]; bytes.HasPrefix(text, []byte("---")) {
			rest := strings.TrimSpace(string(text[3:]))
			if rest != "" && rest[0] != '#' {
				bad(line, rest)
			}
			if i > start {
				// The line ends a document and belongs to none; one that would begin a
				// document is kept in it, as kubectl keeps it.
				chunks = append(chunks, chunk{data: data[start:i], line: startLine})
				start, startLine = next, line+1
			}
		}
		i = next
		line++
	}
	if start < len(data) {
		last := data[start:]
		if last[len(last)-1] != '\n' {
			// kubectl's line reader ends the last line with a line feed too, which a block
			// scalar there keeps.
			last = append(last[:len(last):len(last)], '\n')
		}
		chunks = append(chunks, chunk{data: last, line: startLine})
	}
	return chunks
}

// isJSON reports whether kubectl reads data as a stream of JSON objects: its first
// character other than white space is "{".
func isJSON(data []byte) bool {
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if !unicode.IsSpace(r) {
			return r == '{'
		}
		data = data[size:]
	}
	return false
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
// its largest document, which bounds the memory of reading it (about 200 bytes a node):
// every node begins after a line break or an indicator.
func NodeBound(data []byte) int {
	most, start := 0, 0
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], []byte("\n---"))
		if j < 0 {
			break
		}
		most = max(most, separators(data[start:i+j+1]))
		start = i + j + 1
		i = start
	}
	return max(most, separators(data[start:]))
}

// separators bounds the number of nodes the YAML reader can make of data without parsing
// it: every node follows a line break or one of the indicators , : - [ { ? or starts the
// text, and an indicator that opens a collection or an entry (- [ { , ?) can be followed by
// two nodes (a mapping and its first key, or a key and the null value of an entry
// written without one).
func separators(data []byte) int {
	n := 2
	for _, c := range data {
		switch c {
		case '\n', ':':
			n++
		case ',', '-', '[', '{', '?':
			n += 2
		}
	}
	return n
}
