package manifest

import (
	"cmp"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Finding is a problem at a place in a file.
type Finding struct {
	// File is the name of the file.
	File string
	// Position is where in the file: the offending node, or its nearest existing parent.
	Position
	// Err is the problem: its type, its field path relative to the document ("" for the
	// document or the file as a whole), the bad value and a detail.
	Err *field.Error
}

// String renders the finding as FILE:LINE: FIELD: MESSAGE, or FILE:LINE: MESSAGE when it
// is not about a field.
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
	return string(b)
}

// Message is the finding without its place: the error's body ("Required value",
// `Invalid value: "0": must be greater than zero`), or only the detail for a finding
// about no field, such as a syntax error.
func (f Finding) Message() string {
	if f.Err.Field == "" {
		return f.Err.Detail
	}
	return f.Err.ErrorBody()
}

// sortFindings orders findings by file, line and column, keeping the order of findings at
// the same place.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
}

// fileError returns a finding about a file as a whole, or a place in it outside any
// field, such as a syntax error.
func fileError(file string, pos Position, detail string) Finding {
	return Finding{File: file, Position: pos, Err: &field.Error{
		Type: field.ErrorTypeInvalid, BadValue: field.OmitValueType{}, Detail: detail,
	}}
}
