package python

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// tokKind is the kind of a token, as CPython's tokenize module names them.
type tokKind uint8

const (
	tEnd     tokKind = iota // ENDMARKER
	tNewline                // NEWLINE: the end of a logical line
	tIndent                 // INDENT
	tDedent                 // DEDENT
	tName                   // NAME: identifiers and keywords
	tNumber                 // NUMBER
	tString                 // STRING, f-strings included (one token, as before Python 3.12)
	tOp                     // OP
)

// token is one token of the source. Comments and the NL of blank lines and of
// lines inside brackets are not kept: the parser never needs them.
type token struct {
	kind tokKind
	text string // the token's source text (a string's prefix and quotes included)
	pos  Pos
}

// Limits shared with CPython: its tokenizer allows 100 levels of indentation
// (MAXINDENT) and 200 nested brackets (MAXLEVEL).
const (
	maxIndent   = 100
	maxBrackets = 200
)

type bracket struct {
	c   byte
	pos Pos
}

// lexer cuts a source into tokens following CPython's tokenizer: the
// indentation of each logical line becomes INDENT and DEDENT tokens (a tab
// advances to the next multiple of 8, and the indentation must agree with tabs
// counted as 1, or it is a TabError as in CPython); newlines inside brackets
// and after a backslash join lines; blank and comment-only lines are ignored.
type lexer struct {
	src       []byte
	text      string // src as a string, converted once: tokens' texts are slices of it
	i         int
	line      int
	lineStart int
	indents   []int // columns with tab size 8
	alt       []int // the same with tab size 1
	brackets  []bracket
	toks      []token
	lineToks  int // tokens on the current logical line
	comments  []*Comment
	inner     bool // an f-string's expression: inside brackets from the start, no NEWLINE
}

// tokenize returns the tokens and the comments of src, which must use "\n"
// line endings (see normalize), or the first syntax error.
func tokenize(src []byte) ([]token, []*Comment, *SyntaxError) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line := 1 + bytes.Count(src[:i], []byte("\n"))
		return nil, nil, &SyntaxError{Pos: Pos{Line: line, Col: i - (bytes.LastIndexByte(src[:i], '\n') + 1)}, Msg: "source code cannot contain null bytes"}
	}
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		line := 1 + bytes.Count(src[:i], []byte("\n"))
		return nil, nil, &SyntaxError{Pos: Pos{Line: line, Col: i - (bytes.LastIndexByte(src[:i], '\n') + 1)}, Msg: "(unicode error) 'utf-8' codec can't decode byte: the source is not UTF-8"}
	}
	lx := &lexer{src: src, text: string(src), line: 1, indents: []int{0}, alt: []int{0}}
	if err := lx.run(); err != nil {
		return nil, nil, err
	}
	return lx.toks, lx.comments, nil
}

func (lx *lexer) pos() Pos { return Pos{Line: lx.line, Col: lx.i - lx.lineStart} }

func (lx *lexer) errAt(p Pos, format string, args ...any) *SyntaxError {
	return &SyntaxError{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

func (lx *lexer) emit(k tokKind, start int, p Pos) {
	lx.toks = append(lx.toks, token{kind: k, text: lx.text[start:lx.i], pos: p})
	if k != tIndent && k != tDedent {
		lx.lineToks++
	}
}

func (lx *lexer) newline() {
	lx.i++
	lx.line++
	lx.lineStart = lx.i
}

func (lx *lexer) run() *SyntaxError {
	atLineStart := !lx.inner
	for {
		if atLineStart {
			atLineStart = false
			if err := lx.indentation(); err != nil {
				return err
			}
		}
		for lx.i < len(lx.src) && (lx.src[lx.i] == ' ' || lx.src[lx.i] == '\t' || lx.src[lx.i] == '\f') {
			lx.i++
		}
		if lx.i >= len(lx.src) {
			break
		}
		c := lx.src[lx.i]
		start, p := lx.i, lx.pos()
		switch {
		case c == '#':
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.i++
			}
			lx.comments = append(lx.comments, &Comment{At: At{p}, Text: lx.text[start:lx.i]})
		case c == '\n':
			if len(lx.brackets) == 0 {
				if lx.lineToks > 0 {
					lx.toks = append(lx.toks, token{kind: tNewline, text: "\n", pos: p})
					lx.lineToks = 0
				}
				atLineStart = true
			}
			lx.newline()
		case c == '\\':
			if lx.i+1 >= len(lx.src) {
				return lx.errAt(Pos{p.Line, p.Col + 1}, "unexpected EOF while parsing")
			}
			if lx.src[lx.i+1] != '\n' {
				return lx.errAt(Pos{p.Line, p.Col + 1}, "unexpected character after line continuation character")
			}
			lx.i++
			lx.newline()
			if lx.i >= len(lx.src) {
				return lx.errAt(lx.pos(), "unexpected EOF while parsing")
			}
		case c == '"' || c == '\'':
			if err := lx.str(start, p, false); err != nil {
				return err
			}
		case c >= '0' && c <= '9' || c == '.' && lx.i+1 < len(lx.src) && isDigit(lx.src[lx.i+1]):
			if err := lx.number(p); err != nil {
				return err
			}
			lx.emit(tNumber, start, p)
		case isNameStartByte(c):
			if err := lx.name(p); err != nil {
				return err
			}
			if lx.i < len(lx.src) && (lx.src[lx.i] == '"' || lx.src[lx.i] == '\'') && isStringPrefix(lx.src[start:lx.i]) {
				if err := lx.str(start, p, hasByte(lx.src[start:lx.i], 'b')); err != nil {
					return err
				}
				continue
			}
			lx.emit(tName, start, p)
		default:
			if err := lx.operator(p); err != nil {
				return err
			}
			lx.emit(tOp, start, p)
		}
	}
	if lx.inner {
		lx.toks = append(lx.toks, token{kind: tEnd, pos: lx.pos()})
		return nil
	}
	if len(lx.brackets) > 0 {
		b := lx.brackets[len(lx.brackets)-1]
		return lx.errAt(b.pos, "'%c' was never closed", b.c)
	}
	p := lx.pos()
	if lx.lineToks > 0 {
		lx.toks = append(lx.toks, token{kind: tNewline, pos: p})
	}
	for len(lx.indents) > 1 {
		lx.indents = lx.indents[:len(lx.indents)-1]
		lx.toks = append(lx.toks, token{kind: tDedent, pos: p})
	}
	lx.toks = append(lx.toks, token{kind: tEnd, pos: p})
	return nil
}

// indentation reads the indentation of a line and emits INDENT or DEDENT
// tokens when the line holds a token. Blank lines, comment-only lines and the
// lines inside brackets do not count.
func (lx *lexer) indentation() *SyntaxError {
	for {
		col, alt := 0, 0
		j := lx.i
	scan:
		for ; j < len(lx.src); j++ {
			switch lx.src[j] {
			case ' ':
				col++
				alt++
			case '\t':
				col = (col/8 + 1) * 8
				alt++
			case '\f':
				col, alt = 0, 0
			default:
				break scan
			}
		}
		if j >= len(lx.src) {
			lx.i = j
			return nil
		}
		if c := lx.src[j]; c == '#' || c == '\n' {
			start := j
			for j < len(lx.src) && lx.src[j] != '\n' {
				j++
			}
			if c == '#' {
				lx.comments = append(lx.comments, &Comment{At: At{Pos{lx.line, start - lx.lineStart}}, Text: lx.text[start:j]})
			}
			lx.i = j
			if j < len(lx.src) {
				lx.newline()
				continue
			}
			return nil
		}
		lx.i = j
		p := lx.pos()
		top := len(lx.indents) - 1
		switch {
		case col == lx.indents[top]:
			if alt != lx.alt[top] {
				return lx.errAt(p, "inconsistent use of tabs and spaces in indentation")
			}
		case col > lx.indents[top]:
			if alt <= lx.alt[top] {
				return lx.errAt(p, "inconsistent use of tabs and spaces in indentation")
			}
			if len(lx.indents) > maxIndent {
				return lx.errAt(p, "too many levels of indentation")
			}
			lx.indents = append(lx.indents, col)
			lx.alt = append(lx.alt, alt)
			lx.toks = append(lx.toks, token{kind: tIndent, pos: p})
		default:
			for col < lx.indents[len(lx.indents)-1] {
				lx.indents = lx.indents[:len(lx.indents)-1]
				lx.alt = lx.alt[:len(lx.alt)-1]
				lx.toks = append(lx.toks, token{kind: tDedent, pos: p})
			}
			top = len(lx.indents) - 1
			if col != lx.indents[top] {
				return lx.errAt(p, "unindent does not match any outer indentation level")
			}
			if alt != lx.alt[top] {
				return lx.errAt(p, "inconsistent use of tabs and spaces in indentation")
			}
		}
		return nil
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isNameStartByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

// isIDStart and isIDContinue approximate Unicode's XID_Start and XID_Continue,
// which CPython uses for identifiers (after NFKC normalization, not done here).
func isIDStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIDContinue(r rune) bool {
	return isIDStart(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_ID_Continue, r)
}

func (lx *lexer) name(p Pos) *SyntaxError {
	first := true
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c < 0x80 {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || !first && isDigit(c) {
				lx.i++
				first = false
				continue
			}
			break
		}
		r, n := utf8.DecodeRune(lx.src[lx.i:])
		if r == utf8.RuneError && n <= 1 {
			return lx.errAt(lx.pos(), "invalid UTF-8 in source")
		}
		if first && !isIDStart(r) || !first && !isIDContinue(r) {
			if first {
				return lx.errAt(lx.pos(), "invalid character '%c' (U+%04X)", r, r)
			}
			break
		}
		lx.i += n
		first = false
	}
	return nil
}

// isStringPrefix reports whether b is one of the string prefixes r, u, b, br,
// rb, f, fr, rf, in any case.
func isStringPrefix(b []byte) bool {
	if len(b) > 2 {
		return false
	}
	var r, u, by, f int
	for _, c := range b {
		switch c | 0x20 {
		case 'r':
			r++
		case 'u':
			u++
		case 'b':
			by++
		case 'f':
			f++
		default:
			return false
		}
	}
	switch {
	case u == 1:
		return len(b) == 1
	case r > 1 || by > 1 || f > 1 || by == 1 && f == 1:
		return false
	}
	return true
}

func hasByte(b []byte, c byte) bool {
	for _, x := range b {
		if x|0x20 == c {
			return true
		}
	}
	return false
}

// str scans a string literal whose prefix starts at start; lx.i is at its
// opening quote.
func (lx *lexer) str(start int, p Pos, bytesLit bool) *SyntaxError {
	q := lx.src[lx.i]
	triple := lx.i+2 < len(lx.src) && lx.src[lx.i+1] == q && lx.src[lx.i+2] == q
	if triple {
		lx.i += 3
	} else {
		lx.i++
	}
	for {
		if lx.i >= len(lx.src) {
			if triple {
				return lx.errAt(p, "unterminated triple-quoted string literal (detected at line %d)", lx.line)
			}
			return lx.errAt(p, "unterminated string literal (detected at line %d)", lx.line)
		}
		c := lx.src[lx.i]
		switch {
		case c == '\\':
			lx.i++
			if lx.i < len(lx.src) {
				if lx.src[lx.i] == '\n' {
					lx.newline()
				} else {
					lx.i++
				}
			}
			continue
		case c == '\n':
			if !triple {
				return lx.errAt(p, "unterminated string literal (detected at line %d)", lx.line)
			}
			lx.newline()
			continue
		case c == q:
			if !triple {
				lx.i++
				lx.emit(tString, start, p)
				return nil
			}
			if lx.i+2 < len(lx.src) && lx.src[lx.i+1] == q && lx.src[lx.i+2] == q {
				lx.i += 3
				lx.emit(tString, start, p)
				return nil
			}
		case c >= 0x80:
			if bytesLit {
				return lx.errAt(p, "bytes can only contain ASCII literal characters")
			}
		}
		lx.i++
	}
}

// digits scans digits accepted by ok, with single underscores between them,
// as CPython's tok_decimal_tail does; it reports whether any digit was read,
// and an error for an underscore not followed by a digit.
func (lx *lexer) digits(ok func(byte) bool, kind string) (bool, *SyntaxError) {
	any := false
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if ok(c) {
			lx.i++
			any = true
			continue
		}
		if c == '_' && any {
			if lx.i+1 < len(lx.src) && ok(lx.src[lx.i+1]) {
				lx.i++
				continue
			}
			lx.i++
			return any, lx.errAt(lx.pos(), "invalid %s literal", kind)
		}
		break
	}
	return any, nil
}

// number scans a numeric literal: decimal, hexadecimal, octal and binary
// integers, floats and imaginary numbers, with underscores between digits.
func (lx *lexer) number(p Pos) *SyntaxError {
	src := lx.src
	if src[lx.i] == '0' && lx.i+1 < len(src) {
		var ok func(byte) bool
		var kind string
		switch src[lx.i+1] | 0x20 {
		case 'x':
			ok, kind = func(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }, "hexadecimal"
		case 'o':
			ok, kind = func(c byte) bool { return c >= '0' && c <= '7' }, "octal"
		case 'b':
			ok, kind = func(c byte) bool { return c == '0' || c == '1' }, "binary"
		}
		if ok != nil {
			lx.i += 2
			if lx.i < len(src) && src[lx.i] == '_' {
				lx.i++
			}
			any, err := lx.digits(ok, kind)
			if err != nil {
				return err
			}
			if lx.i < len(src) && isDigit(src[lx.i]) {
				return lx.errAt(lx.pos(), "invalid digit '%c' in %s literal", src[lx.i], kind)
			}
			if !any {
				return lx.errAt(lx.pos(), "invalid %s literal", kind)
			}
			return lx.endOfNumber(p, kind)
		}
	}
	intStart := lx.i
	if _, err := lx.digits(isDigit, "decimal"); err != nil {
		return err
	}
	intPart := src[intStart:lx.i]
	isInt := true
	if lx.i < len(src) && src[lx.i] == '.' {
		isInt = false
		lx.i++
		if lx.i < len(src) && isDigit(src[lx.i]) {
			if _, err := lx.digits(isDigit, "decimal"); err != nil {
				return err
			}
		}
	}
	if lx.i < len(src) && src[lx.i]|0x20 == 'e' {
		j := lx.i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			isInt = false
			lx.i = j
			if _, err := lx.digits(isDigit, "decimal"); err != nil {
				return err
			}
		} else if !lx.keywordFollows() {
			return lx.errAt(p, "invalid decimal literal")
		} else {
			return nil
		}
	}
	if lx.i < len(src) && src[lx.i]|0x20 == 'j' {
		lx.i++
		return lx.endOfNumber(p, "imaginary")
	}
	if isInt && len(intPart) > 1 && intPart[0] == '0' {
		for _, c := range intPart {
			if c != '0' && c != '_' {
				return lx.errAt(p, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
			}
		}
	}
	return lx.endOfNumber(p, "decimal")
}

// keywordFollows reports whether one of the keywords CPython 3.11 lets follow
// a number without a space (and, else, for, if, in, is, not, or) starts at lx.i.
func (lx *lexer) keywordFollows() bool {
	rest := lx.src[lx.i:]
	for _, kw := range [...]string{"and", "else", "for", "if", "in", "is", "not", "or"} {
		if len(rest) >= len(kw) && string(rest[:len(kw)]) == kw {
			return true
		}
	}
	return false
}

// endOfNumber refuses a number directly followed by an identifier character,
// unless a keyword starts there (CPython 3.11 warns and accepts "1if x else y").
func (lx *lexer) endOfNumber(p Pos, kind string) *SyntaxError {
	if lx.i >= len(lx.src) {
		return nil
	}
	c := lx.src[lx.i]
	if c < 0x80 && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || isDigit(c)) {
		return nil
	}
	if c >= 0x80 {
		r, _ := utf8.DecodeRune(lx.src[lx.i:])
		if !isIDContinue(r) {
			return nil
		}
	}
	if lx.keywordFollows() {
		return nil
	}
	return lx.errAt(p, "invalid %s literal", kind)
}

// operators, longest first within each length.
var ops3 = [...]string{"**=", "//=", ">>=", "<<=", "..."}
var ops2 = [...]string{"->", ":=", "==", "!=", "<=", ">=", "**", "//", "<<", ">>",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="}

const ops1 = "()[]{}:,;+-*/|&<>=.%~^@"

func (lx *lexer) operator(p Pos) *SyntaxError {
	rest := lx.src[lx.i:]
	for _, op := range ops3 {
		if len(rest) >= 3 && string(rest[:3]) == op {
			lx.i += 3
			return nil
		}
	}
	for _, op := range ops2 {
		if len(rest) >= 2 && string(rest[:2]) == op {
			lx.i += 2
			return nil
		}
	}
	c := rest[0]
	for j := 0; j < len(ops1); j++ {
		if ops1[j] != c {
			continue
		}
		lx.i++
		switch c {
		case '(', '[', '{':
			if len(lx.brackets) >= maxBrackets {
				return lx.errAt(p, "too many nested parentheses")
			}
			lx.brackets = append(lx.brackets, bracket{c, p})
		case ')', ']', '}':
			if len(lx.brackets) == 0 {
				return lx.errAt(p, "unmatched '%c'", c)
			}
			open := lx.brackets[len(lx.brackets)-1]
			if open.c != map[byte]byte{')': '(', ']': '[', '}': '{'}[c] {
				return lx.errAt(p, "closing parenthesis '%c' does not match opening parenthesis '%c'", c, open.c)
			}
			lx.brackets = lx.brackets[:len(lx.brackets)-1]
		}
		return nil
	}
	if c < 0x80 {
		if c < ' ' || c == 0x7f {
			return lx.errAt(p, "invalid non-printable character U+%04X", c)
		}
		return lx.errAt(p, "invalid syntax")
	}
	r, _ := utf8.DecodeRune(rest)
	return lx.errAt(p, "invalid character '%c' (U+%04X)", r, r)
}

// ident returns the identifier a NAME token stands for: CPython normalizes
// non-ASCII identifiers to NFKC, so that ﬁle and file, or µ and μ, are one
// name. Keywords are recognized before, on the text as written.
func ident(text string) string {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return norm.NFKC.String(text)
		}
	}
	return text
}
