package selector

import (
	"slices"
	"strconv"
	"strings"
)

// Merge returns the union of the selectors a and b: a selector holding every
// key/value pair of a and of b, and nothing else. A node matches the union
// exactly when it matches both a and b.
//
// If some key is set to different values in a and b, no node can match both;
// Merge then returns nil and a *ConflictError listing every such key, sorted
// by key.
//
// Merge never modifies a or b, but the result may be one of them rather than
// a copy: if a is empty, b is returned (nil or not); otherwise if b is empty,
// a is returned; if b is a subset of a, a is returned; if a is a subset of b,
// b is returned. The result must therefore be treated as read-only. Only
// when each argument has a pair the other lacks is a new map allocated, and
// that map is the only allocation Merge makes on success.
func Merge(a, b map[string]string) (map[string]string, error) {
	if len(a) == 0 {
		return b, nil
	}
	if len(b) == 0 {
		return a, nil
	}
	// One pass over b: count the keys a lacks and detect conflicts, so that
	// the subset cases and the size of the union are known before anything
	// is allocated.
	extra, conflicts := 0, 0
	for k, vb := range b {
		va, ok := a[k]
		switch {
		case !ok:
			extra++
		case va != vb:
			conflicts++
		}
	}
	if conflicts > 0 {
		return nil, newConflictError(a, b, conflicts)
	}
	if extra == 0 { // b ⊆ a
		return a, nil
	}
	if len(b)-extra == len(a) { // every key of a is in b, with the same value: a ⊆ b
		return b, nil
	}
	m := make(map[string]string, len(a)+extra)
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m, nil
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
