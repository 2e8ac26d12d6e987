package manifest_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
)

// bigList returns an InstanceTypeList of n valid items, each with a node selector,
// requests and limits, in flow and block style.
func bigList(n int) []byte {
	var b bytes.Buffer
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, `- metadata:
    name: it-%d
  spec:
    nodeSelector:
      pool: pool-%d
    resources:
      requests: {cpu: "%dm", memory: "%dMi"}
      limits: {cpu: "%d", memory: "%dGi", nvidia.com/gpu: %d}
`, i, i%7, 100+i%900, 256+i%1024, 1+i%8, 2+i%16, i%2)
	}
	return b.Bytes()
}

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
func locs(fs []manifest.Finding) []loc {
	out := make([]loc, 0, len(fs))
	for _, f := range fs {
		out = append(out, loc{f.Line, f.Err.Field, f.TypeName()})
	}
	return out
}

// parse parses src, less its leading line break, as test.yaml.
func parse(src string) *manifest.File {
	return manifest.Parse("test.yaml", []byte(strings.TrimPrefix(src, "\n")))
}

// amounts renders a resource list as text, for comparing.
func amounts(l instancetype.ResourceList) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// messages renders findings one a line, as String does, for failure messages.
func messages(fs []manifest.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n\t")
		b.WriteString(f.String())
	}
	return b.String()
}

// typeHeader is the first two lines of an InstanceType document.
const typeHeader = "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\n"

// slow skips a test unless INSTANCETYPES_SLOW_TESTS is set, as .ci/run sets it: the heavy
// tests of cost, which compare processor times and are left out of the README's quick
// test run.
func slow(t *testing.T) {
	t.Helper()
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
}

// sized is small in the quick run of the tests, large with INSTANCETYPES_SLOW_TESTS set: the
// size of an input whose cost is the test's point.
func sized(small, large int) int {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		return small
	}
	return large
}
