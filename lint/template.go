package lint

import "bytes"

// templateAction reports a file whose Go template actions ({{ … }}, as a Helm chart's
// templates hold them) stand where YAML cannot read them, and returns the line of the
// first: an action that begins a node (at the start of a line, after "- ", after "key: ",
// in a flow collection), where YAML would read a flow mapping, or nothing at all. An
// action inside a quoted string, a block scalar (| or >) or a plain scalar that began
// before it (echo {{x}}) is content that YAML reads as it is, such as a prompt template or
// Jinja in a pipeline's inputs; so is an Azure ML expression, ${{inputs.data}}, and an
// action in a comment. A file under a Helm chart's templates/ is a template whatever its
// actions: that needs its path, which package lint knows.
func templateAction(data []byte) (int, bool) {
	if !bytes.Contains(data, []byte("{{")) {
		return 0, false
	}
	var s templateScan
	for i, line := 0, 1; i < len(data); line++ {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data) - i
		}
		if s.line(data[i : i+end]) {
			return line, true
		}
		i += end + 1
	}
	return 0, false
}

// templateScan is the state of templateAction's scan that lasts from one line to the next.
type templateScan struct {
	quote  byte // the quote of a string still open at the end of the last line, or 0
	block  bool // the lines are a block scalar's content
	parent int  // the block scalar's parent indentation: its content is indented more
	flow   int  // the depth of flow collections open at the end of the last line
}

// line scans one line and reports whether it holds an action where YAML cannot read one.
func (s *templateScan) line(l []byte) bool {
	l = bytes.TrimSuffix(l, []byte("\r"))
	indent := 0
	for indent < len(l) && l[indent] == ' ' {
		indent++
	}
	if s.block {
		if indent == len(l) || indent > s.parent || len(bytes.TrimSpace(l)) == 0 {
			return false // the block's content, or a blank line within it
		}
		s.block = false
	}
	node := s.quote == 0 // a node may begin here
	if s.flow > 0 {
		node = true
	}
	dash, key := -1, indent // the column of a "- " before the node, of the key of the line
	for j := indent; j < len(l); j++ {
		c := l[j]
		next := byte(0)
		if j+1 < len(l) {
			next = l[j+1]
		}
		switch {
		case s.quote == '"' && c == '\\':
			j++
		case s.quote == '\'' && c == '\'' && next == '\'':
			j++ // '' in a single-quoted string
		case s.quote != 0:
			if c == s.quote {
				s.quote, node = 0, false
			}
		case c == '#' && (j == 0 || isBlank(l[j-1])):
			return false // a comment, to the end of the line
		case isBlank(c):
		case c == '{' && next == '{' && (node || s.flow > 0 && (j == 0 || l[j-1] == '{' || l[j-1] == '[' || l[j-1] == ',')):
			if bytes.Contains(l[j+2:], []byte("}}")) {
				return true
			}
			j++
			node = false
		case node && (c == '"' || c == '\''):
			s.quote = c
		case node && (c == '-' || c == '?') && (next == 0 || isBlank(next)):
			if c == '-' {
				dash = j
			}
			key = j + 1
			for key < len(l) && isBlank(l[key]) {
				key++
			}
		case node && (c == '|' || c == '>') && s.flow == 0 && blockHeader(l[j+1:]):
			s.block, s.parent = true, key
			if dash >= 0 && dash+1 < len(l) && key == skipBlanks(l, dash+1) && key == j {
				s.parent = dash // a block scalar as a list item: "- |"
			}
			return false
		case node && (c == '[' || c == '{'):
			s.flow++
			node = true
		case s.flow > 0 && c == ',':
			node = true
		case s.flow > 0 && (c == ']' || c == '}'):
			s.flow--
			node = false
		case c == ':' && (next == 0 || isBlank(next) || s.flow > 0 && bytes.IndexByte([]byte(",[]{}"), next) >= 0):
			node = true
		default:
			if node && s.flow == 0 && dash < 0 {
				key = j
			}
			node = false
		}
	}
	return false
}

// blockHeader reports whether what follows a | or > makes it a block scalar's header:
// chomping and indentation indicators, then nothing but blanks or a comment.
func blockHeader(rest []byte) bool {
	i := 0
	for i < len(rest) && (rest[i] == '-' || rest[i] == '+' || rest[i] >= '1' && rest[i] <= '9') {
		i++
	}
	if i == len(rest) {
		return true
	}
	if !isBlank(rest[i]) {
		return false
	}
	rest = bytes.TrimLeft(rest[i:], " \t")
	return len(rest) == 0 || rest[0] == '#'
}

// skipBlanks returns the index of the first byte of l at or after i that is not blank.
func skipBlanks(l []byte, i int) int {
	for i < len(l) && isBlank(l[i]) {
		i++
	}
	return i
}

// isBlank reports a space or a tab.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }
