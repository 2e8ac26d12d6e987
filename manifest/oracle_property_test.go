package manifest

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestOracleProperty holds the reader to the oracle on documents drawn from a grammar of the
// YAML that byte-level fuzzing reaches only by luck: node properties (anchors, the
// non-specific tag in both spellings, explicit tags) in either order and across comments
// and line breaks, merge keys written every way, aliases, YAML 1.1 scalars, block scalars,
// and flow and block collections nested in each other. Each document is read by both
// readers, which must agree or both refuse it (see checkOracle).
func TestOracleProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkOracle(t, []byte(yamlDocument().Draw(t, "yaml")))
	})
}

// yamlDocument draws a document: a block mapping, or a block sequence, at the left margin,
// after an optional header of directives.
func yamlDocument() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		g := &yamlGen{t: t, b: &b}
		for i := range rapid.IntRange(1, 2).Draw(t, "documents") {
			if i > 0 {
				b.WriteString(g.draw("separator", []string{"---\n", "...\n---\n", "--- # c\n"}))
			} else {
				b.WriteString(g.draw("header", []string{"", "", "", "---\n", "--- # c\n", "%YAML 1.1\n---\n", "%TAG !e! tag:yaml.org,2002:\n---\n"}))
			}
			switch rapid.IntRange(0, 4).Draw(t, "top") {
			case 0:
				g.blockSequence(0, 0)
			case 1, 2:
				// An object this package checks, so that what kubectl refuses in it matters.
				b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\n")
				fallthrough
			default:
				g.blockMapping(0, 0)
			}
		}
		// Line breaks of other kinds, as some editors write them: kubectl's line reader
		// breaks lines at line feeds alone, its YAML reader at each of them.
		text := b.String()
		switch rapid.IntRange(0, 15).Draw(t, "line breaks") {
		case 0, 1, 2:
			text = strings.ReplaceAll(text, "\n", "\r\n")
		case 3:
			text = strings.ReplaceAll(text, "\n", "\r")
		case 4:
			text = strings.Replace(text, "\n", "\u2028", 1)
		case 5:
			text = strings.Replace(text, "\n", "\u0085", 1)
		case 6:
			text = "\xef\xbb\xbf" + text
		case 7:
			text = string(utf16Text(text, rapid.Bool().Draw(t, "big-endian"))) // PowerShell's
		}
		return text
	})
}

// yamlGen writes a drawn document to b.
type yamlGen struct {
	t *rapid.T
	b *strings.Builder
}

var (
	// keyScalars are keys on one line, with the merge key in every spelling.
	keyScalars = []string{
		"a", "b", "k", "<<", "<<", `"<<"`, "'<<'", "12", "1.0", "1e3", "-1", "yes", "true", "~", "null", `"a"`, "0x1",
		"99999999999999999999", ".inf", "2001-01-01", `""`, "*a", "*b",
	}
	// flowScalars are values that fit on one line, in or out of a flow collection.
	flowScalars = []string{
		"x", "12", "-1", "1_000", "0o17", "0x1F", "1e3", ".5", ".inf", "-.Inf", ".nan", "yes", "on", "No", "~", "null",
		"", "2001-01-01", "1:30", "<<", `"<<"`, "'<<'", `"12"`, "'it''s'", `"a\tb"`, "*a", "*b", "!", "=",
		"1e400", "-0", "0.0", "+1", "0b11", "1_0", ".NaN", "'#'", "a #b", `"\u00e9"`, "99999999999999999999", "0777",
	}
	// properties go before a node: none most often, anchors, tags and both.
	properties = []string{
		"", "", "", "", "&a ", "&b ", "! ", "!<!> ", "!!str ", "!!merge ", "!!int ", "!!float ", "!!bool ", "!!null ",
		"!!map ", "!!seq ", "!!binary ", "!e!str ", "!custom ", "&a ! ", "! &a ", "&b !!str ", "!<tag:yaml.org,2002:merge> ",
	}
)

func (g *yamlGen) draw(label string, from []string) string {
	return rapid.SampledFrom(from).Draw(g.t, label)
}

func (g *yamlGen) indent(n int) { g.b.WriteString(strings.Repeat(" ", n)) }

// blockMapping writes one to four entries at column indent, the first of them where the
// builder stands (after "- " in a sequence, say).
func (g *yamlGen) blockMapping(indent, depth int) {
	for i := range rapid.IntRange(1, 4).Draw(g.t, "entries") {
		if i > 0 {
			g.indent(indent)
		}
		if rapid.IntRange(0, 7).Draw(g.t, "merge") == 0 {
			g.b.WriteString(g.draw("merge key", []string{"<<", "<<", "! <<", `"<<"`, "!!merge <<"}) + ": ")
			g.b.WriteString(g.draw("merged", []string{"*a", "*b", "[*a, *b]", "[*b, *a]", "{x: 1, a: 2}", "[{x: 1}, *a]", "[]", "{}", "x"}) + "\n")
			continue
		}
		if rapid.IntRange(0, 9).Draw(g.t, "explicit") == 0 {
			g.b.WriteString("? " + g.draw("props", properties) + g.draw("key", keyScalars) + "\n")
			g.indent(indent)
			g.b.WriteString(":")
		} else {
			g.b.WriteString(g.draw("props", properties) + g.draw("key", keyScalars))
			g.b.WriteString(g.draw("colon", []string{":", ":", " :"}))
		}
		g.value(indent, depth)
	}
}

// blockSequence writes one to three items at column indent, the first where the builder
// stands.
func (g *yamlGen) blockSequence(indent, depth int) {
	for i := range rapid.IntRange(1, 3).Draw(g.t, "items") {
		if i > 0 {
			g.indent(indent)
		}
		g.b.WriteString("-")
		g.value(indent, depth)
	}
}

// value writes the value of an entry or item whose indicator (":" or "-") the builder has
// just written, at column indent, and ends the line.
func (g *yamlGen) value(indent, depth int) {
	kind := rapid.IntRange(0, 9).Draw(g.t, "value")
	if depth >= 3 && kind >= 6 {
		kind = 0
	}
	switch {
	case kind <= 2: // a scalar on the line
		g.b.WriteString(" " + g.draw("props", properties) + g.draw("scalar", flowScalars))
		g.b.WriteString(g.draw("end", []string{"\n", "\n", "\n", " # c\n", "\r\n", "\u2028"}))
	case kind == 3: // a block scalar
		g.b.WriteString(" " + g.draw("props", properties) + g.draw("block", []string{"|", "|-", ">", ">-", "|+"}) + "\n")
		g.indent(indent + 2)
		g.b.WriteString(g.draw("text", []string{"<<", "12", "x", "yes"}) + "\n")
	case kind <= 5: // a flow collection on the line
		g.b.WriteString(" " + g.draw("props", properties))
		g.flow(depth)
		g.b.WriteString("\n")
	default: // a block collection below, its properties on this line or the next
		props := g.draw("props", properties)
		sep := g.draw("sep", []string{"\n", " # c\n", "\n\n", "\n# c\n"})
		inner := indent + 2
		if props != "" && rapid.Bool().Draw(g.t, "props below") {
			g.b.WriteString(sep)
			g.indent(inner)
			g.b.WriteString(props + g.draw("after props", []string{"\n", " # c\n", "\u0085"}))
		} else {
			if props != "" {
				g.b.WriteString(" " + strings.TrimSuffix(props, " "))
			}
			g.b.WriteString(sep)
		}
		g.indent(inner)
		if kind == 9 {
			g.blockSequence(inner, depth+1)
		} else {
			g.blockMapping(inner, depth+1)
		}
	}
}

// flow writes a flow mapping or sequence on one line.
func (g *yamlGen) flow(depth int) {
	n := rapid.IntRange(0, 3).Draw(g.t, "flow entries")
	mapping := rapid.Bool().Draw(g.t, "flow mapping")
	open, close := "[", "]"
	if mapping {
		open, close = "{", "}"
	}
	g.b.WriteString(open)
	for i := range n {
		if i > 0 {
			g.b.WriteString(", ")
		}
		if mapping {
			g.b.WriteString(g.draw("props", properties) + g.draw("key", keyScalars) + ": ")
		}
		g.b.WriteString(g.draw("props", properties))
		if depth < 3 && rapid.IntRange(0, 4).Draw(g.t, "nested") == 0 {
			g.flow(depth + 1)
		} else {
			g.b.WriteString(g.draw("scalar", flowScalars))
		}
	}
	g.b.WriteString(close)
}

// TestOracleJSONProperty holds the JSON reader to the oracle on streams of JSON values drawn
// from a grammar: duplicate keys, numbers at and beyond a float's range, escapes (lone and
// paired surrogates among them), and what may follow a value: another, YAML, or nothing.
func TestOracleJSONProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := &yamlGen{t: t, b: &strings.Builder{}}
		for i := range rapid.IntRange(1, 3).Draw(t, "values") {
			if i > 0 {
				g.b.WriteString(g.draw("between", []string{"\n", " ", "", "\n\n", "\r\n"}))
			}
			g.jsonValue(0, true)
		}
		g.b.WriteString(g.draw("after", []string{"", "\n", " ", "\n{kind: InstanceType}\n", " x: 1\n", "\n---\na: 1\n", "]", "\n# c\n"}))
		checkOracle(t, []byte(g.b.String()))
	})
}

var (
	jsonScalars = []string{
		"1", "-0", "0.5", "1e2", "1E400", "-1e309", "1.5e-400", "12345678901234567890", "-9223372036854775809",
		"true", "false", "null", `"x"`, `"\u00e9"`, `"\ud800"`, `"\ud83d\ude00"`, `"a\/b"`, `"\t"`, `"InstanceType"`,
	}
	jsonKeys = []string{`"a"`, `"b"`, `"kind"`, `"apiVersion"`, `"<<"`, `"\u0061"`, `""`}
)

// jsonValue writes a JSON value; an object at the top level when top is set.
func (g *yamlGen) jsonValue(depth int, top bool) {
	kind := rapid.IntRange(0, 5).Draw(g.t, "json kind")
	if top {
		kind = 5
	} else if depth >= 3 && kind >= 4 {
		kind = 0
	}
	space := func() { g.b.WriteString(g.draw("space", []string{"", "", " ", "\n  ", "\t"})) }
	switch {
	case kind <= 3:
		g.b.WriteString(g.draw("json scalar", jsonScalars))
	case kind == 4:
		g.b.WriteString("[")
		for i := range rapid.IntRange(0, 3).Draw(g.t, "json items") {
			if i > 0 {
				g.b.WriteString(",")
			}
			space()
			g.jsonValue(depth+1, false)
		}
		g.b.WriteString("]")
	default:
		g.b.WriteString("{")
		for i := range rapid.IntRange(0, 4).Draw(g.t, "json members") {
			if i > 0 {
				g.b.WriteString(",")
			}
			space()
			g.b.WriteString(g.draw("json key", jsonKeys) + ":")
			space()
			g.jsonValue(depth+1, false)
		}
		space()
		g.b.WriteString("}")
	}
}
