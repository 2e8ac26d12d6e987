package python

// matchStmt reads a match statement, or returns nil when the soft keyword
// "match" starts an ordinary statement (match = 1, match(x)). As in CPython's
// grammar, it is a match statement when "match" subject ':' NEWLINE INDENT
// "case" follows.
func (p *parser) matchStmt() Stmt {
	start := p.tok()
	save := p.p
	if !p.try(func() {
		p.advance()
		p.subject()
		p.expectOp(":")
		p.expectKind(tNewline, "a newline")
		p.expectKind(tIndent, "an indented block")
		p.expectKw("case")
	}) {
		return nil
	}
	p.p = save
	p.advance()
	s := &Match{At: At{start.pos}, Subject: p.subject()}
	p.expectOp(":")
	p.expectKind(tNewline, "a newline")
	p.expectKind(tIndent, "an indented block")
	for p.isKw("case") {
		c := &MatchCase{At: At{p.advance().pos}}
		p.captures = nil
		p.patterns()
		c.Names, p.captures = p.captures, nil
		if p.isKw("if") {
			p.advance()
			c.Guard = p.namedExpression()
		}
		c.Body = p.block("'case' statement")
		s.Cases = append(s.Cases, c)
	}
	p.expectKind(tDedent, "'case'")
	return s
}

func (p *parser) subject() Expr {
	start := p.tok().pos
	first := p.starNamedExpression()
	if !p.isOp(",") {
		if _, ok := first.(*Starred); ok {
			p.fail("invalid syntax")
		}
		return first
	}
	elts := []Expr{first}
	for p.isOp(",") {
		p.advance()
		if p.isOp(":") {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	return &Tuple{At: At{start}, Elts: elts}
}

// patterns reads a case's patterns: one, or an open sequence separated by
// commas. Patterns hold no expressions that calls could hide in, so they are
// checked and dropped.
func (p *parser) patterns() {
	p.maybeStarPattern()
	for p.isOp(",") {
		p.advance()
		if p.isOp(":") || p.isKw("if") {
			return
		}
		p.maybeStarPattern()
	}
}

func (p *parser) maybeStarPattern() {
	if p.isOp("*") {
		p.advance()
		p.capture()
		return
	}
	p.pattern()
}

// pattern: or_pattern ['as' NAME].
func (p *parser) pattern() {
	p.enter()
	defer p.leave()
	p.closedPattern()
	for p.isOp("|") {
		p.advance()
		p.closedPattern()
	}
	if p.isKw("as") {
		p.advance()
		if p.isKw("_") {
			p.fail("cannot use '_' as a target")
		}
		p.capture()
	}
}

// signedNumber reads -?NUMBER, and a complex number's + or - NUMBER.
func (p *parser) signedNumber() {
	if p.isOp("-") {
		p.advance()
	}
	n := p.expectKind(tNumber, "a number")
	if p.isOp("+") || p.isOp("-") {
		if isImag(n.text) {
			p.fail("real number required in complex literal")
		}
		p.advance()
		if t := p.expectKind(tNumber, "a number"); !isImag(t.text) {
			p.failAt(t.pos, "imaginary number required in complex literal")
		}
	}
}

func (p *parser) literalPattern() bool {
	t := p.tok()
	switch {
	case t.kind == tNumber || t.kind == tOp && t.text == "-":
		p.signedNumber()
	case t.kind == tString:
		if j, ok := p.strings().(*JoinedStr); ok {
			p.failAt(j.Pos, "patterns may only match literals and attribute lookups")
		}
	case t.kind == tName && (t.text == "None" || t.text == "True" || t.text == "False"):
		p.advance()
	default:
		return false
	}
	return true
}

func (p *parser) closedPattern() {
	if p.literalPattern() {
		return
	}
	t := p.tok()
	switch {
	case t.kind == tName:
		n, pos := p.name()
		dotted := false
		for p.isOp(".") {
			p.advance()
			p.name()
			dotted = true
		}
		if p.isOp("(") {
			p.advance()
			p.classPatternArgs()
			return
		}
		if !dotted && n != "_" {
			p.captures = append(p.captures, &Name{At: At{pos}, ID: n})
		}
	case t.kind == tOp && t.text == "(":
		p.advance()
		if p.isOp(")") {
			p.advance()
			return
		}
		p.maybeStarPattern()
		for p.isOp(",") {
			p.advance()
			if p.isOp(")") {
				break
			}
			p.maybeStarPattern()
		}
		p.expectOp(")")
	case t.kind == tOp && t.text == "[":
		p.advance()
		for !p.isOp("]") {
			p.maybeStarPattern()
			if !p.isOp(",") {
				break
			}
			p.advance()
		}
		p.expectOp("]")
	case t.kind == tOp && t.text == "{":
		p.advance()
		for !p.isOp("}") {
			if p.isOp("**") {
				p.advance()
				p.capture()
			} else {
				if !p.literalPattern() {
					p.name()
					if !p.isOp(".") {
						p.fail("invalid syntax")
					}
					for p.isOp(".") {
						p.advance()
						p.name()
					}
				}
				p.expectOp(":")
				p.pattern()
			}
			if !p.isOp(",") {
				break
			}
			p.advance()
		}
		p.expectOp("}")
	default:
		p.fail("invalid syntax")
	}
}

// classPatternArgs reads positional patterns then keyword ones, to ')'.
func (p *parser) classPatternArgs() {
	seenKw := false
	for !p.isOp(")") {
		if t := p.tok(); t.kind == tName && p.peek(1).kind == tOp && p.peek(1).text == "=" {
			p.name()
			p.advance()
			p.pattern()
			seenKw = true
		} else {
			if seenKw {
				p.fail("positional patterns follow keyword patterns")
			}
			p.pattern()
		}
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	p.expectOp(")")
}

func isImag(number string) bool {
	return number != "" && number[len(number)-1]|0x20 == 'j'
}

// capture reads a name a pattern binds (after *, ** or as); _ binds nothing.
func (p *parser) capture() {
	n, pos := p.name()
	if n != "_" {
		p.captures = append(p.captures, &Name{At: At{pos}, ID: n})
	}
}
