package selector

import (
	"slices"
	"strconv"
	"strings"
)

// Merge returns the union of the selectors a and b: a new map holding every key/value pair
// of a and of b, and nothing else. A node matches the union exactly when it matches both a
// and b. The union of two empty selectors is nil.
//
// If some key is set to different values in a and b, no node can match both; Merge then
// returns nil and a *ConflictError listing every such key, sorted by key.
//
// Merge never modifies a or b, and the map it returns is the caller's own: adding a key to
// it changes neither argument. Building that map is the only allocation Merge makes on
// success. [Compatible] asks only whether the union exists, without building it.
func Merge(a, b map[string]string) (map[string]string, error) {
	if len(a) == 0 && len(b) == 0 {
		return nil, nil
	}
	if len(a) < len(b) {
		// Iterate over the smaller selector; the conflicts are still reported as a's and b's.
		if n := conflicts(b, a); n > 0 {
			return nil, newConflictError(a, b, n)
		}
	} else if n := conflicts(a, b); n > 0 {
		return nil, newConflictError(a, b, n)
	}
	m := make(map[string]string, max(len(a), len(b)))
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m, nil
}

// Compatible reports whether no key is set to different values in a and b: whether some
// set of labels can match both, so that [Merge] succeeds. It does not allocate.
func Compatible(a, b map[string]string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	return conflicts(a, b) == 0
}

// conflicts counts the keys of small that big sets to another value.
func conflicts(big, small map[string]string) int {
	n := 0
	for k, vs := range small {
		if vb, ok := big[k]; ok && vb != vs {
			n++
		}
	}
	return n
}

// newConflictError collects the n conflicting keys of a and b, sorted.
func newConflictError(a, b map[string]string, n int) *ConflictError {
	cs := make([]Conflict, 0, n)
	for k, vb := range b {
		if va, ok := a[k]; ok && va != vb {
			cs = append(cs, Conflict{Key: k, A: va, B: vb})
		}
	}
	slices.SortFunc(cs, func(x, y Conflict) int { return strings.Compare(x.Key, y.Key) })
	return &ConflictError{Conflicts: cs}
}

// Conflict is one key that two selectors set to different values.
type Conflict struct {
	Key string // the label key
	A   string // its value in the first selector given to Merge
	B   string // its value in the second selector given to Merge
}

// String renders the conflict as
//
//	key "pool" has conflicting values "ml" and "cpu"
func (c Conflict) String() string {
	return string(c.appendText(nil))
}

func (c Conflict) appendText(buf []byte) []byte {
	buf = append(buf, "key "...)
	buf = strconv.AppendQuote(buf, c.Key)
	buf = append(buf, " has conflicting values "...)
	buf = strconv.AppendQuote(buf, c.A)
	buf = append(buf, " and "...)
	buf = strconv.AppendQuote(buf, c.B)
	return buf
}

// ConflictError is the error Merge returns when its arguments set one or more
// keys to different values. Conflicts holds every such key, sorted by key,
// and is never empty when returned by Merge.
type ConflictError struct {
	Conflicts []Conflict
}

// Error renders every conflict, separated by "; ", as in
//
//	selector: key "pool" has conflicting values "ml" and "cpu"
func (e *ConflictError) Error() string {
	buf := []byte("selector: ")
	for i, c := range e.Conflicts {
		if i > 0 {
			buf = append(buf, "; "...)
		}
		buf = c.appendText(buf)
	}
	return string(buf)
}
