package python

import "strings"

// startsExpr reports whether the current token can start an expression.
func (p *parser) startsExpr() bool {
	t := p.tok()
	switch t.kind {
	case tNumber, tString:
		return true
	case tName:
		switch t.text {
		case "None", "True", "False", "lambda", "not", "await":
			return true
		}
		return !keywords[t.text]
	case tOp:
		switch t.text {
		case "(", "[", "{", "-", "+", "~", "*", "...":
			return true
		}
	}
	return false
}

// starExpressions: star_expression (',' star_expression)* [','], a Tuple
// when there is a comma.
func (p *parser) starExpressions() Expr {
	start := p.tok().pos
	e := p.starExpression()
	if !p.isOp(",") {
		return e
	}
	elts := []Expr{e}
	for p.isOp(",") {
		p.advance()
		if !p.startsExpr() {
			break
		}
		elts = append(elts, p.starExpression())
	}
	return &Tuple{At: At{start}, Elts: elts}
}

func (p *parser) starExpression() Expr {
	if t := p.tok(); t.kind == tOp && t.text == "*" {
		p.advance()
		return &Starred{At: At{t.pos}, Value: p.bitwiseOr()}
	}
	return p.expression()
}

func (p *parser) starNamedExpression() Expr {
	if t := p.tok(); t.kind == tOp && t.text == "*" {
		p.advance()
		return &Starred{At: At{t.pos}, Value: p.bitwiseOr()}
	}
	return p.namedExpression()
}

// namedExpression: NAME ':=' expression | expression.
func (p *parser) namedExpression() Expr {
	t := p.tok()
	if t.kind == tName && !keywords[t.text] {
		if n := p.peek(1); n.kind == tOp && n.text == ":=" {
			p.advance()
			p.advance()
			return &NamedExpr{At: At{t.pos}, Target: &Name{At: At{t.pos}, ID: ident(t.text)}, Value: p.expression()}
		}
	}
	e := p.expression()
	if p.isOp(":=") {
		p.failAt(e.Position(), "cannot use assignment expressions with %s", describe(e))
	}
	return e
}

func (p *parser) yieldExpr() Expr {
	t := p.advance()
	y := &Yield{At: At{t.pos}}
	if p.isKw("from") {
		p.advance()
		y.From = true
		y.Value = p.expression()
		return y
	}
	if p.startsExpr() {
		y.Value = p.starExpressions()
	}
	return y
}

// expression: disjunction ['if' disjunction 'else' expression] | lambdef.
func (p *parser) expression() Expr {
	p.enter()
	defer p.leave()
	start := p.tok()
	if p.isKw("lambda") {
		p.advance()
		l := &Lambda{At: At{start.pos}}
		l.Args = p.params(":", false)
		p.expectOp(":")
		l.Body = p.expression()
		return l
	}
	e := p.disjunction()
	if !p.isKw("if") {
		return e
	}
	p.advance()
	test := p.disjunction()
	if !p.isKw("else") {
		p.failAt(start.pos, "expected 'else' after 'if' expression")
	}
	p.advance()
	return &IfExp{At: At{start.pos}, Test: test, Body: e, OrElse: p.expression()}
}

func (p *parser) disjunction() Expr { return p.boolOp("or", p.conjunction) }

func (p *parser) conjunction() Expr { return p.boolOp("and", p.inversion) }

func (p *parser) boolOp(op string, next func() Expr) Expr {
	start := p.tok().pos
	e := next()
	if !p.isKw(op) {
		return e
	}
	values := []Expr{e}
	for p.isKw(op) {
		p.advance()
		values = append(values, next())
	}
	return &BoolOp{At: At{start}, Op: op, Values: values}
}

func (p *parser) inversion() Expr {
	if t := p.tok(); p.isKw("not") {
		p.enter()
		defer p.leave()
		p.advance()
		return &UnaryOp{At: At{t.pos}, Op: "not", Operand: p.inversion()}
	}
	return p.comparison()
}

func (p *parser) compOp() string {
	t := p.tok()
	switch {
	case t.kind == tOp:
		switch t.text {
		case "==", "!=", "<", "<=", ">", ">=":
			p.advance()
			return t.text
		}
	case t.kind == tName && t.text == "in":
		p.advance()
		return "in"
	case t.kind == tName && t.text == "not":
		if n := p.peek(1); n.kind == tName && n.text == "in" {
			p.advance()
			p.advance()
			return "not in"
		}
	case t.kind == tName && t.text == "is":
		p.advance()
		if p.isKw("not") {
			p.advance()
			return "is not"
		}
		return "is"
	}
	return ""
}

func (p *parser) comparison() Expr {
	start := p.tok().pos
	e := p.bitwiseOr()
	var c *Compare
	for {
		op := p.compOp()
		if op == "" {
			break
		}
		if c == nil {
			c = &Compare{At: At{start}, Left: e}
		}
		c.Ops = append(c.Ops, op)
		c.Comparators = append(c.Comparators, p.bitwiseOr())
	}
	if c == nil {
		return e
	}
	return c
}

// binary operators by precedence, loosest first; factor comes after the last.
var binLevels = [...][]string{
	{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"},
}

func (p *parser) bitwiseOr() Expr { return p.binary(0) }

func (p *parser) binary(level int) Expr {
	if level == len(binLevels) {
		return p.factor()
	}
	start := p.tok().pos
	e := p.binary(level + 1)
	for {
		t := p.tok()
		if t.kind != tOp || !contains(binLevels[level], t.text) {
			return e
		}
		p.advance()
		e = &BinOp{At: At{start}, Op: t.text, Left: e, Right: p.binary(level + 1)}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) factor() Expr {
	t := p.tok()
	if t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "~") {
		p.enter()
		defer p.leave()
		p.advance()
		return &UnaryOp{At: At{t.pos}, Op: t.text, Operand: p.factor()}
	}
	start := t.pos
	var e Expr
	if p.isKw("await") {
		p.advance()
		e = &Await{At: At{start}, Value: p.primary()}
	} else {
		e = p.primary()
	}
	if p.isOp("**") {
		p.advance()
		e = &BinOp{At: At{start}, Op: "**", Left: e, Right: p.factor()}
	}
	return e
}

// primary: atom followed by attributes, calls and subscripts.
func (p *parser) primary() Expr {
	start := p.tok().pos
	e := p.atom()
	for {
		t := p.tok()
		if t.kind != tOp {
			return e
		}
		switch t.text {
		case ".":
			p.advance()
			n, _ := p.name()
			e = &Attribute{At: At{start}, Value: e, Attr: n}
		case "(":
			p.advance()
			c := &Call{At: At{start}, Func: e}
			c.Args, c.Keywords = p.callArgs(t.pos, true)
			e = c
		case "[":
			p.advance()
			e = &Subscript{At: At{start}, Value: e, Index: p.slices()}
			p.expectOp("]")
		default:
			return e
		}
	}
}

// callArgs reads arguments after '(' (at open) through ')'. A generator
// expression is accepted as the sole argument when genOK.
func (p *parser) callArgs(open Pos, genOK bool) (args []Expr, kws []*Keyword) {
	seenKw, seenDstar := false, false
	for !p.isOp(")") {
		t := p.tok()
		switch {
		case t.kind == tOp && t.text == "*":
			p.advance()
			v := p.expression()
			if seenDstar {
				p.failAt(t.pos, "iterable argument unpacking follows keyword argument unpacking")
			}
			args = append(args, &Starred{At: At{t.pos}, Value: v})
		case t.kind == tOp && t.text == "**":
			p.advance()
			kws = append(kws, &Keyword{At: At{t.pos}, Value: p.expression()})
			seenDstar = true
		case t.kind == tName && p.peek(1).kind == tOp && p.peek(1).text == "=":
			switch t.text {
			case "True", "False", "None":
				p.fail("cannot assign to %s", t.text)
			}
			n, _ := p.name()
			p.advance()
			kws = append(kws, &Keyword{At: At{t.pos}, Name: n, Value: p.expression()})
			seenKw = true
		default:
			e := p.namedExpression()
			if p.isKw("for") || p.isKw("async") {
				if !genOK {
					p.fail("invalid syntax")
				}
				g := p.comprehension(GeneratorExp, e, nil, open)
				if len(args) > 0 || len(kws) > 0 || !p.isOp(")") {
					p.failAt(e.Position(), "Generator expression must be parenthesized")
				}
				args = append(args, g)
				continue
			}
			if p.isOp("=") {
				p.failAt(e.Position(), "expression cannot contain assignment, perhaps you meant \"==\"?")
			}
			if seenDstar {
				p.failAt(e.Position(), "positional argument follows keyword argument unpacking")
			}
			if seenKw {
				p.failAt(e.Position(), "positional argument follows keyword argument")
			}
			args = append(args, e)
		}
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	p.expectOp(")")
	return args, kws
}

// slices reads the inside of a subscript: a slice or an expression, or
// several of them (and starred expressions) as a Tuple.
func (p *parser) slices() Expr {
	start := p.tok().pos
	first := p.slice()
	if !p.isOp(",") {
		if _, ok := first.(*Starred); ok {
			return &Tuple{At: At{start}, Elts: []Expr{first}}
		}
		return first
	}
	elts := []Expr{first}
	for p.isOp(",") {
		p.advance()
		if p.isOp("]") {
			break
		}
		elts = append(elts, p.slice())
	}
	return &Tuple{At: At{start}, Elts: elts}
}

func (p *parser) slice() Expr {
	t := p.tok()
	if t.kind == tOp && t.text == "*" {
		p.advance()
		return &Starred{At: At{t.pos}, Value: p.expression()}
	}
	var lower Expr
	if !p.isOp(":") {
		lower = p.namedExpression()
		if !p.isOp(":") {
			return lower
		}
	}
	s := &Slice{At: At{t.pos}, Lower: lower}
	p.advance()
	if !p.isOp(":") && !p.isOp(",") && !p.isOp("]") {
		s.Upper = p.expression()
	}
	if p.isOp(":") {
		p.advance()
		if !p.isOp(",") && !p.isOp("]") {
			s.Step = p.expression()
		}
	}
	return s
}

func (p *parser) atom() Expr {
	t := p.tok()
	at := At{t.pos}
	switch t.kind {
	case tName:
		switch t.text {
		case "True":
			p.advance()
			return &Constant{At: at, Kind: True, Value: t.text}
		case "False":
			p.advance()
			return &Constant{At: at, Kind: False, Value: t.text}
		case "None":
			p.advance()
			return &Constant{At: at, Kind: None, Value: t.text}
		}
		if keywords[t.text] {
			p.fail("invalid syntax")
		}
		p.advance()
		return &Name{At: at, ID: ident(t.text)}
	case tNumber:
		p.advance()
		kind := Int
		low := strings.ToLower(t.text)
		switch {
		case strings.HasSuffix(low, "j"):
			kind = Imag
		case strings.HasPrefix(low, "0x") || strings.HasPrefix(low, "0o") || strings.HasPrefix(low, "0b"):
		case strings.ContainsAny(low, ".e"):
			kind = Float
		}
		return &Constant{At: at, Kind: kind, Value: t.text}
	case tString:
		return p.strings()
	case tOp:
		switch t.text {
		case "...":
			p.advance()
			return &Constant{At: at, Kind: Ellipsis, Value: "..."}
		case "(":
			return p.parenthesized()
		case "[":
			return p.listDisplay()
		case "{":
			return p.braceDisplay()
		}
	}
	p.fail("invalid syntax")
	return nil
}

func (p *parser) isCompFor() bool {
	return p.isKw("for") || p.isKw("async") && p.peek(1).kind == tName && p.peek(1).text == "for"
}

// comprehension reads the for and if clauses after elt (and value, for a
// dict) and builds the comprehension at pos.
func (p *parser) comprehension(kind CompKind, elt, value Expr, pos Pos) Expr {
	if _, ok := elt.(*Starred); ok {
		p.failAt(elt.Position(), "iterable unpacking cannot be used in comprehension")
	}
	c := &Comp{At: At{pos}, Kind: kind, Elt: elt, Value: value}
	for p.isCompFor() {
		g := &Comprehension{}
		if p.isKw("async") {
			p.advance()
			g.Async = true
		}
		p.expectKw("for")
		g.Target = p.targets()
		p.expectKw("in")
		g.Iter = p.disjunction()
		for p.isKw("if") {
			p.advance()
			g.Ifs = append(g.Ifs, p.disjunction())
		}
		c.Generators = append(c.Generators, g)
	}
	if len(c.Generators) == 0 {
		p.fail("invalid syntax")
	}
	return c
}

func (p *parser) parenthesized() Expr {
	open := p.advance()
	if p.isOp(")") {
		p.advance()
		return &Tuple{At: At{open.pos}}
	}
	if p.isKw("yield") {
		y := p.yieldExpr()
		p.expectOp(")")
		return y
	}
	first := p.starNamedExpression()
	if p.isCompFor() {
		g := p.comprehension(GeneratorExp, first, nil, open.pos)
		p.expectOp(")")
		return g
	}
	if p.isOp(")") {
		p.advance()
		if _, ok := first.(*Starred); ok {
			p.failAt(first.Position(), "cannot use starred expression here")
		}
		return first
	}
	elts := []Expr{first}
	for p.isOp(",") {
		p.advance()
		if p.isOp(")") {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	p.expectOp(")")
	return &Tuple{At: At{open.pos}, Elts: elts}
}

func (p *parser) listDisplay() Expr {
	open := p.advance()
	l := &List{At: At{open.pos}}
	if p.isOp("]") {
		p.advance()
		return l
	}
	first := p.starNamedExpression()
	if p.isCompFor() {
		c := p.comprehension(ListComp, first, nil, open.pos)
		p.expectOp("]")
		return c
	}
	l.Elts = append(l.Elts, first)
	for p.isOp(",") {
		p.advance()
		if p.isOp("]") {
			break
		}
		l.Elts = append(l.Elts, p.starNamedExpression())
	}
	p.expectOp("]")
	return l
}

func (p *parser) braceDisplay() Expr {
	open := p.advance()
	at := At{open.pos}
	if p.isOp("}") {
		p.advance()
		return &Dict{At: at}
	}
	if p.isOp("**") {
		p.advance()
		return p.dictRest(&Dict{At: at, Keys: []Expr{nil}, Values: []Expr{p.bitwiseOr()}})
	}
	t := p.tok()
	walrus := t.kind == tName && p.peek(1).kind == tOp && p.peek(1).text == ":=" // unparenthesized
	first := p.starNamedExpression()
	if p.isOp(":") {
		if _, starred := first.(*Starred); starred || walrus {
			p.failAt(first.Position(), "invalid syntax")
		}
		p.advance()
		value := p.expression()
		if p.isCompFor() {
			c := p.comprehension(DictComp, first, value, open.pos)
			p.expectOp("}")
			return c
		}
		return p.dictRest(&Dict{At: at, Keys: []Expr{first}, Values: []Expr{value}})
	}
	if p.isCompFor() {
		c := p.comprehension(SetComp, first, nil, open.pos)
		p.expectOp("}")
		return c
	}
	s := &Set{At: at, Elts: []Expr{first}}
	for p.isOp(",") {
		p.advance()
		if p.isOp("}") {
			break
		}
		s.Elts = append(s.Elts, p.starNamedExpression())
	}
	p.expectOp("}")
	return s
}

// dictRest reads the items of a dict display after its first.
func (p *parser) dictRest(d *Dict) Expr {
	for p.isOp(",") {
		p.advance()
		if p.isOp("}") {
			break
		}
		if p.isOp("**") {
			p.advance()
			d.Keys = append(d.Keys, nil)
			d.Values = append(d.Values, p.bitwiseOr())
			continue
		}
		k := p.expression()
		p.expectOp(":")
		d.Keys = append(d.Keys, k)
		d.Values = append(d.Values, p.expression())
	}
	p.expectOp("}")
	return d
}
