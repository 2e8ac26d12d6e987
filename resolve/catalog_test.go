package resolve

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/instancetype"
)

func TestNewCatalog(t *testing.T) {
	c := NewCatalog(cpuSmall(), gpuType())
	if got, want := c.Names(), []string{"cpusmall", instancetype.DefaultName, "gpu"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q; want %q", got, want)
	}
	if c.Len() != 3 {
		t.Errorf("Len() = %d; want 3", c.Len())
	}
	if !c.IsBuiltIn(instancetype.DefaultName) || c.IsBuiltIn("cpusmall") {
		t.Errorf("IsBuiltIn(default), IsBuiltIn(cpusmall) = %v, %v; want true, false",
			c.IsBuiltIn(instancetype.DefaultName), c.IsBuiltIn("cpusmall"))
	}
	def, ok := c.Get(instancetype.DefaultName)
	if !ok || def.Spec.Resources.Limits[instancetype.ResourceCPU].String() != "2" {
		t.Errorf("Get(default) = %v, %v; want the built-in default", def, ok)
	}
	if it, ok := c.Get("gpu"); !ok || it.Name != "gpu" {
		t.Errorf("Get(gpu) = %v, %v; want gpu", it, ok)
	}
	if it, ok := c.Get("nope"); ok || it != nil {
		t.Errorf("Get(nope) = %v, %v; want nil, false", it, ok)
	}
	var names []string
	for it := range c.All() {
		names = append(names, it.Name)
	}
	if !slices.Equal(names, c.Names()) {
		t.Errorf("All() names = %q; want %q", names, c.Names())
	}
	for range c.All() {
		break // stopping early must not panic
	}
}

func TestNewCatalogOverride(t *testing.T) {
	custom := customDefault()
	c := NewCatalog(custom)
	if it, _ := c.Get(instancetype.DefaultName); it != custom {
		t.Errorf("Get(default) = %p; want the custom %p", it, custom)
	}
	if c.IsBuiltIn(instancetype.DefaultName) || c.Len() != 1 {
		t.Errorf("IsBuiltIn(default), Len() = %v, %d; want false, 1", c.IsBuiltIn(instancetype.DefaultName), c.Len())
	}
}

func TestNewCatalogDuplicatesAndJunk(t *testing.T) {
	first, second := cpuSmall(), cpuSmall()
	unnamed := newType("", nil, nil, nil)
	c := NewCatalog(nil, first, unnamed, second, nil)
	if it, _ := c.Get("cpusmall"); it != second {
		t.Error("Get(cpusmall) is not the last of its name")
	}
	if _, ok := c.Get(""); ok || c.Len() != 2 {
		t.Errorf("Get(\"\") found, or Len() = %d; want an unnamed type left out and 2", c.Len())
	}
}

func TestNilCatalog(t *testing.T) {
	var c *Catalog
	if c.Len() != 1 || !c.IsBuiltIn(instancetype.DefaultName) || !slices.Equal(c.Names(), []string{instancetype.DefaultName}) {
		t.Errorf("nil catalog: Len %d, Names %q; want the built-in default alone", c.Len(), c.Names())
	}
	if _, err := c.Lookup("x"); err == nil {
		t.Error("nil catalog: Lookup(x) succeeded")
	}
}

func TestCatalogDefaultNotShared(t *testing.T) {
	// The built-in default a catalog holds is not the caller's instancetype.Default().
	d := instancetype.Default()
	d.Spec.Resources.Limits[instancetype.ResourceCPU] = instancetype.MustParseAmount("64")
	it, _ := NewCatalog().Get(instancetype.DefaultName)
	if got := it.Spec.Resources.Limits[instancetype.ResourceCPU].String(); got != "2" {
		t.Errorf("built-in default cpu limit = %s; want 2", got)
	}
}

var lookupTests = []struct {
	name        string
	suggestions []string
}{
	{"cpusmal", []string{"cpusmall"}},                // deletion
	{"cpusmalll", []string{"cpusmall"}},              // insertion
	{"cpusnall", []string{"cpusmall"}},               // substitution
	{"cpsumall", []string{"cpusmall"}},               // transposition
	{"CPUSmall", []string{"cpusmall"}},               // case
	{"GPU", []string{"gpu", "gpu-large"}},            // case, then prefix
	{"gpu-larg", []string{"gpu-large", "gpu"}},       // edit, then prefix
	{"cpu", []string{"gpu", "cpularge", "cpusmall"}}, // edit, then prefixes by length then name
	{"cpusmall-v2", []string{"cpusmall"}},            // a known name is a prefix of it
	{"defaultinstancetyp", []string{"defaultinstancetype"}},
	{"zzz", nil},
	{"x", nil},
	{strings.Repeat("a", 300), nil},
	{"cpusmall" + strings.Repeat("x", 300), []string{"cpusmall"}},
}

func TestLookup(t *testing.T) {
	c := NewCatalog(cpuSmall(), newType("cpularge", nil, nil, nil), gpuType(), newType("gpu-large", nil, nil, nil))
	for _, tt := range lookupTests {
		it, err := c.Lookup(tt.name)
		var nf *NotFoundError
		if it != nil || !errors.As(err, &nf) {
			t.Errorf("Lookup(%.20q) = %v, %v; want nil, *NotFoundError", tt.name, it, err)
			continue
		}
		if nf.Name != tt.name || !slices.Equal(nf.Suggestions, tt.suggestions) {
			t.Errorf("Lookup(%.20q) error = %q suggesting %q; want %q", tt.name, nf.Name, nf.Suggestions, tt.suggestions)
		}
		if !slices.Equal(nf.Available, c.Names()) {
			t.Errorf("Lookup(%.20q) available = %q; want %q", tt.name, nf.Available, c.Names())
		}
	}
	if it, err := c.Lookup("gpu"); err != nil || it.Name != "gpu" {
		t.Errorf("Lookup(gpu) = %v, %v; want gpu, nil", it, err)
	}
}

func TestNotFoundErrorMessage(t *testing.T) {
	tests := []struct {
		err  *NotFoundError
		want string
	}{
		{&NotFoundError{Name: "a", Suggestions: []string{"b"}}, `resolve: instance type "a" not found; did you mean "b"?`},
		{&NotFoundError{Name: "a", Suggestions: []string{"b", "c"}}, `resolve: instance type "a" not found; did you mean "b" or "c"?`},
		{&NotFoundError{Name: "a", Suggestions: []string{"b", "c", "d"}}, `resolve: instance type "a" not found; did you mean "b", "c" or "d"?`},
		{&NotFoundError{Name: "a", Available: []string{"b", "c"}}, `resolve: instance type "a" not found; known instance types: "b", "c"`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %s; want %s", got, tt.want)
		}
	}
	// A huge catalog lists only the first names.
	var types []*instancetype.InstanceType
	for i := range 10_000 {
		types = append(types, newType(fmt.Sprintf("type-%05d", i), nil, nil, nil))
	}
	_, err := NewCatalog(types...).Lookup("zzz")
	const want = `resolve: instance type "zzz" not found; known instance types: "defaultinstancetype", "type-00000", "type-00001", "type-00002", "type-00003", "type-00004", "type-00005", "type-00006", "type-00007", "type-00008" and 9991 more`
	if err == nil || err.Error() != want {
		t.Errorf("Lookup in 10,001 types = %v; want %s", err, want)
	}
}

// TestCatalogWith checks the copy-on-write catalog a Store publishes against a plain map,
// through random runs of sets and deletes long enough to fold the changes into new bases
// several times.
func TestCatalogWith(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom([]string{instancetype.DefaultName, "a", "b", "c", "d", "e"})
		anyName := rapid.OneOf(name, rapid.StringMatching(`[a-z]{1,3}`))
		initial := rapid.SliceOfN(anyName, 0, 40).Draw(t, "initial")
		var types []*instancetype.InstanceType
		model := map[string]*instancetype.InstanceType{instancetype.DefaultName: builtinDefault}
		for _, n := range initial {
			it := newType(n, nil, nil, nil)
			types = append(types, it)
			model[n] = it
		}
		c := NewCatalog(types...)
		steps := rapid.IntRange(0, 200).Draw(t, "steps")
		for i := range steps {
			n := anyName.Draw(t, fmt.Sprint("name", i))
			prev := c
			if rapid.Bool().Draw(t, fmt.Sprint("set", i)) {
				it := newType(n, nil, nil, nil)
				c = c.with(n, it)
				model[n] = it
			} else {
				c = c.with(n, nil)
				delete(model, n)
				if n == instancetype.DefaultName {
					model[n] = builtinDefault
				}
			}
			if c == prev && !maps.Equal(snapshot(prev), model) {
				t.Fatalf("with(%q) returned the same catalog for a change", n)
			}
			checkCatalog(t, c, model)
		}
	})
}

// snapshot returns the name → type map of c.
func snapshot(c *Catalog) map[string]*instancetype.InstanceType {
	m := make(map[string]*instancetype.InstanceType)
	for _, n := range c.Names() {
		m[n], _ = c.Get(n)
	}
	return m
}

// checkCatalog fails t unless c holds exactly model.
func checkCatalog(t interface {
	Fatalf(string, ...any)
	Helper()
}, c *Catalog, model map[string]*instancetype.InstanceType) {
	t.Helper()
	want := slices.Sorted(maps.Keys(model))
	if got := c.Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %q; want %q", got, want)
	}
	if c.Len() != len(model) {
		t.Fatalf("Len() = %d; want %d", c.Len(), len(model))
	}
	for n, it := range model {
		if got, ok := c.Get(n); !ok || got != it {
			t.Fatalf("Get(%q) = %p, %v; want %p", n, got, ok, it)
		}
	}
	for _, n := range []string{"zz", "zzzz", "f"} {
		if _, ok := model[n]; !ok {
			if _, ok := c.Get(n); ok {
				t.Fatalf("Get(%q) found a deleted type", n)
			}
		}
	}
	if got, want := c.IsBuiltIn(instancetype.DefaultName), model[instancetype.DefaultName] == builtinDefault; got != want {
		t.Fatalf("IsBuiltIn(default) = %v; want %v", got, want)
	}
}
