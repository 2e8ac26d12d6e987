package cli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/amlarc-go/instancetypes/lint"
)

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), the
// format of code scanning: one run of one tool, every rule of lint.Rules in its driver,
// one result per finding, and a result with a suppression per suppressed finding. A
// finding's file is an artifact URI relative to the working directory (%SRCROOT%), as
// GitHub code scanning resolves it against the repository; columns count Unicode code
// points, as findings count characters.

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// informationURI is the tool's home.
const informationURI = "https://github.com/amlarc-go/instancetypes"

type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		ColumnKind string        `json:"columnKind"`
		Results    []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string        `json:"id"`
		Name                 string        `json:"name"`
		ShortDescription     sarifText     `json:"shortDescription"`
		Help                 sarifText     `json:"help"`
		HelpURI              string        `json:"helpUri"`
		DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
	}
	sarifRuleConf struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID       string             `json:"ruleId"`
		RuleIndex    int                `json:"ruleIndex"`
		Level        string             `json:"level"`
		Message      sarifText          `json:"message"`
		Locations    []sarifLocation    `json:"locations,omitempty"`
		Suppressions []sarifSuppression `json:"suppressions,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	sarifSuppression struct {
		Kind          string `json:"kind"`
		Status        string `json:"status"`
		Justification string `json:"justification"`
	}
)

func (w writer) sarif(r *lint.Report) error {
	rules := lint.Rules()
	index := make(map[string]int, len(rules))
	driver := sarifDriver{Name: "instancetype", Version: sarifVersion(version()), InformationURI: informationURI}
	for i, rule := range rules {
		index[rule.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID: rule.ID, Name: rule.Name,
			ShortDescription: sarifText{sentence(rule.Summary)},
			Help:             sarifText{sentence(rule.Summary) + " See " + rule.HelpURI()},
			HelpURI:          rule.HelpURI(), DefaultConfiguration: sarifRuleConf{Level: "error"},
		})
	}
	result := func(f lint.Finding) sarifResult {
		res := sarifResult{RuleID: f.Rule(), RuleIndex: index[f.Rule()], Level: "error", Message: sarifText{findingText(f)}}
		if loc, ok := sarifLocationOf(f); ok {
			res.Locations = []sarifLocation{loc}
		}
		return res
	}
	results := make([]sarifResult, 0, len(r.Findings)+len(r.Suppressed))
	for _, f := range r.Findings {
		results = append(results, result(f))
	}
	for _, s := range r.Suppressed {
		res := result(s.Finding)
		kind := "external"
		if s.InSource {
			kind = "inSource"
		}
		res.Suppressions = []sarifSuppression{{Kind: kind, Status: "accepted", Justification: "suppressed by " + s.By}}
		results = append(results, res)
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{
		Tool: sarifTool{Driver: driver}, ColumnKind: "unicodeCodePoints", Results: results,
	}}}
	enc := json.NewEncoder(escapedJSON{w.Stdout})
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w.Stderr, summary(r, w.catalogHint))
	return err
}

// sarifVersion is the module version v as SARIF wants a version, starting with a digit:
// 0.1.0 for v0.1.0, 0.0.0-devel for (devel).
func sarifVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "0.0.0-" + strings.Trim(v, "()")
	}
	return v
}

// sentence is s with a capital first letter and a full stop, as SARIF's messages are.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// findingText is a finding without its place: FIELD: MESSAGE, or MESSAGE.
func findingText(f lint.Finding) string {
	if f.Err.Field != "" {
		return f.Err.Field + ": " + f.Message()
	}
	return f.Message()
}

// sarifLocationOf is the place of a finding: its file as a URI reference relative to the
// working directory (an absolute path as a file URI), its line and column.
func sarifLocationOf(f lint.Finding) (sarifLocation, bool) {
	if f.File == "" {
		return sarifLocation{}, false
	}
	art := sarifArtifact{}
	p := filepath.ToSlash(f.File)
	if filepath.IsAbs(f.File) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // C:/x on Windows
		}
		art.URI = (&url.URL{Scheme: "file", Path: p}).String()
	} else {
		art.URI, art.URIBaseID = (&url.URL{Path: p}).String(), "%SRCROOT%"
	}
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: art}}
	if f.Line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line, StartColumn: max(f.Column, 0)}
	}
	return loc, true
}
