// Package strict decodes values as kubectl sends them (package source) into Go types,
// strictly, as the API server's strict decoding judges them: every problem is a
// field.Error at its path, and decoding goes on past it. Packages decode and azureml share
// it.
package strict

import (
	"encoding/json"
	"errors"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/textdist"
	"github.com/amlarc-go/instancetypes/source"
)

// Written is what a decoder asks of the text a value comes from: the scalar written at a
// path (relative to the document), so that a finding can quote a value as it was written
// ("yes", where kubectl sends true). *source.Document is one; nil is none, and findings
// then quote the value kubectl sends.
type Written interface {
	Scalar(path string) (source.Scalar, bool)
}

// Decoder walks a value as kubectl sends it into a Go type, strictly: one walk over each
// mapping, driven by the table of the type's fields (fieldsOf), collecting every problem
// as a field.Error at its path, so that all of them are reported at once. Decoding goes on
// past each problem with the zero value in its place.
type Decoder struct {
	// Src is the document the values come from, whose text findings quote values
	// from; nil for none.
	Src Written
	// Errs are the findings so far.
	Errs field.ErrorList
}

var (
	amountType       = reflect.TypeFor[instancetype.Amount]()
	resourceListType = reflect.TypeFor[instancetype.ResourceList]()
	unmarshalerType  = reflect.TypeFor[json.Unmarshaler]()
)

// Into decodes v into rv, a settable value, at path p.
func (d *Decoder) Into(v any, rv reflect.Value, p *field.Path) {
	t := rv.Type()
	switch {
	case t == amountType:
		rv.Set(reflect.ValueOf(d.Amount(v, p)))
	case t == resourceListType:
		if l := d.ResourceList(v, p); l != nil {
			rv.Set(reflect.ValueOf(l))
		}
	case t.Kind() == reflect.String:
		rv.SetString(d.Str(v, p, false))
	case t.Kind() == reflect.Pointer:
		if v != nil {
			e := reflect.New(t.Elem())
			d.Into(v, e.Elem(), p)
			rv.Set(e)
		}
	case reflect.PointerTo(t).Implements(unmarshalerType) || t.Kind() != reflect.Struct && t.Kind() != reflect.Map && t.Kind() != reflect.Slice:
		d.ViaJSON(v, rv, p)
	case t.Kind() == reflect.Struct:
		d.Object(v, rv, p)
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String:
		m, ok := d.Mapping(v, p)
		if !ok {
			return
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for _, k := range SortedKeys(m) {
			e := reflect.New(t.Elem()).Elem()
			if t.Elem().Kind() == reflect.String {
				e.SetString(d.Str(m[k], p.Key(k), true))
			} else {
				d.Into(m[k], e, p.Key(k))
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), e)
		}
		rv.Set(out)
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		l, ok := v.([]any)
		if !ok {
			if v != nil {
				d.WrongType(v, p, "a list")
			}
			return
		}
		out := reflect.MakeSlice(t, len(l), len(l))
		for i, e := range l {
			d.Into(e, out.Index(i), p.Index(i))
		}
		rv.Set(out)
	default:
		d.ViaJSON(v, rv, p)
	}
}

// Object decodes the mapping v into the struct rv at path p: each key by the struct's
// field of that JSON name, matched exactly (as strict decoding matches; a key that
// differs in case is unknown); an unknown key is a finding (UnknownField), as
// apimachinery's strict decoding reports it, with the field most likely meant.
func (d *Decoder) Object(v any, rv reflect.Value, p *field.Path) {
	m, ok := d.Mapping(v, p)
	if !ok {
		return
	}
	fs := fieldsOf(rv.Type())
	for _, k := range SortedKeys(m) {
		index, ok := fs.byName[k]
		if !ok {
			d.Unknown(k, fs.names, p.Child(k))
			continue
		}
		d.Into(m[k], rv.FieldByIndex(index), p.Child(k))
	}
}

// fields is the table of a struct type's fields, by JSON name, those of inlined structs
// included.
type fields struct {
	byName map[string][]int
	names  []string // in the order of the struct
}

var fieldCache sync.Map // reflect.Type → *fields

// fieldsOf returns the table of the struct type t's fields, built once.
func fieldsOf(t reflect.Type) *fields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*fields)
	}
	fs := &fields{byName: map[string][]int{}}
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			at := append(slices.Clip(index), i)
			switch {
			case name == "-" || !f.IsExported() && !f.Anonymous:
			case name == "" && (strings.Contains(","+opts+",", ",inline,") || f.Anonymous) && f.Type.Kind() == reflect.Struct:
				walk(f.Type, at)
			case name != "":
				if _, dup := fs.byName[name]; !dup {
					fs.byName[name] = at
					fs.names = append(fs.names, name)
				}
			}
		}
	}
	walk(t, nil)
	f, _ := fieldCache.LoadOrStore(t, fs)
	return f.(*fields)
}

// FieldNames returns the JSON names of the fields of the struct type t, those of inlined
// structs included, in order: the known fields of an unknown-field finding.
func FieldNames(t reflect.Type) []string { return fieldsOf(t).names }

// Unknown reports the field key at p, which the schema does not have.
func (d *Decoder) Unknown(key string, known []string, p *field.Path) {
	d.Errs = append(d.Errs, UnknownField(key, known, p))
}

// UnknownField is the finding of a field key, at p, that a schema of the known fields
// lacks, as apimachinery's strict decoding reports it (unknown field "status"), with the
// field most likely meant or the known ones. Its Origin is rules' unknown-field.
func UnknownField(key string, known []string, p *field.Path) *field.Error {
	detail := "unknown field " + clip.Quote(key)
	if s := Closest(key, known); s != "" {
		detail += "; did you mean " + strconv.Quote(s) + "?"
	} else {
		detail += "; known fields: " + strings.Join(known, ", ")
	}
	return field.Forbidden(p, detail).WithOrigin(rules.UnknownField)
}

// Closest returns the known name most likely meant by key: equal but for case, or the one
// nearest within a small edit distance (one edit for names of up to four letters, two for
// longer ones; a swap of two letters is one), when no other is as near; "" for none.
func Closest(key string, known []string) string {
	best, bestDist, ties := "", 3, 0
	for _, k := range known {
		limit := 2
		if len(k) <= 4 {
			limit = 1
		}
		dist := textdist.Distance(key, k, limit)
		switch {
		case dist > limit || dist > bestDist:
		case dist < bestDist:
			best, bestDist, ties = k, dist, 0
		default:
			ties++
		}
	}
	if ties > 0 {
		return ""
	}
	return best
}

// SortedKeys returns the keys of m in order, so that findings come in the same order
// every time.
func SortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// Mapping returns v as a mapping, reporting what is neither a mapping nor null.
func (d *Decoder) Mapping(v any, p *field.Path) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok && v != nil {
		d.WrongType(v, p, "a mapping")
	}
	return m, ok
}

// WrongType reports the value v at p, of the wrong kind: decoding refuses it.
func (d *Decoder) WrongType(v any, p *field.Path, want string) {
	d.Errs = append(d.Errs, field.TypeInvalid(p, d.Shown(v, p), "must be "+want+", not "+KindName(v)).WithOrigin(rules.WrongType))
}

// Str decodes a string. A number or a boolean where a string belongs is a finding, as the
// API server's schema check would make it, which says how kubectl reads what is written
// and that quoting it fixes it. null is "", or, with nullIsWrong (a map's value, such as
// a label's), a finding too.
func (d *Decoder) Str(v any, p *field.Path, nullIsWrong bool) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any, []any:
		d.WrongType(v, p, "a string")
		return ""
	case nil:
		if !nullIsWrong {
			return ""
		}
	}
	w, written := d.WrittenAs(v, p)
	var detail string
	switch {
	case v != nil:
		detail = "must be a string, not " + KindName(v) + sends(v, w) + "; quote it: " + clip.Quote(w)
	case !written || w == "":
		detail, w = "must be a string, not null; write a value, or remove the key", ""
	case w == "null":
		detail = "must be a string, not null; quote it, \"null\", or remove the key"
	default:
		detail = "must be a string, not null (kubectl sends " + w + " as null); quote it, " + strconv.Quote(w) + ", or remove the key"
	}
	d.Errs = append(d.Errs, field.TypeInvalid(p, clip.String(w), detail).WithOrigin(rules.WrongType))
	return ""
}

// WrittenAs returns the scalar at p as written, or, without it, the JSON text of v.
func (d *Decoder) WrittenAs(v any, p *field.Path) (string, bool) {
	if d.Src != nil {
		if s, ok := d.Src.Scalar(p.String()); ok {
			return s.Value, true
		}
	}
	return JSONText(v), false
}

// Shown is what a finding shows of a value: a scalar as written, clipped; nothing of a
// collection.
func (d *Decoder) Shown(v any, p *field.Path) any {
	switch v.(type) {
	case map[string]any, []any:
		return field.OmitValueType{}
	}
	w, _ := d.WrittenAs(v, p)
	return clip.String(w)
}

// sends says what kubectl sends for a value that is not a string, when that differs from
// what is written: ", which kubectl sends as true".
func sends(v any, written string) string {
	if j := JSONText(v); j != written {
		return ", which kubectl sends as " + j
	}
	return ""
}

// JSONText is the JSON text of a scalar value.
func JSONText(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return string(v)
	case string:
		return v
	}
	return ""
}

// KindName names the kind of a value for messages.
func KindName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a string"
}

// Amount decodes one resource value: a string, as written, or a number, as the JSON
// number kubectl sends (Kubernetes accepts both); null is unset.
func (d *Decoder) Amount(v any, p *field.Path) instancetype.Amount {
	switch v := v.(type) {
	case nil:
		return instancetype.Amount{}
	case string:
		return instancetype.AmountFromString(v)
	case json.Number:
		return instancetype.ParseAmount(string(v))
	}
	d.WrongType(v, p, "a quantity such as \"500m\" or \"2Gi\"")
	return instancetype.Amount{}
}

// ResourceList decodes an instance type's requests or limits: resource names to amounts,
// each an int-or-string value (IntOrString). Names are kept as written; package validate
// judges them.
func (d *Decoder) ResourceList(v any, p *field.Path) instancetype.ResourceList {
	m, ok := d.Mapping(v, p)
	if !ok {
		return nil
	}
	l := make(instancetype.ResourceList, len(m))
	for _, k := range SortedKeys(m) {
		l[instancetype.ResourceName(k)] = d.IntOrString(m[k], p.Key(k))
	}
	return l
}

// IntOrString decodes one resource value of an instance type, which the CRD types
// x-kubernetes-int-or-string: a string, or a number that reaches the API server as an
// integer of 64 bits. kubectl reads every number as an int64 or, failing that, a float64,
// and writes a float64 back as encoding/json does: a whole one below 2^63 in magnitude as
// the integer it is (1.0 and 1e3 are sent as 1 and 1000), which is then read so, and is
// decoded so here. Any other number (1.5, 1e-3, 1e19) reaches the API server as a float,
// which its schema (or, when whole, its CEL rules) refuses: a finding (rule wrong-type)
// that says to quote it; its value is still read as written, and the finding refuses it
// (Refuses), so that validation does not restate it.
func (d *Decoder) IntOrString(v any, p *field.Path) instancetype.Amount {
	n, ok := v.(json.Number)
	if !ok {
		return d.Amount(v, p)
	}
	if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return instancetype.ParseAmount(string(n))
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err == nil && f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
		// (float64(math.MaxInt64) is 2^63: the comparison is exact.)
		return instancetype.ParseAmount(strconv.FormatInt(int64(f), 10))
	}
	w, _ := d.WrittenAs(v, p)
	detail := "must be a string or an integer, not a number with a fraction: the API server's schema for instance types refuses it; quote it: " + clip.Quote(string(n))
	if err == nil && f == math.Trunc(f) {
		detail = "must be at most 9223372036854775807 in magnitude: the API server reads a larger number as a float, which its schema for instance types refuses"
	}
	d.Errs = append(d.Errs, field.TypeInvalid(p, clip.String(w), detail).WithOrigin(rules.WrongType))
	return instancetype.ParseAmount(string(n))
}

// ViaJSON decodes v into rv through encoding/json, for the types that read their own JSON
// (metav1.Time, FieldsV1) and the scalars that are not strings (integers, booleans).
func (d *Decoder) ViaJSON(v any, rv reflect.Value, p *field.Path) {
	if v == nil {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		e := reflect.New(rv.Type())
		if err = json.Unmarshal(b, e.Interface()); err == nil {
			rv.Set(e.Elem())
			return
		}
	}
	d.Errs = append(d.Errs, field.Invalid(p, d.Shown(v, p), jsonProblem(err)).WithOrigin(rules.WrongType))
}

// jsonProblem shortens an encoding/json error to what a user can act on.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "must be " + jsonTypeName(te.Type) + ", not " + jsonValueName(te.Value)
	}
	return err.Error()
}

// jsonValueName names, as the other findings do, the kind of JSON value that
// encoding/json's UnmarshalTypeError names ("array", "number 1.5", "object").
func jsonValueName(v string) string {
	kind, _, _ := strings.Cut(v, " ")
	switch kind {
	case "array":
		return "a list"
	case "object":
		return "a mapping"
	case "bool":
		return "a boolean"
	case "number":
		return "a number"
	case "string":
		return "a string"
	}
	return Article(v)
}

// jsonTypeName names a Go type as the kind of JSON value it takes.
func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return Article(t.String())
}

// Article returns s after "a" or "an", as its first letter asks (a U is taken as in
// "a User").
func Article(s string) string {
	if s != "" && strings.ContainsRune("AEIOaeio", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}
