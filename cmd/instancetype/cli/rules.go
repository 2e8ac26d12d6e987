package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/lint"
)

// jsonRule is a rule as rules -o json prints it: Doc is the link to its documentation
// (Rule.HelpURI). Field names and order are a contract.
type jsonRule struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Summary string `json:"summary"`
	Doc     string `json:"doc"`
}

// rules prints the rules: with -o text (the default) one a line, id, what it checks and
// where the docs explain it; with -o json {"rules":[{"id","name","summary","doc"}]}.
func (p Program) rules(args []string, e Env) int {
	if wantsHelp(args) {
		fmt.Fprint(e.Stdout, p.help("rules"))
		return ExitOK
	}
	var output string
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&output, "o", "text", "")
	fs.StringVar(&output, "output", "text", "")
	if err := fs.Parse(splitShortOutput(args)); err != nil {
		fmt.Fprintf(e.Stderr, "%s rules: %s\n\n%s", p.name(), EscapeMessage(err.Error()), p.help("rules"))
		return ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "%s rules: takes no arguments\n\n%s", p.name(), p.help("rules"))
		return ExitUsage
	}
	var err error
	switch output {
	case "text":
		tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
		for _, r := range lint.Rules() {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Summary, r.Doc)
		}
		err = tw.Flush()
	case "json":
		out := struct {
			Rules []jsonRule `json:"rules"`
		}{[]jsonRule{}}
		for _, r := range lint.Rules() {
			out.Rules = append(out.Rules, jsonRule{ID: r.ID, Name: r.Name, Summary: r.Summary, Doc: r.HelpURI()})
		}
		enc := json.NewEncoder(escapedJSON{e.Stdout})
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	default:
		// %q escapes what the format's name holds once; clipped, a huge one is a short message.
		fmt.Fprintf(e.Stderr, "%s rules: unknown output format %q: want text or json\n", p.name(), clip.String(output))
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s rules: writing output: %s\n", p.name(), EscapeMessage(err.Error()))
		return ExitUsage
	}
	return ExitOK
}
