package selector

import (
	"strings"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Length limits of the label grammar, as Kubernetes sets them.
const (
	maxPrefixLen = 253 // DNS-1123 subdomain
	maxNameLen   = 63  // name part of a key, and a value
)

// ValidLabelKey reports whether k is a valid Kubernetes label key: an
// optional DNS-1123 subdomain prefix of at most 253 bytes and a '/', then a
// name of 1 to 63 bytes of [A-Za-z0-9-_.] that starts and ends with
// [A-Za-z0-9] (see the package documentation for the grammar).
//
// It accepts exactly the strings for which apimachinery's content.IsLabelKey
// returns no error, and does not allocate.
func ValidLabelKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] == '/' {
			// A second '/' lands in the name, where validName refuses it.
			return validPrefix(k[:i]) && validName(k[i+1:])
		}
	}
	return validName(k)
}

// ValidLabelValue reports whether v is a valid Kubernetes label value: empty,
// or 1 to 63 bytes of [A-Za-z0-9-_.] that start and end with [A-Za-z0-9].
//
// It accepts exactly the strings for which apimachinery's
// content.IsLabelValue returns no error, and does not allocate.
func ValidLabelValue(v string) bool {
	return v == "" || validName(v)
}

// validName checks the name part of a label key: 1 to 63 bytes of
// [A-Za-z0-9-_.], alphanumeric at both ends.
func validName(s string) bool { return len(s) <= maxNameLen && nameForm(s) }

// nameForm reports whether s, of any length, is of the form of a name: bytes of
// [A-Za-z0-9-_.], at least one, alphanumeric at both ends.
func nameForm(s string) bool {
	n := len(s)
	if n == 0 || !isAlnum(s[0]) || !isAlnum(s[n-1]) {
		return false
	}
	for i := 1; i < n-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// validPrefix checks a lowercase DNS-1123 subdomain of at most 253 bytes:
// labels of [a-z0-9-] separated by single dots, each starting and ending
// with [a-z0-9]. The per-label limit of 63 bytes of DNS is not applied,
// because Kubernetes does not apply it here either.
func validPrefix(s string) bool { return len(s) <= maxPrefixLen && prefixForm(s) }

// prefixForm reports whether s, of any length, is of the form of a DNS-1123 subdomain.
func prefixForm(s string) bool {
	n := len(s)
	if n == 0 || !isLowerAlnum(s[n-1]) {
		return false
	}
	for i := 0; i < n; i++ {
		switch c := s[i]; {
		case isLowerAlnum(c):
		case c == '-':
			// Not the first byte of a label. That it is not the last
			// is enforced by the '.' case and the final-byte check.
			if i == 0 || s[i-1] == '.' {
				return false
			}
		case c == '.':
			// Must close a label that ends in an alphanumeric: this also
			// refuses a leading dot and two dots in a row.
			if i == 0 || !isLowerAlnum(s[i-1]) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || 'A' <= c && c <= 'Z' }

// ValidateLabels checks every key and value of m against the label grammar
// and returns one field.Invalid error per bad key and one per bad value,
// with the key in the path (fldPath.Key(k), rendered as
// spec.nodeSelector[my label]): a bad key is reported with the key as the
// bad value, a bad value with the value. The detail text is the one
// Kubernetes gives (content.IsLabelKey or content.IsLabelValue, joined with
// "; "). Errors are sorted by key; for one key, the key error comes before
// the value error. fldPath may be nil.
//
// A valid (or empty) m yields nil without allocating. The time taken grows linearly with
// the number of entries and the length of their keys, however many of them fail: the
// failing keys are put in order by their bytes, not by comparing keys.
func ValidateLabels(m map[string]string, fldPath *field.Path) field.ErrorList {
	// Map order is random, so the failing entries must be sorted; but counting them first
	// keeps the common, valid case free of allocation.
	bad, errCount := 0, 0
	for k, v := range m {
		badKey, badValue := !ValidLabelKey(k), !ValidLabelValue(v)
		if badKey || badValue {
			bad++
			errCount += b2i(badKey) + b2i(badValue)
		}
	}
	if bad == 0 {
		return nil
	}
	// The failing entries are collected with their values and what fails in them, so
	// that nothing is looked up or checked again (a map of many keys is looked up out
	// of order: a cache miss a key).
	entries := make([]labelEntry, 0, bad)
	for k, v := range m {
		if badKey, badValue := !ValidLabelKey(k), !ValidLabelValue(v); badKey || badValue {
			entries = append(entries, labelEntry{k, v, badKey, badValue})
		}
	}
	sortEntries(entries)
	// The errors are those field.Invalid(fldPath.Key(k), ...) makes, made in a few
	// allocations for all of them rather than six for each: the errors share one array,
	// their Field strings are cut from one string, and the path above the keys is
	// rendered once (field.Path renders a key with fmt). (So an error kept keeps the
	// memory of the others: callers keep all of them or none.)
	prefix := ""
	if fldPath != nil {
		prefix = fldPath.String()
	}
	size := 0
	for _, e := range entries {
		size += len(prefix) + len(e.k) + 2
	}
	var b strings.Builder
	b.Grow(size)
	for _, e := range entries {
		b.WriteString(prefix)
		b.WriteByte('[')
		b.WriteString(e.k)
		b.WriteByte(']')
	}
	fields := b.String()
	block := make([]field.Error, errCount)
	errs := make(field.ErrorList, 0, errCount)
	for _, e := range entries {
		n := len(prefix) + len(e.k) + 2
		path := fields[:n]
		fields = fields[n:]
		if e.badKey {
			block[len(errs)] = field.Error{Type: field.ErrorTypeInvalid, Field: path, BadValue: e.k, Detail: labelKeyDetail(e.k)}
			errs = append(errs, &block[len(errs)])
		}
		if e.badValue {
			block[len(errs)] = field.Error{Type: field.ErrorTypeInvalid, Field: path, BadValue: e.v, Detail: labelValueDetail(e.v)}
			errs = append(errs, &block[len(errs)])
		}
	}
	return errs
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// labelKeyDetail returns Kubernetes' explanation of why k is not a label key.
//
// Kubernetes' explanation is made of fixed sentences, which of them depending only on
// what fails in k (labelKeyShape): it is made once a shape, from the first key of that
// shape, and shared by all keys of it. A mapping of 30,000 bad keys is explained once,
// not 30,000 times (the sentences quote the grammar's regular expressions, and making
// them took a third of validating such a mapping). TestDetailsByShape holds the shared
// explanation to Kubernetes' own for every key.
func labelKeyDetail(k string) string {
	return detailOf(&keyDetails[labelKeyShape(k)], k, content.IsLabelKey, "must be a valid label key")
}

// labelValueDetail returns Kubernetes' explanation of why v is not a label value (see
// labelKeyDetail).
func labelValueDetail(v string) string {
	return detailOf(&valueDetails[valueShape(v)], v, content.IsLabelValue, "must be a valid label value")
}

// keyDetails and valueDetails are the explanations made so far, by shape.
var (
	keyDetails   [1 << 8]atomic.Pointer[string]
	valueDetails [1 << 3]atomic.Pointer[string]
)

// detailOf returns the explanation in slot, or makes it of s with explain and keeps it
// there (two goroutines may both make it: they make the same).
func detailOf(slot *atomic.Pointer[string], s string, explain func(string) []string, fallback string) string {
	if d := slot.Load(); d != nil {
		return *d
	}
	d := fallback // unreachable while the checks agree with Kubernetes'
	if msgs := explain(s); len(msgs) > 0 {
		d = strings.Join(msgs, "; ")
	}
	slot.Store(&d)
	return d
}

// labelKeyShape is what fails in the label key k, as Kubernetes checks it: whether it has
// more than one slash (then nothing else counts), or one; of the prefix before it, whether
// it is empty, too long, not of the form of a DNS-1123 subdomain; and of the name, the same
// (nameShape).
func labelKeyShape(k string) int {
	i := strings.IndexByte(k, '/')
	if i < 0 {
		return nameShape(k)
	}
	if strings.IndexByte(k[i+1:], '/') >= 0 {
		return 1 << 7
	}
	shape := 1<<3 | nameShape(k[i+1:])
	switch prefix := k[:i]; {
	case prefix == "":
		shape |= 1 << 4
	default:
		if len(prefix) > maxPrefixLen {
			shape |= 1 << 5
		}
		if !prefixForm(prefix) {
			shape |= 1 << 6
		}
	}
	return shape
}

// nameShape is what fails in the name part of a label key: empty (1), too long (2), not
// of the form (4).
func nameShape(s string) int {
	shape := 0
	if s == "" {
		shape |= 1
	}
	if len(s) > maxNameLen {
		shape |= 2
	}
	if !nameForm(s) {
		shape |= 4
	}
	return shape
}

// valueShape is what fails in a label value: too long (2), not of the form (4); empty is
// of the form.
func valueShape(v string) int {
	if v == "" {
		return 0
	}
	return nameShape(v)
}
