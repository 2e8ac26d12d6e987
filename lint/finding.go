package lint

import (
	"cmp"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/source"
)

// Position is a place in a file: lines and columns count from 1; a column counts
// characters.
type Position = source.Position

// FindingType names a kind of finding that is not about the value of a field, for
// machine-readable output. A finding about a field's value has none: its type is that of
// its field.Error (FieldValueInvalid, FieldValueRequired, …).
type FindingType string

// The finding types of problems that are not about a field's value.
const (
	// SyntaxError: the file is not YAML or JSON that kubectl reads: a syntax error, an
	// alias to an unknown anchor, an invalid document separator, a last line kubectl's
	// line reader loses.
	SyntaxError FindingType = "SyntaxError"
	// UnknownField: a field the schema does not have, as apimachinery's strict decoding
	// reports it (unknown field "status").
	UnknownField FindingType = "UnknownField"
	// UnreadableFile: a file or directory that cannot be read, or a dangling symlink.
	UnreadableFile FindingType = "UnreadableFile"
	// InputLimit: input beyond one of the reader's limits (a file too large, a document
	// nested too deep or aliased too much), which is not read.
	InputLimit FindingType = "InputLimit"
	// TooManyFindings: the findings of a file beyond the most reported for one file, counted.
	TooManyFindings FindingType = "TooManyFindings"
	// SuppressionProblem: a suppression comment (# instancetype:ignore RULE) that names no
	// rule, a rule that does not exist, or suppresses nothing.
	SuppressionProblem FindingType = "Suppression"
	// Note: not a finding but a note of Report.Notes, about what is accepted and has no
	// effect (an InstanceType's metadata.namespace). It has no rule id.
	Note FindingType = "Note"
)

// Finding is a problem at a place in a file.
type Finding struct {
	// File is the name of the file.
	File string
	// Position is where in the file: the offending node, or its nearest existing parent.
	Position
	// Cell and CellLine are, for a finding in a Jupyter notebook, the cell (1-based among
	// all cells) and the line within it of Position, which is the line of the .ipynb file;
	// 0 elsewhere.
	Cell, CellLine int
	// Err is the problem: its type, its field path relative to the document ("" for the
	// document or the file as a whole), the bad value and a detail. It is never nil.
	Err *field.Error
	// Type is set for a problem that is not about a field's value (a syntax error, an
	// unknown field, an unreadable file); Err then carries its path and message, with a
	// field.ErrorType that apierrors accepts.
	Type FindingType
}

// Rule is the finding's rule id, which suppressions name and machine-readable output
// carries: the Origin of its error when set (package validate and resolve set R1 to R10
// and the ids of the checks the source document does not number, this package those of
// its decoding problems, package fit "fit"), else the id of its Type (SyntaxError is
// "syntax", UnknownField "unknown-field", InputLimit "input-limit", UnreadableFile
// "unreadable", TooManyFindings "too-many-findings", SuppressionProblem "suppression"). Rules lists
// every id.
func (f Finding) Rule() string {
	if f.Err.Origin != "" {
		return f.Err.Origin
	}
	return typeRule(f.Type)
}

// typeRule is the rule id of a finding of type t, "" for none.
func typeRule(t FindingType) string {
	switch t {
	case SyntaxError:
		return rules.Syntax
	case UnknownField:
		return rules.UnknownField
	case UnreadableFile:
		return rules.Unreadable
	case InputLimit:
		return rules.InputLimit
	case TooManyFindings:
		return rules.TooManyFindings
	case SuppressionProblem:
		return rules.Suppression
	}
	return ""
}

// TypeName is the finding's type as machine-readable output names it: Type when set, else
// the field.ErrorType of Err ("FieldValueInvalid").
func (f Finding) TypeName() string {
	if f.Type != "" {
		return string(f.Type)
	}
	return string(f.Err.Type)
}

// String renders the finding as the command's text output prints it:
// FILE:LINE: FIELD: MESSAGE [RULE], or FILE:LINE: MESSAGE [RULE] when it is not about a
// field (the rule id last, so that "# instancetype:ignore RULE" can be written from it).
// It does not escape anything: a command-line tool printing findings of untrusted input
// should escape control characters.
func (f Finding) String() string {
	b := make([]byte, 0, 64)
	b = append(b, f.File...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(f.Line), 10)
	b = append(b, ": "...)
	if f.Err.Field != "" {
		b = append(b, f.Err.Field...)
		b = append(b, ": "...)
	}
	b = append(b, f.Message()...)
	if rule := f.Rule(); rule != "" {
		b = append(b, " ["...)
		b = append(b, rule...)
		b = append(b, ']')
	}
	return string(b)
}

// Message is the finding without its place: the error's body ("Required value",
// `Invalid value: "0": must be greater than zero`), or only the detail for a finding with
// a Type (`unknown field "status"`, a syntax error).
func (f Finding) Message() string {
	if f.Type != "" || f.Err.Field == "" {
		return f.Err.Detail
	}
	return f.Err.ErrorBody()
}

// sortByPlace orders findings by file, line and column, keeping the order of findings at
// the same place.
func sortByPlace(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
}

// fileProblem returns a finding about a file as a whole, or a place in it outside any
// field, such as a syntax error.
func fileProblem(file string, pos Position, t FindingType, detail string) Finding {
	return Finding{File: file, Position: pos, Type: t, Err: &field.Error{
		Type: field.ErrorTypeInvalid, BadValue: field.OmitValueType{}, Detail: detail, Origin: typeRule(t),
	}}
}

// fileProblemAt returns a finding of type t about the file as a whole, at its first line,
// or at the given line when it is positive, such as an unreadable file met in a walk.
func fileProblemAt(file string, line int, t FindingType, detail string) Finding {
	return fileProblem(file, Position{Line: max(line, 1), Column: 1}, t, detail)
}
