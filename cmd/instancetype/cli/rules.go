package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/amlarc-go/instancetypes/lint"
)

// rules prints the rules, one a line: id, what it checks, where the docs explain it.
func (p Program) rules(args []string, e Env) int {
	if wantsHelp(args) {
		fmt.Fprint(e.Stdout, p.help("rules"))
		return ExitOK
	}
	if len(args) > 0 {
		fmt.Fprintf(e.Stderr, "%s rules: takes no arguments\n\n%s", p.name(), p.help("rules"))
		return ExitUsage
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	for _, r := range lint.Rules() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Summary, r.Doc)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(e.Stderr, "%s rules: writing output: %s\n", p.name(), EscapeMessage(err.Error()))
		return ExitUsage
	}
	return ExitOK
}
