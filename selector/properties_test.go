package selector_test

import (
	"errors"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/selector"
)

// genSelector draws small selectors from few keys and values, so that two
// draws often share keys, agree on some and conflict on others. The empty
// value is among the values: it is a value like any other.
var genSelector = rapid.MapOfN(
	rapid.SampledFrom([]string{"pool", "os", "zone", "gpu", "kubernetes.io/arch"}),
	rapid.SampledFrom([]string{"", "a", "b"}),
	0, 5,
)

// genSelectorOrNil also yields nil maps.
var genSelectorOrNil = rapid.OneOf(genSelector, rapid.Just(map[string]string(nil)))

// conflictingKeys is the slow, obvious definition of a conflict.
func conflictingKeys(a, b map[string]string) []string {
	var keys []string
	for k, va := range a {
		if vb, ok := b[k]; ok && va != vb {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// checkMerge states the laws of Merge on one pair of selectors and one set
// of node labels.
func checkMerge(t *rapid.T) {
	a := genSelectorOrNil.Draw(t, "a")
	b := genSelectorOrNil.Draw(t, "b")
	node := genSelectorOrNil.Draw(t, "labels")
	a0, b0 := maps.Clone(a), maps.Clone(b)

	m, err := selector.Merge(a, b)
	n, errSwapped := selector.Merge(b, a)

	if !maps.Equal(a, a0) || !maps.Equal(b, b0) {
		t.Fatalf("Merge modified its arguments: %v, %v; were %v, %v", a, b, a0, b0)
	}

	// A conflict exists iff some key has two values; every one is reported.
	want := conflictingKeys(a, b)
	if (err != nil) != (len(want) > 0) {
		t.Fatalf("Merge(%v, %v) error %v; conflicting keys %v", a, b, err, want)
	}
	if err != nil {
		var ce, ceSwapped *selector.ConflictError
		if !errors.As(err, &ce) || !errors.As(errSwapped, &ceSwapped) || m != nil || n != nil {
			t.Fatalf("Merge(%v, %v) = %v, %v; Merge(b, a) = %v, %v; want nil and *ConflictError", a, b, m, err, n, errSwapped)
		}
		var got []string
		for i, c := range ce.Conflicts {
			got = append(got, c.Key)
			if c.A != a[c.Key] || c.B != b[c.Key] {
				t.Fatalf("conflict %v; want values %q and %q", c, a[c.Key], b[c.Key])
			}
			// The swapped merge reports the same conflicts, values swapped.
			if s := ceSwapped.Conflicts[i]; s.Key != c.Key || s.A != c.B || s.B != c.A {
				t.Fatalf("Merge(b, a) conflict %v; want %v swapped", s, c)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Merge(%v, %v) conflicts on %v; want %v", a, b, got, want)
		}
		return
	}

	// Commutative.
	if errSwapped != nil || !maps.Equal(m, n) {
		t.Fatalf("Merge(a, b) = %v; Merge(b, a) = %v, %v", m, n, errSwapped)
	}
	// Holds both inputs...
	if !selector.IsSubset(a, m) || !selector.IsSubset(b, m) {
		t.Fatalf("Merge(%v, %v) = %v does not hold both", a, b, m)
	}
	// ...and adds nothing.
	for k, v := range m {
		va, inA := a[k]
		vb, inB := b[k]
		if !(inA && va == v) && !(inB && vb == v) {
			t.Fatalf("Merge(%v, %v) = %v adds %s=%s", a, b, m, k, v)
		}
	}
	// A node matches the union iff it matches both.
	if got, want := selector.Matches(m, node), selector.Matches(a, node) && selector.Matches(b, node); got != want {
		t.Fatalf("Matches(Merge(%v, %v), %v) = %v; Matches both = %v", a, b, node, got, want)
	}
	// Merging again with either input changes nothing.
	if again, err := selector.Merge(m, a); err != nil || !maps.Equal(again, m) {
		t.Fatalf("Merge(Merge(a, b), a) = %v, %v; want %v", again, err, m)
	}
}

func TestMergeProperties(t *testing.T) { rapid.Check(t, checkMerge) }

// FuzzMergeProperties runs the laws of Merge under go test -fuzz.
func FuzzMergeProperties(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkMerge)) }

func TestMergeSubsetProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genSelectorOrNil.Draw(t, "a")
		b := genSelectorOrNil.Draw(t, "b")
		if m, err := selector.Merge(a, b); err == nil && !selector.IsSubset(a, m) {
			t.Fatalf("IsSubset(%v, Merge(%v, %v) = %v) is false", a, a, b, m)
		}
	})
}

func TestSubsetProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genSelectorOrNil.Draw(t, "a")
		if !selector.IsSubset(a, a) {
			t.Fatalf("IsSubset(%v, itself) is false", a)
		}
		if !selector.IsSubset(nil, a) || !selector.IsSubset(map[string]string{}, a) {
			t.Fatalf("empty selector is not a subset of %v", a)
		}
		// Transitive, on chains built to be subsets (random triples rarely are)...
		b, errB := selector.Merge(a, genSelector.Draw(t, "moreB"))
		if errB != nil {
			b = maps.Clone(a)
		}
		c, errC := selector.Merge(b, genSelector.Draw(t, "moreC"))
		if errC != nil {
			c = maps.Clone(b)
		}
		if !selector.IsSubset(a, b) || !selector.IsSubset(b, c) || !selector.IsSubset(a, c) {
			t.Fatalf("chain %v ⊆ %v ⊆ %v broken", a, b, c)
		}
		// ...and on arbitrary triples.
		x, y, z := genSelector.Draw(t, "x"), genSelector.Draw(t, "y"), genSelector.Draw(t, "z")
		if selector.IsSubset(x, y) && selector.IsSubset(y, z) && !selector.IsSubset(x, z) {
			t.Fatalf("%v ⊆ %v ⊆ %v but not %v ⊆ %v", x, y, z, x, z)
		}
		// Antisymmetric: mutual subsets are equal.
		if selector.IsSubset(x, y) && selector.IsSubset(y, x) && !maps.Equal(x, y) {
			t.Fatalf("%v and %v are subsets of each other but differ", x, y)
		}
	})
}
