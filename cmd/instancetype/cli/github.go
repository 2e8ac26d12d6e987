package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/amlarc-go/instancetypes/lint"
)

// GitHub Actions workflow commands (https://docs.github.com/actions/reference/workflow-commands-for-github-actions):
// one ::error command per finding, which the runner shows as an annotation at its file
// and line, titled by its rule and field; suppressed findings are left out. Values are escaped as the runner unescapes
// them: % CR and LF in the message; those and : and , in properties. Other control
// characters are written escaped, as in the text output.

func (w writer) github(r *lint.Report) error {
	for _, f := range r.Findings {
		props := "file=" + ghProperty(f.File)
		if f.Line > 0 {
			props += ",line=" + strconv.Itoa(f.Line)
			if f.Column > 0 {
				props += ",col=" + strconv.Itoa(f.Column)
			}
		}
		title := f.Rule()
		if f.Err.Field != "" {
			title += " " + f.Err.Field
		}
		props += ",title=" + ghProperty(title)
		if _, err := fmt.Fprintf(w.Stdout, "::error %s::%s\n", props, ghData(f.Message())); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w.Stderr, summary(r, w.catalogHint))
	return err
}

var (
	ghDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// ghData escapes the message of a workflow command. Control characters are first written
// escaped, as the text output writes them, so that input cannot reach the log raw.
func ghData(s string) string { return ghDataEscaper.Replace(Escape(s)) }

// ghProperty escapes the value of a property of a workflow command.
func ghProperty(s string) string { return ghPropertyEscaper.Replace(Escape(s)) }
