package selector

import (
	"slices"
	"strings"

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
func validName(s string) bool {
	n := len(s)
	if n == 0 || n > maxNameLen || !isAlnum(s[0]) || !isAlnum(s[n-1]) {
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
func validPrefix(s string) bool {
	n := len(s)
	if n == 0 || n > maxPrefixLen || !isLowerAlnum(s[n-1]) {
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
// A valid (or empty) m yields nil without allocating.
func ValidateLabels(m map[string]string, fldPath *field.Path) field.ErrorList {
	// Map order is random, so the failing keys must be sorted; but counting
	// them first keeps the common, valid case free of allocation.
	bad := 0
	for k, v := range m {
		if !ValidLabelKey(k) || !ValidLabelValue(v) {
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	keys := make([]string, 0, bad)
	for k, v := range m {
		if !ValidLabelKey(k) || !ValidLabelValue(v) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var errs field.ErrorList
	for _, k := range keys {
		v := m[k]
		if !ValidLabelKey(k) {
			errs = append(errs, field.Invalid(fldPath.Key(k), k, labelKeyDetail(k)))
		}
		if !ValidLabelValue(v) {
			errs = append(errs, field.Invalid(fldPath.Key(k), v, labelValueDetail(v)))
		}
	}
	return errs
}

// labelKeyDetail returns Kubernetes' explanation of why k is not a label key.
func labelKeyDetail(k string) string {
	if msgs := content.IsLabelKey(k); len(msgs) > 0 {
		return strings.Join(msgs, "; ")
	}
	return "must be a valid label key" // unreachable while ValidLabelKey agrees with IsLabelKey
}

// labelValueDetail returns Kubernetes' explanation of why v is not a label value.
func labelValueDetail(v string) string {
	if msgs := content.IsLabelValue(v); len(msgs) > 0 {
		return strings.Join(msgs, "; ")
	}
	return "must be a valid label value" // unreachable while ValidLabelValue agrees with IsLabelValue
}
