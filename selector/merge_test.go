package selector_test

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/amlarc-go/instancetypes/selector"
)

var mergeTests = []struct {
	name      string
	a, b      map[string]string
	want      map[string]string
	conflicts []selector.Conflict // non-nil: Merge must fail with exactly these
}{
	{name: "nil nil", a: nil, b: nil, want: nil},
	{name: "nil empty", a: nil, b: map[string]string{}, want: nil},
	{name: "empty nil", a: map[string]string{}, b: nil, want: nil},
	{name: "nil a", a: nil, b: map[string]string{"pool": "ml"}, want: map[string]string{"pool": "ml"}},
	{name: "nil b", a: map[string]string{"pool": "ml"}, b: nil, want: map[string]string{"pool": "ml"}},
	{name: "empty b", a: map[string]string{"pool": "ml"}, b: map[string]string{}, want: map[string]string{"pool": "ml"}},
	{name: "equal", a: map[string]string{"pool": "ml"}, b: map[string]string{"pool": "ml"}, want: map[string]string{"pool": "ml"}},
	{
		name: "disjoint",
		a:    map[string]string{"pool": "ml"},
		b:    map[string]string{"zone": "1"},
		want: map[string]string{"pool": "ml", "zone": "1"},
	},
	{
		name: "overlap",
		a:    map[string]string{"pool": "ml", "os": "linux"},
		b:    map[string]string{"os": "linux", "gpu": "a100"},
		want: map[string]string{"pool": "ml", "os": "linux", "gpu": "a100"},
	},
	{
		name: "b subset of a",
		a:    map[string]string{"pool": "ml", "os": "linux"},
		b:    map[string]string{"os": "linux"},
		want: map[string]string{"pool": "ml", "os": "linux"},
	},
	{
		name: "a subset of b",
		a:    map[string]string{"os": "linux"},
		b:    map[string]string{"pool": "ml", "os": "linux"},
		want: map[string]string{"pool": "ml", "os": "linux"},
	},
	{
		name: "empty value is a value",
		a:    map[string]string{"gpu": ""},
		b:    map[string]string{"pool": "ml"},
		want: map[string]string{"gpu": "", "pool": "ml"},
	},
	{
		name:      "conflict",
		a:         map[string]string{"pool": "ml"},
		b:         map[string]string{"pool": "cpu"},
		conflicts: []selector.Conflict{{Key: "pool", A: "ml", B: "cpu"}},
	},
	{
		name:      "conflict with empty value",
		a:         map[string]string{"gpu": ""},
		b:         map[string]string{"gpu": "a100", "pool": "ml"},
		conflicts: []selector.Conflict{{Key: "gpu", A: "", B: "a100"}},
	},
	{
		name: "every conflict sorted",
		a:    map[string]string{"z": "1", "a": "1", "m": "1", "same": "x", "onlya": "1"},
		b:    map[string]string{"m": "2", "z": "2", "same": "x", "a": "2", "onlyb": "2"},
		conflicts: []selector.Conflict{
			{Key: "a", A: "1", B: "2"},
			{Key: "m", A: "1", B: "2"},
			{Key: "z", A: "1", B: "2"},
		},
	},
}

func TestMerge(t *testing.T) {
	for _, tt := range mergeTests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := maps.Clone(tt.a), maps.Clone(tt.b)
			got, err := selector.Merge(tt.a, tt.b)
			assertUntouched(t, "a", tt.a, a)
			assertUntouched(t, "b", tt.b, b)
			if tt.conflicts != nil {
				var ce *selector.ConflictError
				if !errors.As(err, &ce) || got != nil {
					t.Fatalf("Merge(%v, %v) = %v, %v; want nil, *ConflictError", tt.a, tt.b, got, err)
				}
				if !slices.Equal(ce.Conflicts, tt.conflicts) {
					t.Errorf("Merge(%v, %v) conflicts = %v; want %v", tt.a, tt.b, ce.Conflicts, tt.conflicts)
				}
				return
			}
			if err != nil || !maps.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("Merge(%v, %v) = %#v, %v; want %#v, nil", tt.a, tt.b, got, err, tt.want)
			}
		})
	}
}

// assertUntouched fails if m no longer equals the copy taken before the call,
// including its nil-ness.
func assertUntouched(t *testing.T, name string, m, before map[string]string) {
	t.Helper()
	if !maps.Equal(m, before) || (m == nil) != (before == nil) {
		t.Errorf("Merge modified its argument %s: now %v, was %v", name, m, before)
	}
}

// same reports whether two maps are the same map object.
func same(x, y map[string]string) bool {
	return reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
}

// TestMergeNeverAliases checks that the union is always the caller's own map, whatever the
// arguments: writing it changes neither of them.
func TestMergeNeverAliases(t *testing.T) {
	small := map[string]string{"os": "linux"}
	big := map[string]string{"os": "linux", "pool": "ml"}
	other := map[string]string{"zone": "1"}
	empty := map[string]string{}
	for _, tt := range []struct {
		name string
		a, b map[string]string
	}{
		{"a empty", empty, big},
		{"a nil", nil, big},
		{"b empty", big, empty},
		{"b nil", big, nil},
		{"b subset", big, small},
		{"a subset", small, big},
		{"equal", big, maps.Clone(big)},
		{"disjoint", big, other},
	} {
		beforeA, beforeB := maps.Clone(tt.a), maps.Clone(tt.b)
		got, err := selector.Merge(tt.a, tt.b)
		if err != nil || same(got, tt.a) || same(got, tt.b) {
			t.Errorf("%s: Merge(%v, %v) = %v, %v; want a new map", tt.name, tt.a, tt.b, got, err)
			continue
		}
		got["extra"] = "x"
		assertUntouched(t, "a", tt.a, beforeA)
		assertUntouched(t, "b", tt.b, beforeB)
	}
	if got, err := selector.Merge(nil, empty); got != nil || err != nil {
		t.Errorf("Merge(nil, {}) = %v, %v; want nil, nil", got, err)
	}
}

func TestCompatible(t *testing.T) {
	for _, tt := range []struct {
		a, b map[string]string
		want bool
	}{
		{nil, nil, true},
		{map[string]string{"pool": "ml"}, nil, true},
		{map[string]string{"pool": "ml"}, map[string]string{"pool": "ml", "os": "linux"}, true},
		{map[string]string{"pool": "ml"}, map[string]string{"pool": "cpu"}, false},
		{map[string]string{"pool": "ml", "a": "1", "b": "2"}, map[string]string{"pool": "cpu"}, false},
	} {
		if got := selector.Compatible(tt.a, tt.b); got != tt.want {
			t.Errorf("Compatible(%v, %v) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
		if got := selector.Compatible(tt.b, tt.a); got != tt.want {
			t.Errorf("Compatible(%v, %v) = %v; want %v", tt.b, tt.a, got, tt.want)
		}
		_, err := selector.Merge(tt.a, tt.b)
		if (err == nil) != tt.want {
			t.Errorf("Merge(%v, %v) error = %v, but Compatible says %v", tt.a, tt.b, err, tt.want)
		}
	}
}

func TestConflictErrorMessage(t *testing.T) {
	_, err := selector.Merge(map[string]string{"pool": "ml"}, map[string]string{"pool": "cpu"})
	want := `selector: key "pool" has conflicting values "ml" and "cpu"`
	if err == nil || err.Error() != want {
		t.Errorf("Merge error = %v; want %s", err, want)
	}

	_, err = selector.Merge(
		map[string]string{"b": "1", "a": "x\"y"},
		map[string]string{"b": "2", "a": ""},
	)
	want = `selector: key "a" has conflicting values "x\"y" and ""; key "b" has conflicting values "1" and "2"`
	if err == nil || err.Error() != want {
		t.Errorf("Merge error = %v; want %s", err, want)
	}
}
