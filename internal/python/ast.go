package python

// Pos is a position in the source, as CPython's ast gives it: Line is 1-based
// (lineno) and Col is the 0-based offset in bytes of UTF-8 from the start of
// the line (col_offset).
type Pos struct {
	Line, Col int
}

// Node is any node of the tree.
type Node interface {
	// Position is where the node starts, as CPython's lineno and col_offset.
	Position() Pos
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// At holds a node's position; every node embeds it.
type At struct {
	Pos Pos
}

// Position returns the node's position.
func (a At) Position() Pos { return a.Pos }

// Module is a parsed file.
type Module struct {
	Body []Stmt
	// Comments are the file's comments in source order, for suppression
	// comments; Walk does not visit them.
	Comments []*Comment
}

// Comment is a comment: Text runs from the '#' to the end of the line.
type Comment struct {
	At
	Text string
}

// ConstKind tells which literal a Constant is.
type ConstKind uint8

// The kinds of constants.
const (
	Str      ConstKind = iota // a string literal, or adjacent ones concatenated
	Bytes                     // a bytes literal, or adjacent ones concatenated
	Int                       // an integer literal
	Float                     // a floating-point literal
	Imag                      // an imaginary literal (1j)
	True                      // True
	False                     // False
	None                      // None
	Ellipsis                  // ...
)

// Expressions.
type (
	// Name is an identifier.
	Name struct {
		At
		ID string
	}
	// Constant is a literal. Value holds a string's or bytes' decoded value
	// (adjacent literals concatenated) and a number's source text.
	Constant struct {
		At
		Kind  ConstKind
		Value string
	}
	// JoinedStr is an f-string, or adjacent literals of which one is an f-string.
	// Values holds its replacement fields in source order.
	JoinedStr struct {
		At
		Values []*FormattedValue
	}
	// FormattedValue is one replacement field {Value!c:spec} of an f-string.
	// Spec holds the replacement fields nested in the format spec.
	FormattedValue struct {
		At
		Value      Expr
		Conversion byte // 0, 's', 'r' or 'a'
		Spec       []*FormattedValue
	}
	// Attribute is Value.Attr.
	Attribute struct {
		At
		Value Expr
		Attr  string
	}
	// Subscript is Value[Index]; several indexes make a Tuple.
	Subscript struct {
		At
		Value, Index Expr
	}
	// Slice is Lower:Upper:Step inside a subscript; absent parts are nil.
	Slice struct {
		At
		Lower, Upper, Step Expr
	}
	// Call is Func(Args..., Keywords...).
	Call struct {
		At
		Func     Expr
		Args     []Expr // *x is a Starred
		Keywords []*Keyword
	}
	// Starred is *Value.
	Starred struct {
		At
		Value Expr
	}
	// NamedExpr is Target := Value.
	NamedExpr struct {
		At
		Target *Name
		Value  Expr
	}
	// BinOp is Left Op Right, Op one of + - * / // % ** @ << >> & | ^.
	BinOp struct {
		At
		Op          string
		Left, Right Expr
	}
	// BoolOp is Values joined by Op, "and" or "or".
	BoolOp struct {
		At
		Op     string
		Values []Expr
	}
	// UnaryOp is Op Operand, Op one of "not", "-", "+", "~".
	UnaryOp struct {
		At
		Op      string
		Operand Expr
	}
	// Compare is Left Ops[0] Comparators[0] Ops[1] Comparators[1]...;
	// "not in" and "is not" are single operators.
	Compare struct {
		At
		Left        Expr
		Ops         []string
		Comparators []Expr
	}
	// IfExp is Body if Test else OrElse.
	IfExp struct {
		At
		Test, Body, OrElse Expr
	}
	// Lambda is lambda Args: Body.
	Lambda struct {
		At
		Args *Arguments
		Body Expr
	}
	// List is [Elts...].
	List struct {
		At
		Elts []Expr
	}
	// Tuple is Elts separated by commas, with or without parentheses.
	Tuple struct {
		At
		Elts []Expr
	}
	// Set is {Elts...}.
	Set struct {
		At
		Elts []Expr
	}
	// Dict is {Keys[i]: Values[i]...}; a nil key is **Values[i].
	Dict struct {
		At
		Keys, Values []Expr
	}
	// Comp is a comprehension: [Elt for...], {Elt for...}, (Elt for...) or
	// {Elt: Value for...}.
	Comp struct {
		At
		Kind       CompKind
		Elt, Value Expr
		Generators []*Comprehension
	}
	// Await is await Value.
	Await struct {
		At
		Value Expr
	}
	// Yield is yield Value or, with From, yield from Value; Value may be nil.
	Yield struct {
		At
		Value Expr
		From  bool
	}
)

// CompKind tells which comprehension a Comp is.
type CompKind uint8

// The kinds of comprehensions.
const (
	ListComp CompKind = iota
	SetComp
	DictComp
	GeneratorExp
)

// Comprehension is one "for Target in Iter if Ifs..." clause.
type Comprehension struct {
	Target, Iter Expr
	Ifs          []Expr
	Async        bool
}

// Keyword is Name=Value in a call or a class's bases; Name is "" for **Value.
type Keyword struct {
	At
	Name  string
	Value Expr
}

// Arguments are the parameters of a function or lambda.
type Arguments struct {
	PosOnly, Args []*Arg
	Defaults      []Expr // for the last of PosOnly and Args
	Vararg        *Arg
	KwOnly        []*Arg
	KwDefaults    []Expr // one per KwOnly, nil where there is none
	Kwarg         *Arg
}

// Arg is one parameter.
type Arg struct {
	At
	Name       string
	Annotation Expr
}

func (*Name) exprNode()           {}
func (*Constant) exprNode()       {}
func (*JoinedStr) exprNode()      {}
func (*FormattedValue) exprNode() {}
func (*Attribute) exprNode()      {}
func (*Subscript) exprNode()      {}
func (*Slice) exprNode()          {}
func (*Call) exprNode()           {}
func (*Starred) exprNode()        {}
func (*NamedExpr) exprNode()      {}
func (*BinOp) exprNode()          {}
func (*BoolOp) exprNode()         {}
func (*UnaryOp) exprNode()        {}
func (*Compare) exprNode()        {}
func (*IfExp) exprNode()          {}
func (*Lambda) exprNode()         {}
func (*List) exprNode()           {}
func (*Tuple) exprNode()          {}
func (*Set) exprNode()            {}
func (*Dict) exprNode()           {}
func (*Comp) exprNode()           {}
func (*Await) exprNode()          {}
func (*Yield) exprNode()          {}

// Statements.
type (
	// ExprStmt is an expression used as a statement.
	ExprStmt struct {
		At
		Value Expr
	}
	// Assign is Targets[0] = Targets[1] = ... = Value.
	Assign struct {
		At
		Targets []Expr
		Value   Expr
	}
	// AugAssign is Target Op= Value.
	AugAssign struct {
		At
		Target Expr
		Op     string
		Value  Expr
	}
	// AnnAssign is Target: Annotation [= Value]; Simple when Target is a
	// name without parentheses.
	AnnAssign struct {
		At
		Target, Annotation, Value Expr
		Simple                    bool
	}
	// Import is import Names...
	Import struct {
		At
		Names []*Alias
	}
	// ImportFrom is from Level dots and Module import Names...; a lone
	// Alias named "*" is a star import.
	ImportFrom struct {
		At
		Module string
		Level  int
		Names  []*Alias
	}
	// FunctionDef is a def or async def.
	FunctionDef struct {
		At
		Name       string
		Args       *Arguments
		Body       []Stmt
		Decorators []Expr
		Returns    Expr
		Async      bool
	}
	// ClassDef is a class statement.
	ClassDef struct {
		At
		Name       string
		Bases      []Expr
		Keywords   []*Keyword
		Body       []Stmt
		Decorators []Expr
	}
	// If is if Test: Body, its elif as an If alone in OrElse.
	If struct {
		At
		Test         Expr
		Body, OrElse []Stmt
	}
	// For is for Target in Iter: Body else: OrElse.
	For struct {
		At
		Target, Iter Expr
		Body, OrElse []Stmt
		Async        bool
	}
	// While is while Test: Body else: OrElse.
	While struct {
		At
		Test         Expr
		Body, OrElse []Stmt
	}
	// With is with Items: Body.
	With struct {
		At
		Items []*WithItem
		Body  []Stmt
		Async bool
	}
	// Try is a try statement; Star for except*.
	Try struct {
		At
		Body              []Stmt
		Handlers          []*ExceptHandler
		OrElse, Finalbody []Stmt
		Star              bool
	}
	// Match is a match statement. Its patterns are checked but not kept
	// (they hold no calls), except the names they bind.
	Match struct {
		At
		Subject Expr
		Cases   []*MatchCase
	}
	// Return is return [Value].
	Return struct {
		At
		Value Expr
	}
	// Delete is del Targets...
	Delete struct {
		At
		Targets []Expr
	}
	// Raise is raise [Exc [from Cause]].
	Raise struct {
		At
		Exc, Cause Expr
	}
	// Assert is assert Test [, Msg].
	Assert struct {
		At
		Test, Msg Expr
	}
	// Global is global Names... (Nonlocal for nonlocal).
	Global struct {
		At
		Names    []string
		Nonlocal bool
	}
	// Simple is pass, break or continue.
	Simple struct {
		At
		Keyword string
	}
)

// Alias is Name [as AsName] in an import.
type Alias struct {
	At
	Name, AsName string
}

// WithItem is Context [as Vars].
type WithItem struct {
	Context, Vars Expr
}

// ExceptHandler is except [Type [as Name]]: Body.
type ExceptHandler struct {
	At
	Type Expr
	Name string
	Body []Stmt
}

// MatchCase is case pattern [if Guard]: Body. Names are the names its
// pattern binds (captures, *rest, **rest, as NAME), in source order.
type MatchCase struct {
	At
	Names []*Name
	Guard Expr
	Body  []Stmt
}

func (*ExprStmt) stmtNode()    {}
func (*Assign) stmtNode()      {}
func (*AugAssign) stmtNode()   {}
func (*AnnAssign) stmtNode()   {}
func (*Import) stmtNode()      {}
func (*ImportFrom) stmtNode()  {}
func (*FunctionDef) stmtNode() {}
func (*ClassDef) stmtNode()    {}
func (*If) stmtNode()          {}
func (*For) stmtNode()         {}
func (*While) stmtNode()       {}
func (*With) stmtNode()        {}
func (*Try) stmtNode()         {}
func (*Match) stmtNode()       {}
func (*Return) stmtNode()      {}
func (*Delete) stmtNode()      {}
func (*Raise) stmtNode()       {}
func (*Assert) stmtNode()      {}
func (*Global) stmtNode()      {}
func (*Simple) stmtNode()      {}
