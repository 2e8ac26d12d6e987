package lint_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// typeHeader is the first two lines of an InstanceType document.
const typeHeader = "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\n"

// loc is what a test expects of one finding: its line, its field path and its type as
// machine-readable output names it (Finding.TypeName: "UnknownField", "SyntaxError",
// "FieldValueInvalid", …).
type loc struct {
	line  int
	field string
	typ   string
}

func (l loc) String() string { return fmt.Sprintf("{%d %s %s}", l.line, l.field, l.typ) }

// locs returns the line, field and type of each finding.
func locs(fs []lint.Finding) []loc {
	out := make([]loc, 0, len(fs))
	for _, f := range fs {
		out = append(out, loc{f.Line, f.Err.Field, f.TypeName()})
	}
	return out
}

// messages renders findings one a line, with their rules, for failure messages.
func messages(fs []lint.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n\t")
		b.WriteString(f.String())
		b.WriteString(" [" + f.Rule() + "]")
	}
	return b.String()
}

// lintFile runs a check of one file, named name, with no limit on its findings.
func lintFile(t testing.TB, name, src string) *lint.Report {
	t.Helper()
	r, err := lint.Run([]lint.Input{lint.Bytes(name, []byte(src))}, lint.Options{MaxFindings: -1})
	if err != nil {
		t.Fatalf("Run(%s): %v", name, err)
	}
	return r
}

// validationRules are the rules of the checks made of what was read (package validate,
// resolve and fit, and the suppression comments): every other finding is one of reading
// and decoding.
var validationRules = map[string]bool{
	"R1": true, "R2": true, "R3": true, "R4": true, "R6": true, "R7": true, "R8": true, "R9": true, "R10": true,
	"metadata": true, "request-above-limit": true, "resource-name": true, "fit": true, "compute-not-found": true,
	"suppression": true,
}

// reading returns the findings of reading and decoding among fs: those a file has
// whatever the catalog, the nodes and the rules of validation make of it.
func reading(fs []lint.Finding) []lint.Finding {
	var out []lint.Finding
	for _, f := range fs {
		if !validationRules[f.Rule()] {
			out = append(out, f)
		}
	}
	return out
}

// readFile returns the findings of reading and decoding the file src, named name.
func readFile(t testing.TB, name, src string) []lint.Finding {
	t.Helper()
	return reading(lintFile(t, name, src).Findings)
}

// skips renders the documents skipped as FILE:LINE.
func skips(r *lint.Report) []string {
	var out []string
	for _, s := range r.Skipped {
		out = append(out, fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	return out
}

// slow skips a test unless INSTANCETYPES_SLOW_TESTS is set, as .ci/run sets it.
func slow(t *testing.T) {
	t.Helper()
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
}

// sized is small in the quick run of the tests, large with INSTANCETYPES_SLOW_TESTS set:
// the size of an input whose cost is the test's point.
func sized(small, large int) int {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		return small
	}
	return large
}
