package python

import (
	"errors"
	"strings"
	"testing"
)

// Errors CPython reports that the comparison through JSON cannot carry
// (invalid UTF-8) or that are about bounds.
var refusedTests = []struct {
	src  string
	want Pos
	msg  string // a part of the message
}{
	{"x = 'a\xffb'\n", Pos{1, 6}, "not UTF-8"},
	{"x = 1\n# \xc3\n", Pos{2, 2}, "not UTF-8"},
	{"x = 1\ny = \x00\n", Pos{2, 4}, "null bytes"},
	{strings.Repeat("(", 201) + strings.Repeat(")", 201), Pos{1, 200}, "too many nested parentheses"},
	{strings.Repeat("-", 4000) + "1", Pos{1, 2999}, "too complex"},
	{strings.Repeat("not ", 4000) + "x", Pos{1, 4 * 2999}, "too complex"},
	{"if x:\n" + nestedIfs(101), Pos{102, 101}, "too many levels of indentation"},
	{"f(a=1, 2)", Pos{1, 7}, "positional argument follows keyword argument"},
	{"if x:\n    a\n  b\n", Pos{3, 2}, "unindent does not match"},
}

func nestedIfs(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	b.WriteString(strings.Repeat(" ", n+1) + "pass\n")
	return b.String()
}

func TestParseRefuses(t *testing.T) {
	for _, tt := range refusedTests {
		mod, err := Parse([]byte(tt.src))
		var se *SyntaxError
		if mod != nil || !errors.As(err, &se) {
			t.Errorf("Parse(%.40q) = %v, %v; want a *SyntaxError", tt.src, mod, err)
			continue
		}
		if se.Pos != tt.want || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("Parse(%.40q) = %v at %v; want %q at %v", tt.src, se.Msg, se.Pos, tt.msg, tt.want)
		}
	}
}

// TestDeepButBounded: nesting within the bounds parses.
func TestDeepButBounded(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 200) + strings.Repeat(")", 200),
		strings.Repeat("-", 1000) + "1",
		"x" + strings.Repeat(".y", 10000),
		"f" + strings.Repeat("()", 5000),
		"1" + strings.Repeat(" + 1", 20000),
		"if x:\n" + nestedIfs(98),
	} {
		if _, err := Parse([]byte(src)); err != nil {
			t.Errorf("Parse(%.40q...): %v", src, err)
		}
	}
}

// TestWalkStops: returning false from the function skips a node's children.
func TestWalkStops(t *testing.T) {
	mod, err := Parse([]byte("f(g(h(x=1)))\nclass A:\n    y = k(z=2)\n"))
	if err != nil {
		t.Fatal(err)
	}
	var all, outer []string
	Walk(mod, func(n Node) bool {
		if c, ok := n.(*Call); ok {
			all = append(all, dotted(c.Func))
		}
		return true
	})
	Walk(mod, func(n Node) bool {
		if c, ok := n.(*Call); ok {
			outer = append(outer, dotted(c.Func))
			return false
		}
		return true
	})
	if got := strings.Join(all, " "); got != "f g h k" {
		t.Errorf("all calls: %s; want f g h k", got)
	}
	if got := strings.Join(outer, " "); got != "f k" {
		t.Errorf("outermost calls: %s; want f k", got)
	}
}

func BenchmarkParse(b *testing.B) {
	src := []byte(strings.Repeat(programForBench, 20))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

const programForBench = `
requests = ResourceSettings(cpu="0.1", memory="0.2G")
limits = ResourceSettings(cpu="0.2", memory="0.5G", gpu="1")
blue = KubernetesOnlineDeployment(
    name="blue", endpoint_name=f"{prefix}-endpoint", model=model, environment=env,
    resources=ResourceRequirementsSettings(requests=requests, limits=limits),
    instance_count=1, instance_type="gpu-large",
)
for job in [command(compute="k8s", instance_type=t) for t in ("a", "b")]:
    ml_client.jobs.create_or_update(job)
`
