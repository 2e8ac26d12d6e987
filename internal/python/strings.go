package python

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// literal is one string token cut into its parts.
type literal struct {
	raw, bytes, f bool
	body          string // between the quotes
	bodyOff       int    // offset of body in the token's text
}

func splitLiteral(text string) literal {
	var l literal
	i := 0
	for i < len(text) && text[i] != '\'' && text[i] != '"' {
		switch text[i] | 0x20 {
		case 'r':
			l.raw = true
		case 'b':
			l.bytes = true
		case 'f':
			l.f = true
		}
		i++
	}
	q := 1
	if len(text)-i >= 6 && text[i+1] == text[i] && text[i+2] == text[i] {
		q = 3
	}
	l.bodyOff = i + q
	l.body = text[i+q : len(text)-q]
	return l
}

// strings reads adjacent string tokens as one Constant, or a JoinedStr when
// one of them is an f-string.
func (p *parser) strings() Expr {
	first := p.tok()
	var sb strings.Builder
	var fields []*FormattedValue
	isF, isBytes := false, false
	for n := 0; p.tok().kind == tString; n++ {
		t := p.advance()
		l := splitLiteral(t.text)
		if n > 0 && l.bytes != isBytes {
			p.failAt(t.pos, "cannot mix bytes and nonbytes literals")
		}
		isBytes = l.bytes
		if l.f {
			isF = true
			fields = append(fields, p.fstring(t, l)...)
			continue
		}
		if l.raw {
			sb.WriteString(l.body)
			continue
		}
		s, err := unescape(l.body, l.bytes)
		if err != "" {
			p.failAt(t.pos, "%s", err)
		}
		sb.WriteString(s)
	}
	if isF {
		return &JoinedStr{At: At{first.pos}, Values: fields}
	}
	kind := Str
	if isBytes {
		kind = Bytes
	}
	return &Constant{At: At{first.pos}, Kind: kind, Value: sb.String()}
}

// unescape decodes the backslash escapes of a string (or bytes) literal's
// body. \N{...} is kept as written: its names are not checked. It returns a
// message when an escape is malformed, as CPython's codec errors are syntax
// errors.
func unescape(s string, isBytes bool) (string, string) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, ""
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(c)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			i = j - 1
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if isBytes && c != 'x' {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			if i+1+n > len(s) {
				return "", "(unicode error) truncated \\" + string(c) + " escape"
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil || strings.ContainsAny(s[i+1:i+1+n], "+-_") {
				return "", "(unicode error) truncated \\" + string(c) + " escape"
			}
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				if v > utf8.MaxRune {
					return "", "(unicode error) illegal Unicode character"
				}
				b.WriteRune(rune(v))
			}
			i += n
		case 'N':
			if isBytes {
				b.WriteString("\\N")
				continue
			}
			end := strings.IndexByte(s[i:], '}')
			if i+1 >= len(s) || s[i+1] != '{' || end < 0 || end == 2 {
				return "", "(unicode error) malformed \\N character escape"
			}
			b.WriteString(s[i-1 : i+end+1])
			i += end
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// posIn returns the position of text[off] for a token text starting at start.
func posIn(start Pos, text string, off int) Pos {
	p := start
	for i := 0; i < off && i < len(text); i++ {
		if text[i] == '\n' {
			p.Line++
			p.Col = 0
		} else {
			p.Col++
		}
	}
	return p
}

// fstring finds the replacement fields of an f-string token and parses their
// expressions at their positions in the file. Python 3.11's rules apply: an
// expression may not contain a backslash or a comment, nor the f-string's own
// quote; format specs may nest one more level of fields.
func (p *parser) fstring(t token, l literal) []*FormattedValue {
	fields, _ := p.fstringPart(t, l, l.bodyOff, len(l.body)+l.bodyOff, 0)
	return fields
}

// fstringPart scans text[from:to] of token t for fields, literal text and
// doubled braces; nested is the nesting of format specs (at most 2 levels,
// as in CPython). It stops at a single '}' when nested and returns its offset.
func (p *parser) fstringPart(t token, l literal, from, to, nested int) ([]*FormattedValue, int) {
	text := t.text
	var out []*FormattedValue
	i := from
	for i < to {
		c := text[i]
		switch {
		case c == '\\' && !l.raw:
			if i+2 < to && text[i+1] == 'N' && text[i+2] == '{' {
				end := strings.IndexByte(text[i:to], '}')
				if end < 0 {
					p.failAt(t.pos, "(unicode error) malformed \\N character escape")
				}
				i += end + 1
				continue
			}
			i++
			if i < to && text[i] != '{' && text[i] != '}' {
				i++
			}
		case c == '{':
			if nested == 0 && i+1 < to && text[i+1] == '{' {
				i += 2
				continue
			}
			if nested >= 2 {
				p.failAt(t.pos, "f-string: expressions nested too deeply")
			}
			var fv *FormattedValue
			fv, i = p.fstringField(t, l, i+1, to, nested)
			out = append(out, fv)
		case c == '}':
			if nested > 0 {
				return out, i
			}
			if i+1 < to && text[i+1] == '}' {
				i += 2
				continue
			}
			p.failAt(t.pos, "f-string: single '}' is not allowed")
		default:
			i++
		}
	}
	if nested > 0 {
		p.failAt(t.pos, "f-string: expecting '}'")
	}
	return out, i
}

// fstringField parses one field whose expression starts at text[from]; it
// returns the field and the offset after its closing '}'.
func (p *parser) fstringField(t token, l literal, from, to, nested int) (*FormattedValue, int) {
	text := t.text
	depth := 0
	i := from
	end := -1
scan:
	for ; i < to; i++ {
		c := text[i]
		switch c {
		case '\\':
			p.failAt(t.pos, "f-string expression part cannot include a backslash")
		case '#':
			p.failAt(t.pos, "f-string expression part cannot include '#'")
		case '\'', '"':
			q := 1
			if i+2 < to && text[i+1] == c && text[i+2] == c {
				q = 3
			}
			j := i + q
			for ; j < to; j++ {
				if text[j] == c && (q == 1 || j+2 < to && text[j+1] == c && text[j+2] == c) {
					break
				}
			}
			if j >= to {
				p.failAt(t.pos, "f-string: unterminated string")
			}
			i = j + q - 1
		case '(', '[', '{':
			depth++
		case ')', ']':
			depth--
		case '}':
			if depth == 0 {
				end = i
				break scan
			}
			depth--
		case '!':
			if depth == 0 && !(i+1 < to && text[i+1] == '=') {
				end = i
				break scan
			}
			if i+1 < to && text[i+1] == '=' {
				i++
			}
		case ':':
			if depth == 0 {
				end = i
				break scan
			}
		case '=':
			if depth == 0 && i+1 < to && text[i+1] != '=' {
				prev := text[i-1]
				if prev != '=' && prev != '!' && prev != '<' && prev != '>' {
					end = i
					break scan
				}
			}
			if i+1 < to && text[i+1] == '=' {
				i++
			}
		case '<', '>':
			if i+1 < to && text[i+1] == '=' {
				i++
			}
		}
	}
	if end < 0 {
		p.failAt(t.pos, "f-string: expecting '}'")
	}
	exprText := text[from:end]
	if strings.TrimSpace(exprText) == "" {
		p.failAt(t.pos, "f-string: empty expression not allowed")
	}
	fv := &FormattedValue{At: At{posIn(t.pos, text, from)}}
	fv.Value = p.subExpression(exprText, posIn(t.pos, text, from), wrapperPos(t, from-1))
	fv.Pos = fv.Value.Position()
	i = end
	if text[i] == '=' {
		i++
		for i < to && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n') {
			i++
		}
	}
	if i < to && text[i] == '!' {
		if i+1 >= to {
			p.failAt(t.pos, "f-string: expecting '}'")
		}
		switch c := text[i+1]; c {
		case 's', 'r', 'a':
			fv.Conversion = c
		default:
			p.failAt(t.pos, "f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
		i += 2
	}
	if i < to && text[i] == ':' {
		fv.Spec, i = p.fstringPart(t, l, i+1, to, nested+1)
	}
	if i >= to || text[i] != '}' {
		p.failAt(t.pos, "f-string: expecting '}'")
	}
	return fv, i + 1
}

// wrapperPos is where CPython 3.11 puts the parenthesis it wraps the field
// whose '{' is at text[brace] in: at the '{', except when only blanks and a
// newline follow it. Then it is at column 0 of the line of the '{', or at the
// token's column when that line is the token's first.
func wrapperPos(t token, brace int) Pos {
	brPos := posIn(t.pos, t.text, brace)
	i := brace + 1
	for i < len(t.text) && (t.text[i] == ' ' || t.text[i] == '\t' || t.text[i] == '\f') {
		i++
	}
	if i < len(t.text) && t.text[i] == '\n' {
		if brPos.Line == t.pos.Line {
			return t.pos
		}
		return Pos{Line: brPos.Line}
	}
	return brPos
}

// subExpression parses the expression of an f-string field, as if it were
// in parentheses, with positions starting at pos, the column after the '{';
// wrap is where CPython's wrapping parenthesis stands (see wrapperPos).
func (p *parser) subExpression(src string, pos, wrap Pos) Expr {
	lx := &lexer{src: []byte(src), text: src, line: pos.Line, lineStart: -pos.Col, indents: []int{0}, alt: []int{0}, inner: true}
	lx.brackets = []bracket{{'(', pos}}
	if err := lx.run(); err != nil {
		p.err = err
		panic(bailout{})
	}
	sub := &parser{toks: lx.toks, depth: p.depth}
	var e Expr
	if !sub.run(func() {
		if sub.isKw("yield") {
			e = sub.yieldExpr()
		} else {
			e = sub.starExpression()
			if sub.isOp(",") {
				// CPython 3.11 parses the field in parentheses put where its
				// '{' is: a tuple without parentheses of its own starts there.
				t := &Tuple{At: At{wrap}, Elts: []Expr{e}}
				for sub.isOp(",") {
					sub.advance()
					if !sub.startsExpr() {
						break
					}
					t.Elts = append(t.Elts, sub.starExpression())
				}
				e = t
			}
		}
		if sub.tok().kind != tEnd {
			sub.fail("f-string: invalid syntax")
		}
	}) {
		p.err = sub.err
		panic(bailout{})
	}
	return e
}
