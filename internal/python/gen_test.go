package python

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// progGen draws Python programs: statements and expressions of every kind
// the parser knows, with the spacing, line joining and literal forms that
// make tokenizers go wrong, and, for one program in four, a mutation (a
// character deleted, doubled or inserted) that usually makes it invalid.
var progGen = rapid.Custom(func(t *rapid.T) string {
	g := &gen{t: t}
	var b strings.Builder
	n := rapid.IntRange(1, 6).Draw(t, "stmts")
	for i := 0; i < n; i++ {
		g.stmt(&b, "", 0)
	}
	src := b.String()
	if rapid.IntRange(0, 3).Draw(t, "mutate") == 0 && len(src) > 0 {
		i := rapid.IntRange(0, len(src)-1).Draw(t, "at")
		switch rapid.IntRange(0, 2).Draw(t, "how") {
		case 0:
			src = src[:i] + src[i+1:]
		case 1:
			src = src[:i] + src[i:i+1] + src[i:]
		default:
			c := rapid.SampledFrom([]string{"(", ")", "[", "]", "{", "}", ":", "=", ",", "*", "'", "\"", "\n", "\t", " ", "\\", "#", "@", ".", "f", "0", "_", "é"}).Draw(t, "insert")
			src = src[:i] + c + src[i:]
		}
		// A byte cut out of or doubled in a character: what JSON carries to
		// CPython is U+FFFD, so the program is that.
		src = strings.ToValidUTF8(src, "\uFFFD")
	}
	return src
})

type gen struct {
	t *rapid.T
}

func (g *gen) pick(label string, options ...string) string {
	return rapid.SampledFrom(options).Draw(g.t, label)
}

func (g *gen) n(label string, lo, hi int) int { return rapid.IntRange(lo, hi).Draw(g.t, label) }

func (g *gen) name() string {
	return g.pick("name", "a", "b", "x", "compute", "instance_type", "match", "case", "_", "ml_client", "é", "名前", "resources")
}

func (g *gen) sp() string { return g.pick("space", "", "", " ", "  ") }

// nl is a separator inside brackets: nothing, a space, or a line break.
func (g *gen) nl() string { return g.pick("nl", "", " ", "\n", "\n    ", " # c\n") }

func (g *gen) number() string {
	return g.pick("number", "0", "1", "10", "1_000", "0x_1F", "0o17", "0b1_0", "1.5", ".5", "5.", "1e3", "1.5E-3", "2j", "1_0.0_1e1_0J", "00")
}

func (g *gen) str() string {
	prefix := g.pick("prefix", "", "", "r", "R", "u", "b", "rb", "Br")
	quote := g.pick("quote", "'", "\"", "'''", `"""`)
	body := g.pick("body", "", "cpu-small", "k8s-compute", "0.5G", "a\\nb", "\\x41", "it's", "é", "{}", "\\\\")
	if quote == "'" && strings.Contains(body, "'") {
		body = "x"
	}
	if strings.Contains(prefix, "b") || strings.Contains(prefix, "B") {
		if body == "é" {
			body = "e"
		}
	}
	if quote == "'''" || quote == `"""` {
		body = g.pick("tbody", body, "line\nline", "a'b\"c")
	}
	return prefix + quote + body + quote
}

func (g *gen) fstr(depth int) string {
	quote := g.pick("fquote", "'", "\"", "'''")
	inner := `"` // expressions inside use the other quote
	if quote == "\"" {
		inner = "'"
	}
	var b strings.Builder
	b.WriteString(g.pick("fprefix", "f", "F", "rf", "fR") + quote)
	for i, n := 0, g.n("fparts", 0, 3); i < n; i++ {
		switch g.n("fpart", 0, 3) {
		case 0:
			b.WriteString(g.pick("ftext", "text ", "{{", "}}", "é"))
		default:
			e := g.exprQuoted(depth+1, inner)
			b.WriteString("{" + g.sp() + e + g.pick("fdebug", "", "", "=") + g.pick("conv", "", "", "!r", "!s") +
				g.pick("spec", "", "", ":>10", ":{"+g.name()+"}") + "}")
		}
	}
	b.WriteString(quote)
	return b.String()
}

// exprQuoted draws an expression that uses only the quote q in strings, as
// an f-string's field must in Python 3.11.
func (g *gen) exprQuoted(depth int, q string) string {
	switch g.n("fexpr", 0, 3) {
	case 0:
		return g.name()
	case 1:
		return g.dotted() + "(" + g.name() + "=" + q + "v" + q + ")"
	case 2:
		return g.name() + "[" + q + "k" + q + "]"
	default:
		return g.number()
	}
}

func (g *gen) dotted() string {
	n := g.pick("fn", "command", "KubernetesOnlineDeployment", "ResourceSettings", "ml_client.jobs.create_or_update", "print", "dict", "f", "match")
	return n
}

// atom draws an expression that can be an operand without parentheses.
func (g *gen) atom(depth int) string {
	if depth > 3 {
		return g.pick("leaf", g.name(), g.number(), g.str())
	}
	switch g.n("atom", 0, 14) {
	case 0, 1:
		return g.name()
	case 2:
		return g.number()
	case 3:
		s := g.str()
		if g.n("concat", 0, 3) == 0 && !strings.ContainsAny(s[:1], "bB") && !strings.HasPrefix(s, "rb") {
			s += g.nl()[:0] + " " + g.pick("s2", "'x'", `"y"`)
		}
		return s
	case 4:
		return g.fstr(depth)
	case 5, 6:
		return g.call(depth)
	case 7:
		return g.pick("owner", g.name(), g.call(depth+1), "("+g.expr(depth+1)+")", "1 .real", "'s'") + "." + g.name()
	case 8:
		return g.atom(depth+1) + "[" + g.subscript(depth+1) + "]"
	case 9:
		return "[" + g.exprList(depth+1) + "]"
	case 10:
		return "(" + g.expr(depth+1) + ")"
	case 11:
		return "{" + g.nl() + g.name() + ": " + g.expr(depth+1) + "," + g.nl() + "**" + g.atom(depth+1) + "}"
	case 12:
		return "[" + g.expr(depth+1) + " for " + g.pick("target", "x", "x, y", "(x, y)", "[x, *y]") + " in " + g.atom(depth+1) +
			g.pick("ifs", "", " if x", " if x if y") + g.pick("more", "", " for z in x") + "]"
	case 13:
		return "(" + g.name() + " := " + g.expr(depth+1) + ")"
	default:
		return g.pick("const", "None", "True", "False", "...", "()", "{}", "(1,)", "{1, *x}")
	}
}

func (g *gen) subscript(depth int) string {
	switch g.n("sub", 0, 3) {
	case 0:
		return g.expr(depth)
	case 1:
		return g.pick("slice", "1:2", ":", "::2", "a:", ":b:c", "1:2, ::3, ...")
	case 2:
		return g.expr(depth) + ", " + g.expr(depth)
	default:
		return "*" + g.name()
	}
}

func (g *gen) exprList(depth int) string {
	var parts []string
	for i, n := 0, g.n("elts", 0, 3); i < n; i++ {
		e := g.expr(depth)
		if g.n("star", 0, 5) == 0 {
			e = "*" + g.atom(depth)
		}
		parts = append(parts, g.nl()+e)
	}
	s := strings.Join(parts, ",")
	if len(parts) > 0 && g.n("trail", 0, 2) == 0 {
		s += ","
	}
	return s
}

func (g *gen) call(depth int) string {
	var args []string
	for i, n := 0, g.n("args", 0, 2); i < n; i++ {
		args = append(args, g.expr(depth+1))
	}
	if g.n("stararg", 0, 4) == 0 {
		args = append(args, "*"+g.atom(depth+1))
	}
	for i, n := 0, g.n("kwargs", 0, 4); i < n; i++ {
		args = append(args, g.pick("kw", "compute", "instance_type", "resources", "requests", "limits", "cpu", "memory", "gpu", "name", "match")+
			g.sp()+"="+g.sp()+g.expr(depth+1))
	}
	if g.n("dstar", 0, 4) == 0 {
		args = append(args, "**"+g.atom(depth+1))
	}
	for i := range args {
		args[i] = g.nl() + args[i]
	}
	s := strings.Join(args, ",")
	if len(args) > 0 && g.n("ctrail", 0, 2) == 0 {
		s += ","
	}
	fn := g.dotted()
	if g.n("fnatom", 0, 5) == 0 {
		fn = g.atom(depth + 1)
	}
	if len(args) == 0 && g.n("gen", 0, 4) == 0 {
		s = g.name() + " for " + g.name() + " in " + g.atom(depth+1)
	}
	return fn + g.sp() + "(" + s + ")"
}

// expr draws any expression.
func (g *gen) expr(depth int) string {
	if depth > 3 {
		return g.atom(depth)
	}
	switch g.n("expr", 0, 9) {
	case 0, 1, 2, 3:
		return g.atom(depth)
	case 4:
		return g.atom(depth+1) + g.sp() + g.pick("binop", "+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^") + g.sp() + g.atom(depth+1)
	case 5:
		return g.pick("unary", "-", "+", "~", "not ") + g.atom(depth+1)
	case 6:
		return g.atom(depth+1) + g.pick("cmp", " < ", " == ", " != ", " in ", " not in ", " is ", " is not ", " >= ") + g.atom(depth+1)
	case 7:
		return g.atom(depth+1) + g.pick("bool", " and ", " or ") + g.atom(depth+1)
	case 8:
		return g.atom(depth+1) + " if " + g.atom(depth+1) + " else " + g.expr(depth+1)
	default:
		return "lambda" + g.pick("params", "", " x", " x, *a", " x=1, **k", " *, k") + ": " + g.expr(depth+1)
	}
}

func (g *gen) block(b *strings.Builder, indent string, depth int) {
	if depth > 2 || g.n("inline", 0, 4) == 0 {
		b.WriteString(" " + g.simple() + "\n")
		return
	}
	b.WriteString("\n")
	inner := indent + g.pick("indent", "    ", "  ", "\t")
	for i, n := 0, g.n("body", 1, 3); i < n; i++ {
		g.stmt(b, inner, depth+1)
	}
}

func (g *gen) simple() string {
	switch g.n("simple", 0, 12) {
	case 0, 1, 2:
		return g.pick("target", "x", "x, y", "a.b", "a[0]", "[x, *y]", "resources") + g.sp() + "=" + g.sp() + g.expr(0)
	case 3:
		return g.name() + " = " + g.name() + " = " + g.call(0)
	case 4:
		return g.name() + g.pick("aug", " += ", " -= ", " **= ", " //= ", " @= ", " >>= ") + g.expr(0)
	case 5:
		return g.name() + ": " + g.pick("ann", "int", "list[str]", "'T'") + g.pick("annv", "", " = "+g.expr(0))
	case 6, 7:
		return g.call(0)
	case 8:
		return g.pick("kw", "pass", "break", "continue", "return", "return "+g.expr(0), "raise", "raise E from "+g.name(), "global x", "del x, a[0]", "assert x, "+g.str(), "yield "+g.expr(0), "yield from x", "await "+g.atom(1))
	case 9:
		return g.pick("imp", "import os", "import a.b as c, d", "from azure.ai.ml import command, MLClient",
			"from azure.ai.ml.entities import (\n    KubernetesOnlineDeployment,\n    ResourceSettings,\n)", "from . import x", "from ..m import *")
	case 10:
		return g.expr(0) + "; " + g.expr(0)
	default:
		return g.expr(0) + g.pick("cont", "", " \\\n    + 1", " # comment")
	}
}

func (g *gen) stmt(b *strings.Builder, indent string, depth int) {
	b.WriteString(indent)
	switch g.n("stmt", 0, 12) {
	case 0:
		b.WriteString("if " + g.expr(0) + ":")
		g.block(b, indent, depth)
		if g.n("elif", 0, 2) == 0 {
			b.WriteString(indent + "elif " + g.expr(0) + ":")
			g.block(b, indent, depth)
		}
		if g.n("else", 0, 2) == 0 {
			b.WriteString(indent + "else:")
			g.block(b, indent, depth)
		}
	case 1:
		b.WriteString(g.pick("async", "", "async ") + "for " + g.pick("ftarget", "x", "x, y", "(a, b), c") + " in " + g.expr(0) + ":")
		g.block(b, indent, depth)
	case 2:
		b.WriteString("while " + g.expr(0) + ":")
		g.block(b, indent, depth)
	case 3:
		if g.n("deco", 0, 2) == 0 {
			b.WriteString("@" + g.pick("deco", "dsl.pipeline(compute=\"k8s\")", "staticmethod", "a.b[0](c)") + "\n" + indent)
		}
		b.WriteString(g.pick("def", "def", "async def") + " " + g.name() + "(" +
			g.pick("params", "", "self", "a, /, b, *, c=1", "*args, **kwargs", "x: int = 1, *a: str", "a, b=2, *c, d, e=4, **f") + ")" +
			g.pick("ret", "", " -> None") + ":")
		g.block(b, indent, depth)
	case 4:
		b.WriteString("class " + g.name() + g.pick("bases", "", "()", "(Base)", "(A, metaclass=M, **kw)") + ":")
		g.block(b, indent, depth)
	case 5:
		b.WriteString("try:")
		g.block(b, indent, depth)
		star := g.pick("exstar", "", "*")
		n := g.n("handlers", 0, 2)
		for i := 0; i < n; i++ {
			b.WriteString(indent + "except" + star + g.pick("extype", " E", " (E, F) as e", " E as e") + ":")
			g.block(b, indent, depth)
		}
		if n == 0 || g.n("finally", 0, 1) == 0 {
			b.WriteString(indent + "finally:")
			g.block(b, indent, depth)
		}
	case 6:
		b.WriteString(g.pick("with", "with ", "async with ") + g.pick("items", "open(f) as h", "a as b, c", "(a as b, c as d,)", "(a, b)", "a as (b, c)") + ":")
		g.block(b, indent, depth)
	case 7:
		b.WriteString("match " + g.pick("subject", "x", "x, y", "command(compute=c)") + ":\n")
		inner := indent + "    "
		for i, n := 0, g.n("cases", 1, 2); i < n; i++ {
			b.WriteString(inner + "case " + g.pick("pattern", "1", "-1.5", "'s' | None", "[a, *rest]", "{'k': v, **r}", "Point(x=0, y=y) as p", "(a, b)", "_", "a.b", "1+2j") +
				g.pick("guard", "", " if "+g.expr(0)) + ":")
			g.block(b, inner, depth+1)
		}
	default:
		b.WriteString(g.simple() + "\n")
	}
}

// TestDrawnProgramsAgreeWithCPython draws programs (300; set
// INSTANCETYPES_PYTHON_PROGRAMS for more, INSTANCETYPES_PYTHON_SEED for others)
// and compares, for each, whether it is refused and the calls and assignments
// found with what CPython's ast says.
func TestDrawnProgramsAgreeWithCPython(t *testing.T) {
	t.Parallel()
	n, seed := 300, 0
	if s := os.Getenv("INSTANCETYPES_PYTHON_PROGRAMS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("INSTANCETYPES_PYTHON_SEED"); s != "" {
		seed, _ = strconv.Atoi(s)
	}
	programs := make([]string, n)
	for i := range programs {
		programs[i] = progGen.Example(seed + i)
	}
	want := cpython(t, programs)
	valid, failures := 0, 0
	for i, src := range programs {
		if want[i] != nil {
			valid++
		}
		if d := diffFacts(want[i], facts(src)); d != "" {
			failures++
			if failures <= 10 {
				t.Errorf("program %d (seed %d):\n%s\n%s", i, seed+i, src, d)
			}
		}
	}
	if failures > 10 {
		t.Errorf("... %d disagreements in all", failures)
	}
	// The generator must draw mostly valid programs, or the comparison
	// would only be about errors.
	if valid < n/2 {
		t.Errorf("only %d of %d drawn programs are valid Python", valid, n)
	}
	t.Logf("%d programs, %d valid", n, valid)
}
