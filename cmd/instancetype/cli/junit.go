package cli

import (
	"encoding/xml"
	"fmt"
	"strconv"

	"github.com/amlarc-go/instancetypes/lint"
)

// JUnit XML, as GitLab (artifacts:reports:junit) and Jenkins (the junit step) read it: one
// test suite for the run; one test case per finding, failed, named by its place and rule
// and classed by its file; one per suppressed finding, skipped, with what suppressed it;
// and, when there are neither, one passing case, so that the report is never empty. The
// summary is the suite's system-out.

type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name      string      `xml:"name,attr"`
		Tests     int         `xml:"tests,attr"`
		Failures  int         `xml:"failures,attr"`
		Errors    int         `xml:"errors,attr"`
		Skipped   int         `xml:"skipped,attr"`
		Cases     []junitCase `xml:"testcase"`
		SystemOut string      `xml:"system-out,omitempty"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Line      int           `xml:"line,attr,omitempty"`
		Failure   *junitFailure `xml:"failure"`
		Skipped   *junitSkipped `xml:"skipped"`
	}
	junitFailure struct {
		Type    string `xml:"type,attr"`
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr"`
	}
)

func (w writer) junit(r *lint.Report) error {
	name := w.program + " " + w.cmd
	suite := junitSuite{Name: name, SystemOut: summary(r, w.catalogHint)}
	place := func(f lint.Finding) string {
		s := f.File + ":" + strconv.Itoa(f.Line)
		if f.Err.Field != "" {
			s += ": " + f.Err.Field
		}
		return s + " (" + f.Rule() + ")"
	}
	for _, f := range r.Findings {
		suite.Cases = append(suite.Cases, junitCase{
			Name: place(f), Classname: f.File, File: f.File, Line: f.Line,
			Failure: &junitFailure{Type: f.Rule(), Message: findingText(f),
				Text: f.File + ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Column) + ": " + findingText(f)},
		})
		suite.Failures++
	}
	for _, s := range r.Suppressed {
		suite.Cases = append(suite.Cases, junitCase{
			Name: place(s.Finding), Classname: s.File, File: s.File, Line: s.Line,
			Skipped: &junitSkipped{Message: "suppressed by " + s.By + ": " + findingText(s.Finding)},
		})
		suite.Skipped++
	}
	if len(suite.Cases) == 0 {
		suite.Cases = []junitCase{{Name: "no problems", Classname: w.program}}
	}
	suite.Tests = len(suite.Cases)
	out := junitSuites{Name: name, Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Suites: []junitSuite{suite}}
	b, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w.Stdout, "%s%s\n", xml.Header, b); err != nil {
		return err
	}
	_, err = fmt.Fprintln(w.Stderr, summary(r, w.catalogHint))
	return err
}
