package selector_test

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/selector"
)

// refKey and refValue are the reference implementations the fast checks
// must agree with.
func refKey(k string) bool   { return len(content.IsLabelKey(k)) == 0 }
func refValue(v string) bool { return len(content.IsLabelValue(v)) == 0 }

var (
	name63   = "a" + strings.Repeat("b", 61) + "c"
	name64   = name63 + "d"
	prefix63 = strings.Repeat("a", 63)
	// prefix253 is four 62-byte labels and a 1-byte one: 4*63+1 = 253.
	prefix253         = strings.Repeat(strings.Repeat("a", 62)+".", 4) + "b"
	prefix254         = prefix253 + "f"
	prefixOneLabel254 = strings.Repeat("a", 254)
)

var labelKeyTests = []struct {
	key  string
	want bool
}{
	{"", false},
	{"a", true},
	{"A", true},
	{"0", true},
	{"pool", true},
	{"Node.Pool_1", true},
	{"my-label", true},
	{"a.b", true},
	{"a_b", true},
	{"a..b", true}, // the name part allows any run of [-_.] inside
	{"-a", false},
	{"a-", false},
	{"_a", false},
	{"a_", false},
	{".a", false},
	{"a.", false},
	{"my label", false},
	{"pööl", false},
	{"a\x00", false},
	{"a\xff", false},
	{name63, true},
	{name64, false},
	{"kubernetes.io/os", true},
	{"node.kubernetes.io/instance-type", true},
	{"nvidia.com/gpu", true},
	{"example.com/MyName", true},
	{"a/b", true},
	{"a/", false},
	{"/a", false},
	{"/", false},
	{"a/b/c", false},
	{"a//b", false},
	{"Example.com/a", false}, // prefix is lowercase only
	{"exa_mple.com/a", false},
	{"-example.com/a", false},
	{"example-.com/a", false},
	{"example.-com/a", false},
	{"example..com/a", false},
	{".example.com/a", false},
	{"example.com./a", false},
	{"ex--ample.com/a", true},
	{"123.456/a", true},
	{prefix63 + "/a", true},
	{prefix63 + "b/a", true}, // a 64-byte DNS label: Kubernetes does not limit labels of the prefix
	{prefix253 + "/a", true},
	{prefix254 + "/a", false},
	{prefixOneLabel254 + "/a", false},
	{prefix253 + "/" + name63, true},
	{prefix253 + "/" + name64, false},
	{"example.com/-a", false},
	{"example.com/" + "pööl", false},
}

func TestValidLabelKey(t *testing.T) {
	if len(prefix253) != 253 {
		t.Fatalf("len(prefix253) = %d", len(prefix253))
	}
	for _, tt := range labelKeyTests {
		if got := selector.ValidLabelKey(tt.key); got != tt.want {
			t.Errorf("ValidLabelKey(%q) = %v; want %v", tt.key, got, tt.want)
		}
		if ref := refKey(tt.key); ref != tt.want {
			t.Errorf("test table disagrees with content.IsLabelKey(%q) = %v", tt.key, content.IsLabelKey(tt.key))
		}
	}
}

var labelValueTests = []struct {
	value string
	want  bool
}{
	{"", true},
	{"a", true},
	{"ml", true},
	{"Standard_NC6s_v3", true},
	{"1.2.3", true},
	{name63, true},
	{name64, false},
	{"-a", false},
	{"a-", false},
	{"a b", false},
	{"a/b", false},
	{"pööl", false},
	{" ", false},
}

func TestValidLabelValue(t *testing.T) {
	for _, tt := range labelValueTests {
		if got := selector.ValidLabelValue(tt.value); got != tt.want {
			t.Errorf("ValidLabelValue(%q) = %v; want %v", tt.value, got, tt.want)
		}
		if ref := refValue(tt.value); ref != tt.want {
			t.Errorf("test table disagrees with content.IsLabelValue(%q) = %v", tt.value, content.IsLabelValue(tt.value))
		}
	}
}

// TestLabelExhaustive compares the fast checks with apimachinery on every
// string of up to 4 bytes over an alphabet holding one byte of each class
// the grammar distinguishes.
func TestLabelExhaustive(t *testing.T) {
	const alphabet = "aZ0-_./ \xc3"
	var buf [4]byte
	var walk func(n int)
	walk = func(n int) {
		s := string(buf[:n])
		if got, want := selector.ValidLabelKey(s), refKey(s); got != want {
			t.Errorf("ValidLabelKey(%q) = %v; content.IsLabelKey says %v", s, got, want)
		}
		if got, want := selector.ValidLabelValue(s), refValue(s); got != want {
			t.Errorf("ValidLabelValue(%q) = %v; content.IsLabelValue says %v", s, got, want)
		}
		if n == len(buf) {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			buf[n] = alphabet[i]
			walk(n + 1)
		}
	}
	walk(0)
}

// TestValidateLabels checks types, paths and order, and that the detail is
// the one apimachinery gives; it does not pin down the detail text itself.
func TestValidateLabels(t *testing.T) {
	path := field.NewPath("spec", "nodeSelector")
	type want struct {
		field    string
		badValue string
		detail   []string // content.IsLabelKey or IsLabelValue of badValue
	}
	keyErr := func(field, k string) want { return want{field, k, content.IsLabelKey(k)} }
	valErr := func(field, v string) want { return want{field, v, content.IsLabelValue(v)} }
	for _, tt := range []struct {
		name string
		m    map[string]string
		want []want
	}{
		{"nil", nil, nil},
		{"empty", map[string]string{}, nil},
		{"valid", map[string]string{"pool": "ml", "kubernetes.io/os": "linux", "gpu": ""}, nil},
		{"bad key", map[string]string{"pool": "ml", "my label": "x"}, []want{
			keyErr("spec.nodeSelector[my label]", "my label"),
		}},
		{"bad value", map[string]string{"pool": "m l"}, []want{
			valErr("spec.nodeSelector[pool]", "m l"),
		}},
		{"bad key and value", map[string]string{"Example.com/x": "-"}, []want{
			keyErr("spec.nodeSelector[Example.com/x]", "Example.com/x"),
			valErr("spec.nodeSelector[Example.com/x]", "-"),
		}},
		{"several sorted by key", map[string]string{
			"z!": "ok", "ok": "a b", "": "", "a/b/c": name64, "fine": "fine",
		}, []want{
			keyErr("spec.nodeSelector[]", ""),
			keyErr("spec.nodeSelector[a/b/c]", "a/b/c"),
			valErr("spec.nodeSelector[a/b/c]", name64),
			valErr("spec.nodeSelector[ok]", "a b"),
			keyErr("spec.nodeSelector[z!]", "z!"),
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			errs := selector.ValidateLabels(tt.m, path)
			if len(errs) != len(tt.want) {
				t.Fatalf("ValidateLabels(%v) = %v; want %d errors", tt.m, errs, len(tt.want))
			}
			for i, e := range errs {
				w := tt.want[i]
				if e.Type != field.ErrorTypeInvalid || e.Field != w.field || e.BadValue != w.badValue {
					t.Errorf("error %d = %s %s %#v; want %s %s %q", i, e.Type, e.Field, e.BadValue, field.ErrorTypeInvalid, w.field, w.badValue)
				}
				if d := strings.Join(w.detail, "; "); e.Detail != d || d == "" {
					t.Errorf("error %d detail = %q; want apimachinery's %q", i, e.Detail, d)
				}
			}
		})
	}
}

func TestValidateLabelsNilPath(t *testing.T) {
	errs := selector.ValidateLabels(map[string]string{"a b": "c"}, nil)
	if len(errs) != 1 || errs[0].Field != "[a b]" {
		t.Errorf("ValidateLabels(..., nil) = %v; want one error at [a b]", errs)
	}
}

// checkKeyDetail checks that ValidateLabels explains a bad key k as Kubernetes does
// (content.IsLabelKey): the explanation shared by the keys of k's shape is k's own.
func checkKeyDetail(t interface{ Errorf(string, ...any) }, k string) {
	want := strings.Join(content.IsLabelKey(k), "; ")
	errs := selector.ValidateLabels(map[string]string{k: "v"}, nil)
	if want == "" {
		return
	}
	if len(errs) != 1 || errs[0].Detail != want {
		t.Errorf("ValidateLabels of the key %q: %v; want the detail %q", k, errs, want)
	}
}

// checkValueDetail is checkKeyDetail for a bad value v.
func checkValueDetail(t interface{ Errorf(string, ...any) }, v string) {
	want := strings.Join(content.IsLabelValue(v), "; ")
	errs := selector.ValidateLabels(map[string]string{"k": v}, nil)
	if want == "" {
		return
	}
	if len(errs) != 1 || errs[0].Detail != want {
		t.Errorf("ValidateLabels of the value %q: %v; want the detail %q", v, errs, want)
	}
}

// Kubernetes' explanation of a bad key or value is made once for each shape of mistake
// and shared: keys of every shape, generated from the bytes that matter to the grammar,
// of every length around the limits, are each explained as Kubernetes explains them.
func TestDetailsByShape(t *testing.T) {
	part := rapid.Custom(func(t *rapid.T) string {
		n := rapid.SampledFrom([]int{0, 1, 2, 3, 5, 62, 63, 64, 70, 252, 253, 254, 300}).Draw(t, "length")
		b := make([]byte, n)
		for i := range b {
			b[i] = rapid.SampledFrom([]byte("aZ0-_./ é")).Draw(t, "byte")
		}
		if n > 0 && rapid.Bool().Draw(t, "plain") {
			for i := range b {
				if b[i] == '/' || b[i] == ' ' || b[i] == 0xc3 {
					b[i] = 'a'
				}
			}
		}
		return string(b)
	})
	rapid.Check(t, func(rt *rapid.T) {
		s := part.Draw(rt, "key")
		if rapid.Bool().Draw(rt, "prefixed") {
			s = part.Draw(rt, "prefix") + "/" + s
		}
		checkKeyDetail(rt, s)
		checkValueDetail(rt, s)
	})
}

// ValidateLabels makes the very errors apimachinery's field.Invalid(fldPath.Key(k), ...)
// makes, in key order, whatever the path above the keys (nil, fields, an index).
func TestValidateLabelsAgreesWithFieldInvalid(t *testing.T) {
	text := rapid.StringOfN(rapid.SampledFrom([]rune("ab/.-_ Z9é[]")), 0, 12, -1)
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.MapOf(text, text).Draw(t, "labels")
		path := rapid.SampledFrom([]*field.Path{nil, field.NewPath("spec", "nodeSelector"), field.NewPath("items").Index(3).Child("sel"), field.NewPath("")}).Draw(t, "path")
		keys := slices.Sorted(maps.Keys(m))
		var want field.ErrorList
		for _, k := range keys {
			if msgs := content.IsLabelKey(k); len(msgs) > 0 {
				want = append(want, field.Invalid(path.Key(k), k, strings.Join(msgs, "; ")))
			}
			if msgs := content.IsLabelValue(m[k]); len(msgs) > 0 {
				want = append(want, field.Invalid(path.Key(k), m[k], strings.Join(msgs, "; ")))
			}
		}
		if got := selector.ValidateLabels(m, path); !reflect.DeepEqual(got, want) {
			t.Fatalf("ValidateLabels(%q, %v):\n%#v\nwant field.Invalid's\n%#v", m, path, got, want)
		}
	})
}
