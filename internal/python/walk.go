package python

// Walk calls f for n and, when f returns true, for each node under n, depth
// first and in source order. Nil nodes are skipped. Keywords, parameters,
// aliases, except handlers and match cases are visited as nodes too.
func Walk(n Node, f func(Node) bool) {
	w := walker(f)
	w.node(n)
}

type walker func(Node) bool

func (w walker) exprs(es []Expr) {
	for _, e := range es {
		w.node(e)
	}
}

func (w walker) stmts(ss []Stmt) {
	for _, s := range ss {
		w.node(s)
	}
}

func (w walker) args(a *Arguments) {
	if a == nil {
		return
	}
	// Defaults are evaluated before the annotations in CPython's ast order;
	// the order here is the parameters', then the defaults'.
	for _, p := range a.PosOnly {
		w.node(p)
	}
	for _, p := range a.Args {
		w.node(p)
	}
	if a.Vararg != nil {
		w.node(a.Vararg)
	}
	for _, p := range a.KwOnly {
		w.node(p)
	}
	if a.Kwarg != nil {
		w.node(a.Kwarg)
	}
	w.exprs(a.Defaults)
	w.exprs(a.KwDefaults)
}

func (w walker) fvs(vs []*FormattedValue) {
	for _, v := range vs {
		w.node(v)
	}
}

func (w walker) node(n Node) {
	if isNil(n) || !w(n) {
		return
	}
	switch n := n.(type) {
	case *Module:
		w.stmts(n.Body)
	case *JoinedStr:
		w.fvs(n.Values)
	case *FormattedValue:
		w.node(n.Value)
		w.fvs(n.Spec)
	case *Attribute:
		w.node(n.Value)
	case *Subscript:
		w.node(n.Value)
		w.node(n.Index)
	case *Slice:
		w.node(n.Lower)
		w.node(n.Upper)
		w.node(n.Step)
	case *Call:
		w.node(n.Func)
		w.exprs(n.Args)
		for _, k := range n.Keywords {
			w.node(k)
		}
	case *Keyword:
		w.node(n.Value)
	case *Starred:
		w.node(n.Value)
	case *NamedExpr:
		w.node(n.Target)
		w.node(n.Value)
	case *BinOp:
		w.node(n.Left)
		w.node(n.Right)
	case *BoolOp:
		w.exprs(n.Values)
	case *UnaryOp:
		w.node(n.Operand)
	case *Compare:
		w.node(n.Left)
		w.exprs(n.Comparators)
	case *IfExp:
		w.node(n.Body)
		w.node(n.Test)
		w.node(n.OrElse)
	case *Lambda:
		w.args(n.Args)
		w.node(n.Body)
	case *List:
		w.exprs(n.Elts)
	case *Tuple:
		w.exprs(n.Elts)
	case *Set:
		w.exprs(n.Elts)
	case *Dict:
		for i := range n.Values {
			w.node(n.Keys[i])
			w.node(n.Values[i])
		}
	case *Comp:
		w.node(n.Elt)
		w.node(n.Value)
		for _, g := range n.Generators {
			w.node(g.Target)
			w.node(g.Iter)
			w.exprs(g.Ifs)
		}
	case *Await:
		w.node(n.Value)
	case *Yield:
		w.node(n.Value)
	case *Arg:
		w.node(n.Annotation)
	case *ExprStmt:
		w.node(n.Value)
	case *Assign:
		w.exprs(n.Targets)
		w.node(n.Value)
	case *AugAssign:
		w.node(n.Target)
		w.node(n.Value)
	case *AnnAssign:
		w.node(n.Target)
		w.node(n.Annotation)
		w.node(n.Value)
	case *Import:
		for _, a := range n.Names {
			w.node(a)
		}
	case *ImportFrom:
		for _, a := range n.Names {
			w.node(a)
		}
	case *FunctionDef:
		w.exprs(n.Decorators)
		w.args(n.Args)
		w.node(n.Returns)
		w.stmts(n.Body)
	case *ClassDef:
		w.exprs(n.Decorators)
		w.exprs(n.Bases)
		for _, k := range n.Keywords {
			w.node(k)
		}
		w.stmts(n.Body)
	case *If:
		w.node(n.Test)
		w.stmts(n.Body)
		w.stmts(n.OrElse)
	case *For:
		w.node(n.Target)
		w.node(n.Iter)
		w.stmts(n.Body)
		w.stmts(n.OrElse)
	case *While:
		w.node(n.Test)
		w.stmts(n.Body)
		w.stmts(n.OrElse)
	case *With:
		for _, it := range n.Items {
			w.node(it.Context)
			w.node(it.Vars)
		}
		w.stmts(n.Body)
	case *Try:
		w.stmts(n.Body)
		for _, h := range n.Handlers {
			w.node(h)
		}
		w.stmts(n.OrElse)
		w.stmts(n.Finalbody)
	case *ExceptHandler:
		w.node(n.Type)
		w.stmts(n.Body)
	case *Match:
		w.node(n.Subject)
		for _, c := range n.Cases {
			w.node(c)
		}
	case *MatchCase:
		for _, name := range n.Names {
			w.node(name)
		}
		w.node(n.Guard)
		w.stmts(n.Body)
	case *Return:
		w.node(n.Value)
	case *Delete:
		w.exprs(n.Targets)
	case *Raise:
		w.node(n.Exc)
		w.node(n.Cause)
	case *Assert:
		w.node(n.Test)
		w.node(n.Msg)
	}
}

// isNil reports whether n is nil or a typed nil pointer held in the interface.
func isNil(n Node) bool {
	if n == nil {
		return true
	}
	switch n := n.(type) {
	case Expr:
		return exprIsNil(n)
	case *Keyword:
		return n == nil
	case *Arg:
		return n == nil
	}
	return false
}

func exprIsNil(e Expr) bool {
	switch e := e.(type) {
	case *Name:
		return e == nil
	case *FormattedValue:
		return e == nil
	}
	return false
}
