package resolve

import (
	"strconv"
	"strings"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/textdist"
)

// NotFoundError reports an instance type name that a catalog does not hold.
type NotFoundError struct {
	// Name is the name looked up.
	Name string
	// Suggestions are the names of the catalog close to Name, best first, at most
	// [MaxSuggestions]: equal but for case, then within a small edit distance (insertions,
	// deletions, substitutions and transpositions, ignoring case), then sharing a prefix of
	// at least 3 bytes with it. Empty when none is close.
	Suggestions []string
	// Available is every name of the catalog, sorted.
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
	names := c.names()
	e := NotFoundError{Name: name, Suggestions: suggest(name, names), Available: names}
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
	for i, s := range e.Available {
		if i == maxListed {
			b.WriteString(" and ")
			b.WriteString(strconv.Itoa(len(e.Available) - i))
			b.WriteString(" more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(clip.Quote(s))
	}
	return b.String()
}

// maxEditLen is the longest name whose edit distance suggest computes; longer ones are
// only compared by case and prefix. Instance type names people mistype are short; the
// bound keeps the cost of a miss in a large catalog of long names reasonable.
const maxEditLen = textdist.MaxLen

// minPrefix is the shortest common prefix that makes two names close.
const minPrefix = 3

// suggest returns the names close to name, best first, at most MaxSuggestions. It costs
// one pass over names with a bounded edit distance each.
func suggest(name string, names []string) []string {
	if name == "" {
		return nil
	}
	maxDist := min(3, max(1, len(name)/3))
	type candidate struct {
		name        string
		class, dist int
	}
	var best []candidate
	for _, n := range names {
		c := candidate{name: n, class: -1}
		d := abs(len(n) - len(name))
		if strings.EqualFold(n, name) {
			c.class = 0
		} else if d <= maxDist && len(n) <= maxEditLen && len(name) <= maxEditLen {
			if ed := textdist.Distance(name, n, maxDist); ed <= maxDist {
				c.class, c.dist = 1, ed
			}
		}
		if c.class < 0 && (len(name) >= minPrefix && hasPrefixFold(n, name) ||
			len(n) >= minPrefix && hasPrefixFold(name, n)) {
			c.class, c.dist = 2, d
		}
		if c.class < 0 {
			continue
		}
		// Insert c into best, kept sorted and short.
		i := len(best)
		for i > 0 && less(c.class, c.dist, best[i-1].class, best[i-1].dist) {
			i--
		}
		if i >= MaxSuggestions {
			continue
		}
		if len(best) < MaxSuggestions {
			best = append(best, candidate{})
		}
		copy(best[i+1:], best[i:])
		best[i] = c
	}
	out := make([]string, len(best))
	for i, c := range best {
		out[i] = c.name
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// less orders candidates by class then distance; names come in sorted order, and ties
// keep it.
func less(class, dist, class2, dist2 int) bool {
	if class != class2 {
		return class < class2
	}
	return dist < dist2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
