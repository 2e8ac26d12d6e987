package manifest

import (
	"bytes"
	"encoding/base64"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Scalars are read as kubectl reads them. kubectl turns YAML into JSON with
// sigs.k8s.io/yaml, which types scalars by the rules of YAML 1.1 as go.yaml.in/yaml/v2
// applies them, where go.yaml.in/yaml/v3, which gives us positions, types them by YAML
// 1.2. After parsing, retype gives every scalar of a document the tag kubectl's reading
// gives it; the text stays as written, and jsonText gives the JSON text kubectl would
// send for a number. The rules, for a scalar written plain (unquoted, without a tag):
//
//   - y, Y, yes, Yes, YES, on, On, ON, true, True, TRUE are true; n, N, no, No, NO, off,
//     Off, OFF, false, False, FALSE are false;
//   - "", ~, null, Null, NULL are null;
//   - .inf, .Inf, .INF (and signed), .nan, .NaN, .NAN are the non-finite floats, which JSON
//     cannot carry;
//   - after removing every underscore, an integer as Go's strconv.ParseInt reads one with
//     base 0 (0x1F, 0o17, 0b101, and 010 is octal: 8), or an unsigned one beyond int64;
//   - else a float of the form [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? (08 is
//     8.0), or, starting with ".", any float strconv.ParseFloat reads (.5);
//   - anything else is a string.
//
// Quoted and block scalars are strings. A scalar with an explicit tag (!!str, !!int,
// !!float, !!bool, !!null, !!timestamp) is read as that type, and is refused when its text
// is not one; !!binary is base64; any other tag leaves a string.

// The tags the decoder tells apart once retype has run.
const (
	tagNull   = "!!null"
	tagStr    = "!!str"
	tagInt    = "!!int"
	tagFloat  = "!!float"
	tagBool   = "!!bool"
	tagMerge  = "!!merge"
	tagBinary = "!!binary" // a string, base64 encoded
)

// retyper retypes the scalars of one document and checks its shape, walking every node
// written once, without following aliases.
type retyper struct {
	nodes   int                   // nodes written
	aliases int                   // alias nodes written
	tooLong *yaml.Node            // the first scalar longer than MaxScalarSize
	refused map[*yaml.Node]string // scalars kubectl refuses, and why
	open    map[*yaml.Node]bool   // anchored nodes being walked, to find aliases into themselves
	source  []byte                // the document's text, to find non-specific tags ("! 12")
	bangs   bool                  // the text holds a "!"
	// lineStarts are the offsets in source where its lines start, as the YAML reader
	// counts lines, made when first needed.
	lineStarts []int
	// root is the tree being walked (a document's, a long list's item); starts holds the
	// positions where its nodes start, made when first needed (see nonSpecific).
	root   *yaml.Node
	starts map[[2]int]bool
	// within is the column at or left of which a "!" is no tag of the node being retyped:
	// its block collection's indentation (see indentation), or one less for a key.
	within int
}

// walkRoot walks the tree of root, a document's node or an item of a long list.
func (r *retyper) walkRoot(root *yaml.Node) {
	r.root, r.starts, r.within = root, nil, 0
	r.walk(root)
}

// add takes in what the retyper of a later part of the document (see parts.go) found.
func (r *retyper) add(part *retyper) {
	r.nodes += part.nodes
	r.aliases += part.aliases
	if r.tooLong == nil {
		r.tooLong = part.tooLong
	}
	for n, why := range part.refused {
		r.refuse(n, why)
	}
}

func (r *retyper) walk(n *yaml.Node) {
	r.nodes++
	switch n.Kind {
	case yaml.ScalarNode:
		if len(n.Value) > MaxScalarSize && r.tooLong == nil {
			r.tooLong = n
		}
		r.scalar(n)
	case yaml.AliasNode:
		r.aliases++
		if r.open[n.Alias] {
			r.refuse(n, "an alias to a node that contains it (anchor "+strconv.Quote(n.Value)+"): it has no end")
		}
	default:
		if n.Anchor != "" {
			if r.open == nil {
				r.open = make(map[*yaml.Node]bool)
			}
			r.open[n] = true
			defer delete(r.open, n)
		}
		outer, indent := r.within, 0
		if r.bangs {
			indent = r.indentation(n)
		}
		for i, c := range n.Content {
			// A key stands at its mapping's indentation, anything else right of it.
			r.within = indent
			if n.Kind == yaml.MappingNode && i%2 == 0 && indent > 0 {
				r.within = indent - 1
			}
			r.walk(c)
			// JSON has no infinities, so kubectl refuses a document holding one as a value;
			// as a key it names it .inf.
			if key := n.Kind == yaml.MappingNode && i%2 == 0; !key {
				r.unsendable(c)
			}
		}
		r.within = outer
	}
}

// indentation returns the column of the block collection n's indicators (its keys, "?"
// or "-"), past which its nodes stand; 0 for a flow collection, or where it is not known
// (a list whose first item starts on a later line than its "-"). The collection's own
// position may be that of its properties, on an earlier line: it is found from its first
// node, and the indicator before it on its line.
func (r *retyper) indentation(n *yaml.Node) int {
	if n.Style&yaml.FlowStyle != 0 || len(n.Content) == 0 {
		return 0
	}
	first := n.Content[0]
	indicator := byte('?')
	if n.Kind == yaml.SequenceNode {
		indicator = '-'
	}
	if column, ok := r.indicatorBefore(first, indicator); ok {
		return column
	}
	if n.Kind == yaml.SequenceNode {
		return 0
	}
	return first.Column
}

// at returns the text from the start of n's line, and the byte in it where n starts
// (columns count characters), or false for a node without a place in the source.
func (r *retyper) at(n *yaml.Node) (line []byte, at int, ok bool) {
	if n.Line < 1 || n.Column < 1 {
		return nil, 0, false
	}
	if r.lineStarts == nil {
		r.lineStarts = lineStarts(r.source)
	}
	if n.Line > len(r.lineStarts) {
		return nil, 0, false
	}
	line = r.source[r.lineStarts[n.Line-1]:]
	for col := 1; col < n.Column && at < len(line); col++ {
		_, size := utf8.DecodeRune(line[at:])
		at += size
	}
	return line, at, true
}

// indicatorBefore returns the column of the indicator c written before n on n's line,
// with only blanks between them, if there is one.
func (r *retyper) indicatorBefore(n *yaml.Node, c byte) (int, bool) {
	line, at, ok := r.at(n)
	if !ok {
		return 0, false
	}
	blanks := 0
	for at > 0 && (line[at-1] == ' ' || line[at-1] == '\t') {
		at--
		blanks++
	}
	if blanks == 0 || at == 0 || line[at-1] != c || at > 1 && line[at-2] != ' ' && line[at-2] != '\t' {
		return 0, false
	}
	return n.Column - blanks - 1, true
}

// notFinite begins the reason of every refusal of a number with no JSON form (see
// unsendable).
const notFinite = "must be a finite number: "

// unsendable refuses the value n if it is a number with no JSON form (an infinity, NaN),
// and not refused already (a tag it does not fit, which kubectl refuses as it reads).
// An alias to such a number written as a key (a key may be one: kubectl names it .inf) is
// refused as the value it is.
func (r *retyper) unsendable(n *yaml.Node) {
	x := n
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		x = n.Alias
	}
	_, refused := r.refused[x]
	if _, aliasRefused := r.refused[n]; !refused && !aliasRefused && x.Kind == yaml.ScalarNode && x.Tag == tagFloat && !finite(x.Tag, x.Value) {
		r.refuse(n, notFinite+x.Value+" has no JSON form, so kubectl cannot send it")
	}
}

func (r *retyper) refuse(n *yaml.Node, why string) {
	if r.refused == nil {
		r.refused = make(map[*yaml.Node]string)
	}
	r.refused[n] = why
}

// scalar retypes n.
func (r *retyper) scalar(n *yaml.Node) {
	if n.Style&yaml.TaggedStyle == 0 {
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			n.Tag = tagStr
			if n.Value == "<<" && r.nonSpecific(n) {
				// kubectl's reader takes any scalar tagged "!" as it takes a plain one
				// when it asks for a merge key: ! "<<" merges.
				n.Tag = tagMerge
			}
			return
		}
		if r.nonSpecific(n) {
			n.Tag = tagStr
			if n.Value == "<<" {
				n.Tag = tagMerge // still a merge key to kubectl's reading
			}
			return
		}
		n.Tag = plainTag(n.Value)
		return
	}
	tag := n.Tag
	if long, ok := strings.CutPrefix(tag, "tag:yaml.org,2002:"); ok {
		tag = "!!" + long
	}
	switch tag {
	case tagStr, tagBinary:
		n.Tag = tag
		if tag == tagBinary {
			if _, err := base64.StdEncoding.DecodeString(n.Value); err != nil {
				r.refuse(n, "a !!binary value that is not base64")
			}
		}
	case tagBool, tagInt, tagFloat, tagNull, "!!timestamp":
		got := plainTag(n.Value)
		if tag == "!!timestamp" {
			if isTimestamp(n.Value) {
				got = tag
			}
		} else if tag == tagFloat && got == tagInt {
			got = tagFloat // an integer is a float too
		}
		if got != tag {
			r.refuse(n, "a value tagged "+tag+" that is "+tagName(got)+", "+strconv.Quote(n.Value))
			n.Tag = got
			return
		}
		if tag == "!!timestamp" {
			n.Tag = tagStr // kubectl's reading keeps a timestamp as the text written
			return
		}
		n.Tag = tag
	case tagMerge:
		n.Tag = tagStr
		if n.Value == "<<" {
			n.Tag = tagMerge
		}
	default:
		n.Tag = tagStr // any other tag: the text, as a string
	}
}

// nonSpecific reports a scalar written with the non-specific tag "!" ("! 12", ! "<<",
// "!<!> 12"), which go.yaml.in/yaml/v3 drops but kubectl's reading keeps: the value is
// a string, and "<<" so tagged, quoted or not, is a merge key.
func (r *retyper) nonSpecific(n *yaml.Node) bool {
	if !r.bangs || n.Line < 1 || n.Column < 1 {
		return false
	}
	line, at, ok := r.at(n)
	if !ok {
		return false
	}
	text := line[at:]
	// A node with properties starts at them: an anchor and a tag, in either order, with
	// white space, line breaks and comments between them. One that starts elsewhere (an
	// empty value's position after its indicator) has none.
	if len(text) > 0 && text[0] == '&' {
		text = text[1:]
		for len(text) > 0 && isAnchorByte(text[0]) {
			text = text[1:]
		}
		after := afterSeparation(text)
		if len(after) == 0 || after[0] != '!' {
			return false
		}
		// On a later line, the tag may be that of a node that follows n, whose value is
		// then empty ("a: &x" above "! b: 1"): a node with properties starts at them, and
		// stands right of its collection's indentation.
		if bytes.ContainsAny(text[:len(text)-len(after)], "\n\r\u0085\u2028\u2029") {
			line, column := r.place(len(r.source) - len(after))
			if column <= r.within || r.startsNode(line, column) {
				return false
			}
		}
		text = after
	} else if n.Column <= r.within {
		// An empty value is placed where the next token starts, which may be a "!" of
		// what follows the collection (" ? 0" above "!").
		return false
	}
	if len(text) == 0 || text[0] != '!' {
		return false
	}
	rest := text[1:]
	if bytes.HasPrefix(text, []byte("!<!>")) {
		rest = text[4:] // the same tag written verbatim
	}
	return len(rest) == 0 || isBlank(rest[0]) || rest[0] == ',' || rest[0] == ']' || rest[0] == '}' ||
		bytes.HasPrefix(rest, []byte("\u0085")) || bytes.HasPrefix(rest, []byte("\u2028")) || bytes.HasPrefix(rest, []byte("\u2029"))
}

// place returns the line and column of the byte offset of source, as the YAML reader
// counts them (columns in characters).
func (r *retyper) place(offset int) (line, column int) {
	line, _ = slices.BinarySearch(r.lineStarts, offset+1)
	return line, 1 + utf8.RuneCount(r.source[r.lineStarts[line-1]:offset])
}

// startsNode reports whether a node of the tree walked starts at line and column.
func (r *retyper) startsNode(line, column int) bool {
	if r.starts == nil {
		r.starts = make(map[[2]int]bool)
		stack := []*yaml.Node{r.root}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.starts[[2]int{n.Line, n.Column}] = true
			stack = append(stack, n.Content...)
		}
	}
	return r.starts[[2]int{line, column}]
}

// lineStarts returns the offsets where the lines of text start, as the YAML reader breaks
// lines (see afterLineBreak): the first line at 0.
func lineStarts(text []byte) []int {
	starts := []int{0}
	for rest := text; ; {
		next := afterLineBreak(rest)
		if next == nil {
			return starts
		}
		starts = append(starts, len(text)-len(next))
		rest = next
	}
}

// afterLineBreak returns text after its first line break as the YAML reader sees one:
// "\r\n", "\n", "\r", NEL, LS or PS; nil when there is none.
func afterLineBreak(text []byte) []byte {
	for i := 0; i < len(text); {
		c, size := utf8.DecodeRune(text[i:])
		switch c {
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				return text[i+2:]
			}
			return text[i+1:]
		case '\n', '\u0085', '\u2028', '\u2029':
			return text[i+size:]
		}
		i += size
	}
	return nil
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isAnchorByte reports a byte of an anchor's name, as both YAML readers scan one.
func isAnchorByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// afterSeparation returns text after the white space, line breaks (NEL, LS and PS too),
// comments and, at the start of a line, byte order marks that may separate a node's
// properties.
func afterSeparation(text []byte) []byte {
	lineStart := false
	for len(text) > 0 {
		switch {
		case text[0] == ' ' || text[0] == '\t':
			text = text[1:]
		case text[0] == '#':
			next := afterLineBreak(text)
			if next == nil {
				return nil
			}
			text, lineStart = next, true
			continue
		case text[0] == '\n' || text[0] == '\r':
			text, lineStart = text[1:], true
			continue
		case bytes.HasPrefix(text, []byte("\u0085")):
			text, lineStart = text[2:], true
			continue
		case bytes.HasPrefix(text, []byte("\u2028")) || bytes.HasPrefix(text, []byte("\u2029")):
			text, lineStart = text[3:], true
			continue
		case lineStart && bytes.HasPrefix(text, []byte("\ufeff")):
			text = text[3:]
		default:
			return text
		}
		lineStart = false
	}
	return text
}

func tagName(tag string) string {
	switch tag {
	case tagNull:
		return "null"
	case tagBool:
		return "a boolean"
	case tagInt:
		return "an integer"
	case tagFloat:
		return "a float"
	case tagStr:
		return "a string"
	}
	return tag
}

// plainTag returns the tag kubectl's reading gives a plain scalar.
func plainTag(s string) string {
	if s == "" {
		return tagNull
	}
	switch s[0] {
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', '~':
		switch s {
		case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
			"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
			return tagBool
		case "~", "null", "Null", "NULL":
			return tagNull
		}
		return tagStr
	case '.':
		switch s {
		case ".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN":
			return tagFloat
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return tagFloat
		}
		return tagStr
	case '+', '-':
		switch s {
		case "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
			return tagFloat
		}
	case '<':
		if s == "<<" {
			return tagMerge
		}
		return tagStr
	}
	if (s[0] < '0' || s[0] > '9') && s[0] != '+' && s[0] != '-' {
		return tagStr
	}
	if isTimestamp(s) {
		return tagStr // kubectl's reading keeps a timestamp as the text written
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return tagInt
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return tagInt
	}
	if yamlFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return tagFloat
		}
	}
	if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if _, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return tagInt
		}
	}
	return tagStr
}

// yamlFloat reports s of the form [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?.
func yamlFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isTimestamp reports a YAML timestamp as kubectl's reading recognises one: four digits,
// a dash, then a date, a date and time, or a date, time and zone.
func isTimestamp(s string) bool {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range [...]string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// number returns the value of a scalar retype tagged !!int or !!float as kubectl's
// reading has it: an int64, a uint64 or a float64.
func number(tag, s string) (i int64, u uint64, f float64, kind byte) {
	switch s {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return 0, 0, math.Inf(1), 'f'
	case "-.inf", "-.Inf", "-.INF":
		return 0, 0, math.Inf(-1), 'f'
	case ".nan", ".NaN", ".NAN":
		return 0, 0, math.NaN(), 'f'
	}
	if s != "" && s[0] == '.' {
		f, _ = strconv.ParseFloat(s, 64)
		return 0, 0, f, 'f'
	}
	plain := strings.ReplaceAll(s, "_", "")
	if v, err := strconv.ParseInt(plain, 0, 64); err == nil {
		if tag == tagFloat {
			return 0, 0, float64(v), 'f'
		}
		return v, 0, 0, 'i'
	}
	if v, err := strconv.ParseUint(plain, 0, 64); err == nil {
		if tag == tagFloat {
			return 0, 0, float64(v), 'f'
		}
		return 0, v, 0, 'u'
	}
	if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if v, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return v, 0, 0, 'i'
		}
	}
	f, _ = strconv.ParseFloat(plain, 64)
	return 0, 0, f, 'f'
}

// jsonNumber formats f as encoding/json does.
func jsonNumber(f float64) string {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, 64)
	if format == 'e' {
		// encoding/json shortens a two-digit negative exponent: 1e-07 becomes 1e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b)
}

// finite reports whether a number scalar is one JSON can carry.
func finite(tag, s string) bool {
	if tag != tagFloat {
		return true
	}
	_, _, f, _ := number(tag, s)
	return !math.IsInf(f, 0) && !math.IsNaN(f)
}
