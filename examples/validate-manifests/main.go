// Validate-manifests lints manifests as `instancetype validate` does, with one library
// call: lint.Run reads the inputs as kubectl reads them, checks every instance type and
// every deployment and job against the catalog the instance types form, and returns the
// findings sorted, each with its file, line and field path. This program prints them as
// FILE:LINE: FIELD: MESSAGE [RULE] — exactly the lines the command prints — and exits 1 when there
// are any.
//
// With no arguments it lints the manifests embedded in package examples (the source
// document's and the deliberately broken ones); given paths, it lints those:
//
//	go run ./examples/validate-manifests
//	go run ./examples/validate-manifests examples/manifests examples/broken
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/lint"
)

func main() {
	inputs := []lint.Input{lint.FS(examples.Manifests, "."), lint.FS(examples.Broken, ".")}
	if len(os.Args) > 1 {
		inputs = inputs[:0]
		for _, p := range os.Args[1:] {
			inputs = append(inputs, lint.Path(p))
		}
	}
	n, err := run(os.Stdout, inputs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate-manifests:", err)
		os.Exit(2)
	}
	if n > 0 {
		os.Exit(1)
	}
}

// run lints the inputs, prints every finding, and returns how many there are.
func run(w io.Writer, inputs []lint.Input) (int, error) {
	report, err := lint.Run(inputs, lint.Options{})
	if err != nil {
		return 0, err
	}
	for _, f := range report.Findings {
		fmt.Fprintln(w, f) // FILE:LINE: FIELD: MESSAGE [RULE]
	}
	fmt.Fprintf(w, "%d findings; %d files, %d documents checked, %d skipped\n",
		len(report.Findings), report.Files, report.Documents, len(report.Skipped))
	return len(report.Findings), nil
}
