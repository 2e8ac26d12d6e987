package pysdk

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// A drawn script binds names in drawn ways and calls azure-ai-ml with drawn values. Each
// string written is a marker: "L…" where the package may read it (a literal given
// directly, or the value of a name bound once by a plain assignment), "N…" where it must
// not (an f-string, a subscript, a call, a name bound twice, changed or augmented, a
// parameter, a loop target). No N marker is ever read as a value, and every value not
// read has a reason.
type drawn struct {
	lines []string // the bindings drawn
	n     int      // markers drawn so far
}

func (d *drawn) marker(lit bool) string {
	d.n++
	if lit {
		return fmt.Sprintf("L%d", d.n)
	}
	return fmt.Sprintf("N%d", d.n)
}

// value draws a value for a keyword argument: its text, and whether it is literal.
func (d *drawn) value(t *rapid.T) string {
	switch rapid.IntRange(0, 9).Draw(t, "value") {
	case 0:
		return `f"` + d.marker(false) + `{x}"`
	case 1:
		return `os.environ["` + d.marker(false) + `"]`
	case 2:
		return `"` + d.marker(false) + `".upper()`
	case 3:
		return `"` + d.marker(false) + `" + ""`
	case 4: // a name bound once
		name := fmt.Sprintf("once%d", d.n)
		d.lines = append(d.lines, fmt.Sprintf("%s = %q", name, d.marker(true)))
		return name
	case 5: // a name bound twice, maybe in different ways
		name := fmt.Sprintf("twice%d", d.n)
		second := rapid.SampledFrom([]string{
			"%s = %q", "%s += %q", "for %s in [%q]: pass", "def f(%s=%q): pass", "%s.x = %q", "%s[0] = %q",
			"with open(%q) as %s: pass", "(%s := %q)", "class %s: x = %q", "del %s; y = %q",
		}).Draw(t, "second")
		d.lines = append(d.lines, fmt.Sprintf("%s = %q", name, d.marker(false)))
		if strings.HasPrefix(second, "with") {
			d.lines = append(d.lines, fmt.Sprintf(second, d.marker(false), name))
		} else {
			d.lines = append(d.lines, fmt.Sprintf(second, name, d.marker(false)))
		}
		return name
	case 6: // a parameter
		return "param"
	case 7: // a name bound nowhere
		return fmt.Sprintf("nowhere%d", d.n)
	}
	return `"` + d.marker(true) + `"`
}

// call draws one call of azure-ai-ml.
func (d *drawn) call(t *rapid.T, depth int) string {
	kw := func(names ...string) string {
		var args []string
		for _, n := range names {
			if rapid.Bool().Draw(t, "has "+n) {
				args = append(args, n+"="+d.value(t))
			}
		}
		return strings.Join(append(args, "environment=env"), ", ")
	}
	settings := func() string { return "ResourceSettings(" + kw("cpu", "memory", "gpu") + ")" }
	switch rapid.IntRange(0, 4).Draw(t, "class") {
	case 0:
		return "command(" + kw("name", "compute", "instance_type") + ")"
	case 1:
		res := ""
		if depth < 1 && rapid.Bool().Draw(t, "resources") {
			res = ", resources=ResourceRequirementsSettings(requests=" + settings() + ", limits=" + settings() + ")"
		}
		return "KubernetesOnlineDeployment(" + kw("name", "instance_type", "endpoint_name") + res + ")"
	case 2:
		return "BatchDeployment(" + kw("name", "compute") + ", resources=JobResourceConfiguration(" + kw("instance_type") + "))"
	case 3:
		return "JobResourceConfiguration(" + kw("instance_type") + ")"
	}
	return "ResourceRequirementsSettings(requests=" + settings() + ")"
}

func TestNeverReadsANonLiteral(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := &drawn{}
		var calls []string
		changed := 0 // workloads bound to a name whose object is changed afterwards
		for i := range rapid.IntRange(1, 4).Draw(t, "calls") {
			c := d.call(t, 0)
			switch rapid.IntRange(0, 2).Draw(t, "how") {
			case 0:
				calls = append(calls, fmt.Sprintf("def g%d(param):\n    return %s", i, c))
			case 1:
				calls = append(calls, fmt.Sprintf("w%d = %s", i, c))
			case 2:
				change := rapid.SampledFrom([]string{"w%d.instance_type = %q", "w%d.resources.instance_type = %q",
					"w%d.set_resources(instance_type=%q)", "w%d.compute = %q"}).Draw(t, "change")
				calls = append(calls, fmt.Sprintf("w%d = %s", i, c), fmt.Sprintf(change, i, d.marker(false)))
				changed++
			}
		}
		src := "import os\nfrom azure.ai.ml import command\nfrom azure.ai.ml.entities import *\n" +
			strings.Join(d.lines, "\n") + "\n" + strings.Join(calls, "\n") + "\n"
		res, err := ReadScript([]byte(src))
		if err != nil {
			t.Fatalf("ReadScript: %v\n%s", err, src)
		}
		check := func(what, s string) {
			if strings.HasPrefix(s, "N") {
				t.Fatalf("%s %q read, a value that is not literal\n%s\n%s", what, s, src, summary(res))
			}
		}
		for _, it := range res.Workloads {
			w := it.Workload
			for what, s := range map[string]string{"name": w.Name, "compute": w.Compute, "instance type": w.InstanceType} {
				check(what, s)
			}
			if w.Resources != nil {
				for _, l := range []map[string]string{amounts(w.Resources.Requests), amounts(w.Resources.Limits)} {
					for k, s := range l {
						check(k, s)
					}
				}
			}
		}
		// Every value not read has a reason; every workload whose object is changed
		// is unknown as a whole (or skipped).
		whole := 0
		for _, it := range res.Workloads {
			for _, u := range it.Unknown {
				if u.Why == "" {
					t.Fatalf("an unknown value without a reason: %+v", u)
				}
				if u.Path == "" {
					whole++
				}
			}
		}
		if whole > changed || whole+len(res.Skipped) < changed {
			t.Fatalf("%d workloads unknown as a whole, %d skipped; %d changed\n%s\n%s", whole, len(res.Skipped), changed, src, summary(res))
		}
	})
}

func amounts(l instancetype.ResourceList) map[string]string {
	m := map[string]string{}
	for k, a := range l {
		m[string(k)] = a.String()
	}
	return m
}

// fragments are pieces of Python and JSON drawn into inputs that are mostly not valid.
var fragments = []string{
	"from azure.ai.ml import command\n", "from azure.ai.ml.entities import *\n", "import azure.ai.ml as ml\n",
	"command(", "ml.entities.KubernetesOnlineDeployment(", "ResourceRequirementsSettings(", "ResourceSettings(",
	"JobResourceConfiguration(", "Model(", "BatchDeployment(", "instance_type=", "compute=", "resources=", "requests=",
	"limits=", "cpu=", "gpu=", "model=", "type=", "AssetTypes.MLFLOW_MODEL", `"serverless"`, `"x"`, "1", "0.5", "1e400",
	"0x1f", "None", "True", "a", "b", " = ", "+= ", ", ", ")", "(", "[", "]", "{", "}", ":", "\n", "    ", "**kw", "*a",
	"def f(a):\n    ", "for a in b:\n    ", "a.x = ", "f\"{a}\"", "#", "\\\n", `"""`, "\t", "\x00", "é",
	`{"cells": [{"cell_type": "code", "source": [`, `"a = 1\n", `, `]}], "nbformat": 4}`, `"metadata": {}`,
}

// Whatever the input, reading never panics, and what it reads has positions in the file.
func TestNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(fragments), 0, 40).Draw(t, "fragments")
		src := []byte(strings.Join(parts, ""))
		for _, read := range []func([]byte) (*Result, error){ReadScript, ReadNotebook} {
			res, err := read(src)
			if err != nil {
				if res != nil {
					t.Fatalf("a result and an error: %v", err)
				}
				continue
			}
			for _, w := range res.Workloads {
				for p, at := range w.At {
					if at.Line < 1 || at.Column < 1 {
						t.Fatalf("%s at %+v", p, at)
					}
				}
			}
		}
	})
}
