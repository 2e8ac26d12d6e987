package resolve

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/textdist"
)

// NotFoundError reports an instance type name that a catalog does not hold.
type NotFoundError struct {
	// Name is the name looked up.
	Name string
	// Suggestions are the names of Available close to Name, best first, at most
	// [MaxSuggestions]: equal but for case, then within a small edit distance (insertions,
	// deletions, substitutions and transpositions, ignoring ASCII case), then sharing a
	// prefix of at least 3 bytes with it (ignoring ASCII case); nearer first, then in
	// sorted order. Empty when none is close. Finding them costs a walk of an index of the
	// catalog's names, built on the first miss, not a pass over the names; in a catalog
	// built so that thousands of names are equally close, they are the close names the walk
	// found first.
	Suggestions []string
	// Available is every name of the catalog that a workload can name, sorted: those that
	// are object names (an InstanceType of another name, which the API server refuses, is
	// neither listed nor suggested).
	Available []string
}

// MaxSuggestions is the most names a [NotFoundError] suggests.
const MaxSuggestions = 5

// maxListed is the most known names a NotFoundError message lists when none is close.
const maxListed = 10

// Error renders the error as
//
//	resolve: instance type "cpusmal" not found; did you mean "cpusmall"?
//	resolve: instance type "x" not found; known instance types: "a", "b", "c"
func (e *NotFoundError) Error() string {
	return "resolve: instance type " + clip.Quote(e.Name) + " not found; " + e.Detail()
}

// notFoundDetail is the detail of the error for a name the catalog lacks, as
// [NotFoundError.Detail] renders it, without copying the catalog's names.
func (c *Catalog) notFoundDetail(name string) string {
	e := NotFoundError{Name: name, Suggestions: suggest(name, c.nameIndex()), Available: c.offered()}
	return e.Detail()
}

// Detail renders the advice part of the error alone, for the detail of a field error:
// `did you mean "cpusmall"?` when some names are close, else the known names —
// `known instance types: "a", "b", "c"` — of which only the first ten are listed, followed
// by "and N more", in a large catalog. Names longer than 256 bytes are cut, so the detail
// stays short whatever the names.
func (e *NotFoundError) Detail() string {
	var b strings.Builder
	if len(e.Suggestions) > 0 {
		b.WriteString("did you mean ")
		for i, s := range e.Suggestions {
			switch {
			case i == 0:
			case i == len(e.Suggestions)-1:
				b.WriteString(" or ")
			default:
				b.WriteString(", ")
			}
			b.WriteString(clip.Quote(s))
		}
		b.WriteString("?")
		return b.String()
	}
	b.WriteString("known instance types: ")
	listNames(&b, e.Available)
	return b.String()
}

// listNames writes names quoted and separated by commas, only the first ten of them,
// followed by "and N more", in a large catalog.
func listNames(b *strings.Builder, names []string) {
	for i, s := range names {
		if i == maxListed {
			b.WriteString(" and ")
			b.WriteString(strconv.Itoa(len(names) - i))
			b.WriteString(" more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(clip.Quote(s))
	}
}

// placeholderDetail is the detail of the error for an instance type name that is a
// placeholder of kind k: what it is, and what to write instead, the catalog's names
// (those a workload can name) unless the catalog is known not to be the cluster's.
func (c *Catalog) placeholderDetail(k rules.PlaceholderKind, namesUnchecked bool) string {
	var b strings.Builder
	b.WriteString("not filled in: ")
	b.WriteString(k.Describe())
	if k == rules.Expression {
		b.WriteString("; to have it checked, write the name of an instance type here")
	} else {
		b.WriteString("; write the name of an instance type here")
	}
	if namesUnchecked {
		b.WriteString(", one of the cluster's (kubectl get instancetypes)")
		return b.String()
	}
	b.WriteString(": ")
	listNames(&b, c.offered())
	return b.String()
}

// maxEditLen is the longest name whose edit distance suggest computes; longer ones are
// only compared by case and prefix. Instance type names people mistype are short; the
// bound keeps the cost of a miss in a large catalog of long names reasonable.
const maxEditLen = textdist.MaxLen

// minPrefix is the shortest common prefix that makes two names close.
const minPrefix = textdist.MinPrefix

// suggest returns the names of the index close to name, best first, at most
// MaxSuggestions: equal but for case, then within a small edit distance, then sharing a
// prefix of at least minPrefix bytes (ASCII case ignored), nearer first and, among equals,
// in the index's order. It walks the index, whose cost does not grow with the number of
// names: a miss costs about a lookup, not a pass over the catalog.
func suggest(name string, x *textdist.Index) []string {
	if name == "" {
		return nil
	}
	type candidate struct{ i, class, dist int }
	var cs []candidate
	fold := x.EqualFold(name)
	for _, i := range fold {
		cs = append(cs, candidate{int(i), 0, 0})
	}
	if len(name) <= maxEditLen {
		// Enough of the nearest that those equal but for case, which are among them,
		// leave MaxSuggestions.
		for _, h := range x.Nearest(name, min(3, max(1, len(name)/3)), MaxSuggestions+len(fold)) {
			cs = append(cs, candidate{h.Index, 1, h.Dist})
		}
	}
	if len(name) >= minPrefix {
		for _, i := range x.Extending(name, MaxSuggestions) {
			cs = append(cs, candidate{int(i), 2, len(x.Name(int(i))) - len(name)})
		}
	}
	x.Prefixes(name, func(i int) {
		if n := len(x.Name(i)); n >= minPrefix {
			cs = append(cs, candidate{i, 2, len(name) - n})
		}
	})
	slices.SortFunc(cs, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.class, b.class), cmp.Compare(a.dist, b.dist), cmp.Compare(a.i, b.i))
	})
	var out []string
	for k, c := range cs {
		if k > 0 && slices.ContainsFunc(cs[:k], func(d candidate) bool { return d.i == c.i }) {
			continue // in a nearer class already
		}
		if out = append(out, x.Name(c.i)); len(out) == MaxSuggestions {
			break
		}
	}
	return out
}
