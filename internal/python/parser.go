package python

import (
	"bytes"
	"fmt"
)

// SyntaxError is the error Parse returns for a source that is not Python 3.11.
type SyntaxError struct {
	Pos Pos    // where the error was found; Col is 0-based, in bytes
	Msg string // what is wrong, in CPython's words where they are known
}

// Error renders the error as "python: line L, column C: msg" with a 1-based column.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("python: line %d, column %d: %s", e.Pos.Line, e.Pos.Col+1, e.Msg)
}

// maxDepth bounds the parser's recursion, as CPython's own limits do: an
// expression nested deeper (thousands of unary operators, nested lambdas or
// conditional expressions) is refused as too complex rather than exhausting
// the stack. Brackets are bounded sooner, at 200, by the tokenizer, and
// blocks at 100 levels of indentation.
const maxDepth = 3000

// keywords are Python 3.11's hard keywords: they are never names.
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true,
	"def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true,
	"not": true, "or": true, "pass": true, "raise": true, "return": true,
	"try": true, "while": true, "with": true, "yield": true,
}

// Parse parses a Python 3.11 module. src is UTF-8; a leading byte order mark
// is skipped and "\r\n" and "\r" end lines as "\n" does. On failure it returns
// a nil module and a *SyntaxError.
func Parse(src []byte) (*Module, error) {
	src = normalize(src)
	toks, comments, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	var mod *Module
	if !p.run(func() { mod = &Module{Body: p.file(), Comments: comments} }) {
		return nil, p.err
	}
	return mod, nil
}

// Position returns line 1, column 0: a module starts there.
func (*Module) Position() Pos { return Pos{Line: 1} }

// normalize drops a UTF-8 byte order mark and turns "\r\n" and "\r" into "\n",
// as CPython does when it reads a file; line and column numbers are unchanged.
func normalize(src []byte) []byte {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(src, '\r') < 0 {
		return src
	}
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		if src[i] == '\r' {
			out = append(out, '\n')
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			continue
		}
		out = append(out, src[i])
	}
	return out
}

type parser struct {
	toks     []token
	p        int
	depth    int
	err      *SyntaxError
	captures []*Name // the names bound by the patterns of the case being read
}

// bailout unwinds the parser on the first error; run and try recover it.
type bailout struct{}

func (p *parser) failAt(pos Pos, format string, args ...any) {
	p.err = &SyntaxError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	panic(bailout{})
}

func (p *parser) fail(format string, args ...any) { p.failAt(p.tok().pos, format, args...) }

// run calls f and reports whether it finished without a syntax error. Any
// other panic is a bug and goes on.
func (p *parser) run(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBailout := r.(bailout); !isBailout {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// try calls f; on a syntax error it rewinds to where it was, forgets the
// error and returns false (the grammar's ordered choice).
func (p *parser) try(f func()) bool {
	save, depth := p.p, p.depth
	if p.run(f) {
		return true
	}
	p.p, p.depth, p.err = save, depth, nil
	return false
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("too complex: nested more than %d levels", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) tok() token { return p.toks[p.p] }

func (p *parser) peek(n int) token {
	if p.p+n < len(p.toks) {
		return p.toks[p.p+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) advance() token {
	t := p.toks[p.p]
	if t.kind != tEnd {
		p.p++
	}
	return t
}

func (p *parser) isOp(s string) bool { t := p.tok(); return t.kind == tOp && t.text == s }

func (p *parser) isKw(s string) bool { t := p.tok(); return t.kind == tName && t.text == s }

func (p *parser) expectOp(s string) token {
	if !p.isOp(s) {
		p.fail("expected '%s'", s)
	}
	return p.advance()
}

func (p *parser) expectKw(s string) {
	if !p.isKw(s) {
		p.fail("expected '%s'", s)
	}
	p.advance()
}

func (p *parser) expectKind(k tokKind, what string) token {
	if p.tok().kind != k {
		p.fail("expected %s", what)
	}
	return p.advance()
}

// name reads an identifier that is not a keyword.
func (p *parser) name() (string, Pos) {
	t := p.tok()
	if t.kind != tName || keywords[t.text] {
		p.fail("invalid syntax")
	}
	p.advance()
	return ident(t.text), t.pos
}

func (p *parser) file() []Stmt {
	var body []Stmt
	for p.tok().kind != tEnd {
		body = append(body, p.statement()...)
	}
	return body
}

func (p *parser) statement() []Stmt {
	t := p.tok()
	switch t.kind {
	case tIndent:
		p.fail("unexpected indent")
	case tDedent:
		p.fail("unindent does not match any outer indentation level")
	case tName:
		switch t.text {
		case "def":
			return []Stmt{p.funcDef(t.pos, nil, false)}
		case "class":
			return []Stmt{p.classDef(t.pos, nil)}
		case "if":
			return []Stmt{p.ifStmt()}
		case "while":
			return []Stmt{p.whileStmt()}
		case "for":
			return []Stmt{p.forStmt(t.pos, false)}
		case "with":
			return []Stmt{p.withStmt(t.pos, false)}
		case "try":
			return []Stmt{p.tryStmt()}
		case "async":
			p.advance()
			switch {
			case p.isKw("def"):
				return []Stmt{p.funcDef(t.pos, nil, true)}
			case p.isKw("for"):
				return []Stmt{p.forStmt(t.pos, true)}
			case p.isKw("with"):
				return []Stmt{p.withStmt(t.pos, true)}
			}
			p.fail("invalid syntax")
		case "match":
			if s := p.matchStmt(); s != nil {
				return []Stmt{s}
			}
		}
	case tOp:
		if t.text == "@" {
			return []Stmt{p.decorated()}
		}
	}
	return p.simpleStmts()
}

// block reads ':' and then either simple statements on the same line or an
// indented block.
func (p *parser) block(what string) []Stmt {
	p.expectOp(":")
	if p.tok().kind != tNewline {
		return p.simpleStmts()
	}
	nl := p.advance()
	if p.tok().kind != tIndent {
		p.fail("expected an indented block after %s on line %d", what, nl.pos.Line)
	}
	p.advance()
	p.enter()
	defer p.leave()
	var body []Stmt
	for p.tok().kind != tDedent && p.tok().kind != tEnd {
		body = append(body, p.statement()...)
	}
	p.expectKind(tDedent, "a dedent")
	return body
}

func (p *parser) simpleStmts() []Stmt {
	var out []Stmt
	for {
		out = append(out, p.simpleStmt())
		if !p.isOp(";") {
			break
		}
		p.advance()
		if p.tok().kind == tNewline {
			break
		}
	}
	if p.tok().kind != tNewline {
		p.fail("invalid syntax")
	}
	p.advance()
	return out
}

func (p *parser) atStmtEnd() bool {
	t := p.tok()
	return t.kind == tNewline || t.kind == tEnd || t.kind == tOp && t.text == ";"
}

func (p *parser) simpleStmt() Stmt {
	t := p.tok()
	at := At{t.pos}
	if t.kind == tName {
		switch t.text {
		case "pass", "break", "continue":
			p.advance()
			return &Simple{At: at, Keyword: t.text}
		case "return":
			p.advance()
			s := &Return{At: at}
			if !p.atStmtEnd() {
				s.Value = p.starExpressions()
			}
			return s
		case "import":
			return p.importStmt()
		case "from":
			return p.fromImport()
		case "raise":
			p.advance()
			s := &Raise{At: at}
			if !p.atStmtEnd() {
				s.Exc = p.expression()
				if p.isKw("from") {
					p.advance()
					s.Cause = p.expression()
				}
			}
			return s
		case "global", "nonlocal":
			p.advance()
			s := &Global{At: at, Nonlocal: t.text == "nonlocal"}
			for {
				n, _ := p.name()
				s.Names = append(s.Names, n)
				if !p.isOp(",") {
					return s
				}
				p.advance()
			}
		case "del":
			p.advance()
			s := &Delete{At: at, Targets: p.targetList(false)}
			for _, e := range s.Targets {
				p.checkDelete(e)
			}
			if !p.atStmtEnd() {
				p.fail("invalid syntax")
			}
			return s
		case "assert":
			p.advance()
			s := &Assert{At: at, Test: p.expression()}
			if p.isOp(",") {
				p.advance()
				s.Msg = p.expression()
			}
			return s
		}
	}
	return p.exprOrAssign()
}

var augOps = map[string]bool{"+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true,
	"**=": true, "@=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

func (p *parser) starExpressionsOrYield() Expr {
	if p.isKw("yield") {
		return p.yieldExpr()
	}
	return p.starExpressions()
}

func (p *parser) exprOrAssign() Stmt {
	first := p.tok()
	at := At{first.pos}
	e := p.starExpressionsOrYield()
	t := p.tok()
	switch {
	case t.kind == tOp && t.text == ":":
		s := &AnnAssign{At: at, Target: e}
		switch e := e.(type) {
		case *Name:
			s.Simple = !(first.kind == tOp && first.text == "(")
		case *Attribute, *Subscript:
		case *Tuple:
			p.failAt(e.Pos, "only single target (not tuple) can be annotated")
		default:
			p.failAt(e.Position(), "illegal target for annotation")
		}
		p.advance()
		s.Annotation = p.expression()
		if p.isOp("=") {
			p.advance()
			s.Value = p.starExpressionsOrYield()
		}
		return s
	case t.kind == tOp && augOps[t.text]:
		switch e.(type) {
		case *Name, *Attribute, *Subscript:
		default:
			p.failAt(e.Position(), "illegal expression for augmented assignment")
		}
		p.advance()
		return &AugAssign{At: at, Target: e, Op: t.text[:len(t.text)-1], Value: p.starExpressionsOrYield()}
	case t.kind == tOp && t.text == "=":
		targets := []Expr{e}
		for p.isOp("=") {
			p.advance()
			targets = append(targets, p.starExpressionsOrYield())
		}
		value := targets[len(targets)-1]
		targets = targets[:len(targets)-1]
		for _, tg := range targets {
			p.checkTarget(tg)
		}
		return &Assign{At: at, Targets: targets, Value: value}
	}
	return &ExprStmt{At: at, Value: e}
}

// checkTarget refuses what cannot be assigned to, as CPython's parser does.
func (p *parser) checkTarget(e Expr) {
	switch e := e.(type) {
	case *Name, *Attribute, *Subscript:
	case *Starred:
		p.checkTarget(e.Value)
	case *Tuple:
		for _, x := range e.Elts {
			p.checkTarget(x)
		}
	case *List:
		for _, x := range e.Elts {
			p.checkTarget(x)
		}
	default:
		p.failAt(e.Position(), "cannot assign to %s", describe(e))
	}
}

// checkDelete refuses what cannot be deleted.
func (p *parser) checkDelete(e Expr) {
	switch e := e.(type) {
	case *Name, *Attribute, *Subscript:
	case *Tuple:
		for _, x := range e.Elts {
			p.checkDelete(x)
		}
	case *List:
		for _, x := range e.Elts {
			p.checkDelete(x)
		}
	default:
		p.failAt(e.Position(), "cannot delete %s", describe(e))
	}
}

func describe(e Expr) string {
	switch e := e.(type) {
	case *Call:
		return "function call"
	case *Constant:
		switch e.Kind {
		case True:
			return "True"
		case False:
			return "False"
		case None:
			return "None"
		}
		return "literal"
	case *Starred:
		return "starred"
	case *Yield:
		return "yield expression"
	case *NamedExpr:
		return "named expression"
	case *Lambda:
		return "lambda"
	case *Comp:
		return "comprehension"
	}
	return "expression"
}

// targetList reads targets for for, del and comprehensions: primaries (and
// starred primaries when starOK), separated by commas, stopping before 'in'.
func (p *parser) targetList(starOK bool) []Expr {
	var out []Expr
	for {
		t := p.tok()
		var e Expr
		if starOK && t.kind == tOp && t.text == "*" {
			p.advance()
			e = &Starred{At: At{t.pos}, Value: p.primary()}
		} else {
			e = p.primary()
		}
		out = append(out, e)
		if !p.isOp(",") {
			return out
		}
		p.advance()
		if !p.startsExpr() {
			return out
		}
	}
}

// targets reads a target list for for and comprehensions and checks it; a
// comma makes a Tuple.
func (p *parser) targets() Expr {
	start := p.tok().pos
	hadComma := false
	list := p.targetList(true)
	if p.p > 0 {
		prev := p.toks[p.p-1]
		hadComma = prev.kind == tOp && prev.text == ","
	}
	var e Expr
	if len(list) == 1 && !hadComma {
		e = list[0]
	} else {
		e = &Tuple{At: At{start}, Elts: list}
	}
	p.checkTarget(e)
	return e
}

func (p *parser) dottedName() string {
	n, _ := p.name()
	for p.isOp(".") {
		p.advance()
		m, _ := p.name()
		n += "." + m
	}
	return n
}

func (p *parser) importStmt() Stmt {
	s := &Import{At: At{p.advance().pos}}
	for {
		a := &Alias{At: At{p.tok().pos}}
		a.Name = p.dottedName()
		if p.isKw("as") {
			p.advance()
			a.AsName, _ = p.name()
		}
		s.Names = append(s.Names, a)
		if !p.isOp(",") {
			return s
		}
		p.advance()
	}
}

func (p *parser) fromImport() Stmt {
	s := &ImportFrom{At: At{p.advance().pos}}
	for p.isOp(".") || p.isOp("...") {
		s.Level += len(p.advance().text)
	}
	if !p.isKw("import") {
		s.Module = p.dottedName()
	}
	p.expectKw("import")
	if p.isOp("*") {
		s.Names = []*Alias{{At: At{p.advance().pos}, Name: "*"}}
		return s
	}
	paren := p.isOp("(")
	if paren {
		p.advance()
	}
	for {
		a := &Alias{At: At{p.tok().pos}}
		a.Name, _ = p.name()
		if p.isKw("as") {
			p.advance()
			a.AsName, _ = p.name()
		}
		s.Names = append(s.Names, a)
		if !p.isOp(",") {
			break
		}
		comma := p.advance()
		if paren && p.isOp(")") {
			break
		}
		if !paren && p.atStmtEnd() {
			p.failAt(comma.pos, "trailing comma not allowed without surrounding parentheses")
		}
	}
	if paren {
		p.expectOp(")")
	}
	return s
}

func (p *parser) decorated() Stmt {
	var decs []Expr
	for p.isOp("@") {
		p.advance()
		decs = append(decs, p.namedExpression())
		p.expectKind(tNewline, "a newline after a decorator")
	}
	t := p.tok()
	switch {
	case p.isKw("def"):
		return p.funcDef(t.pos, decs, false)
	case p.isKw("class"):
		return p.classDef(t.pos, decs)
	case p.isKw("async") && p.peek(1).kind == tName && p.peek(1).text == "def":
		p.advance()
		return p.funcDef(t.pos, decs, true)
	}
	p.fail("invalid syntax")
	return nil
}

func (p *parser) funcDef(pos Pos, decs []Expr, async bool) Stmt {
	p.expectKw("def")
	s := &FunctionDef{At: At{pos}, Decorators: decs, Async: async}
	s.Name, _ = p.name()
	p.expectOp("(")
	s.Args = p.params(")", true)
	p.expectOp(")")
	if p.isOp("->") {
		p.advance()
		s.Returns = p.expression()
	}
	s.Body = p.block("function definition")
	return s
}

func (p *parser) classDef(pos Pos, decs []Expr) Stmt {
	p.expectKw("class")
	s := &ClassDef{At: At{pos}, Decorators: decs}
	s.Name, _ = p.name()
	if p.isOp("(") {
		open := p.advance()
		s.Bases, s.Keywords = p.callArgs(open.pos, false)
	}
	s.Body = p.block("class definition")
	return s
}

// params reads the parameters of a def (annotations allowed) or a lambda,
// up to closer, which is left unread.
func (p *parser) params(closer string, annotations bool) *Arguments {
	a := &Arguments{}
	seenDefault, star, slash := false, false, false
	for !p.isOp(closer) {
		t := p.tok()
		switch {
		case t.kind == tOp && t.text == "/":
			if slash {
				p.fail("/ may appear only once")
			}
			if star {
				p.fail("/ must be ahead of *")
			}
			if len(a.Args) == 0 {
				p.fail("at least one argument must precede /")
			}
			p.advance()
			a.PosOnly, a.Args, slash = a.Args, nil, true
		case t.kind == tOp && t.text == "*":
			if star {
				p.fail("* argument may appear only once")
			}
			p.advance()
			star = true
			if !p.isOp(",") && !p.isOp(closer) {
				a.Vararg = p.param(annotations, true)
				if p.isOp("=") {
					p.fail("var-positional argument cannot have default value")
				}
			}
		case t.kind == tOp && t.text == "**":
			p.advance()
			a.Kwarg = p.param(annotations, false)
			if p.isOp("=") {
				p.fail("var-keyword argument cannot have default value")
			}
			if p.isOp(",") {
				p.advance()
			}
			if !p.isOp(closer) {
				p.fail("arguments cannot follow var-keyword argument")
			}
			continue
		default:
			arg := p.param(annotations, false)
			var def Expr
			if p.isOp("=") {
				p.advance()
				def = p.expression()
			}
			if star {
				a.KwOnly = append(a.KwOnly, arg)
				a.KwDefaults = append(a.KwDefaults, def)
			} else {
				if def != nil {
					a.Defaults = append(a.Defaults, def)
					seenDefault = true
				} else if seenDefault {
					p.failAt(arg.Pos, "non-default argument follows default argument")
				}
				a.Args = append(a.Args, arg)
			}
		}
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	if star && a.Vararg == nil && len(a.KwOnly) == 0 {
		p.fail("named arguments must follow bare *")
	}
	return a
}

func (p *parser) param(annotations, starAnnotation bool) *Arg {
	t := p.tok()
	if t.kind == tOp && t.text == "(" && !annotations {
		p.fail("Lambda expression parameters cannot be parenthesized")
	}
	n, pos := p.name()
	arg := &Arg{At: At{pos}, Name: n}
	if annotations && p.isOp(":") {
		p.advance()
		if starAnnotation && p.isOp("*") {
			s := p.advance()
			arg.Annotation = &Starred{At: At{s.pos}, Value: p.expression()}
		} else {
			arg.Annotation = p.expression()
		}
	}
	return arg
}

func (p *parser) ifStmt() Stmt {
	s := &If{At: At{p.advance().pos}}
	s.Test = p.namedExpression()
	s.Body = p.block("'if' statement")
	switch {
	case p.isKw("elif"):
		s.OrElse = []Stmt{p.ifStmt()}
	case p.isKw("else"):
		p.advance()
		s.OrElse = p.block("'else' statement")
	}
	return s
}

func (p *parser) whileStmt() Stmt {
	s := &While{At: At{p.advance().pos}}
	s.Test = p.namedExpression()
	s.Body = p.block("'while' statement")
	if p.isKw("else") {
		p.advance()
		s.OrElse = p.block("'else' statement")
	}
	return s
}

func (p *parser) forStmt(pos Pos, async bool) Stmt {
	p.expectKw("for")
	s := &For{At: At{pos}, Async: async}
	s.Target = p.targets()
	p.expectKw("in")
	s.Iter = p.starExpressions()
	s.Body = p.block("'for' statement")
	if p.isKw("else") {
		p.advance()
		s.OrElse = p.block("'else' statement")
	}
	return s
}

func (p *parser) withStmt(pos Pos, async bool) Stmt {
	p.expectKw("with")
	s := &With{At: At{pos}, Async: async}
	if p.isOp("(") && p.try(func() {
		p.advance()
		for {
			s.Items = append(s.Items, p.withItem())
			if !p.isOp(",") {
				break
			}
			p.advance()
			if p.isOp(")") {
				break
			}
		}
		p.expectOp(")")
		if !p.isOp(":") {
			p.fail("expected ':'")
		}
	}) {
		s.Body = p.block("'with' statement")
		return s
	}
	s.Items = nil
	for {
		s.Items = append(s.Items, p.withItem())
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	s.Body = p.block("'with' statement")
	return s
}

func (p *parser) withItem() *WithItem {
	it := &WithItem{Context: p.expression()}
	if p.isKw("as") {
		p.advance()
		t := p.tok()
		if t.kind == tOp && t.text == "*" {
			p.advance()
			it.Vars = &Starred{At: At{t.pos}, Value: p.primary()}
		} else {
			it.Vars = p.primary()
		}
		p.checkTarget(it.Vars)
		if !p.isOp(",") && !p.isOp(")") && !p.isOp(":") {
			p.fail("invalid syntax")
		}
	}
	return it
}

func (p *parser) tryStmt() Stmt {
	s := &Try{At: At{p.advance().pos}}
	s.Body = p.block("'try' statement")
	for p.isKw("except") {
		h := &ExceptHandler{At: At{p.advance().pos}}
		star := false
		if p.isOp("*") {
			p.advance()
			star = true
		}
		if len(s.Handlers) > 0 && star != s.Star {
			p.failAt(h.Pos, "cannot have both 'except' and 'except*' on the same 'try'")
		}
		s.Star = star
		if !p.isOp(":") {
			h.Type = p.expression()
			if p.isOp(",") {
				p.failAt(h.Type.Position(), "multiple exception types must be parenthesized")
			}
			if p.isKw("as") {
				p.advance()
				h.Name, _ = p.name()
			}
		} else if star {
			p.fail("expected one or more exception types")
		}
		h.Body = p.block("'except' statement")
		s.Handlers = append(s.Handlers, h)
	}
	if len(s.Handlers) > 0 && p.isKw("else") {
		p.advance()
		s.OrElse = p.block("'else' statement")
	}
	if p.isKw("finally") {
		p.advance()
		s.Finalbody = p.block("'finally' statement")
	}
	if len(s.Handlers) == 0 && s.Finalbody == nil {
		p.fail("expected 'except' or 'finally' block")
	}
	return s
}
