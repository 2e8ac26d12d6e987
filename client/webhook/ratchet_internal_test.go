package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
	sigsjson "sigs.k8s.io/json"
)

// refWalk is the slow, obvious reference of valuesAt: it visits every node of v, a decoded
// JSON value, with its path rendered as field.Path renders it (valuesAt's rules: .name,
// [key] for the keys of mapFields, [i]).
func refWalk(v any, path string, isMap bool, visit func(path string, v any)) {
	visit(path, v)
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			next := k
			switch {
			case isMap:
				next = path + "[" + k + "]"
			case path != "":
				next = path + "." + k
			}
			refWalk(child, next, !isMap && mapFields[next], visit)
		}
	case []any:
		for i, child := range v {
			refWalk(child, path+"["+strconv.Itoa(i)+"]", false, visit)
		}
	}
}

// refValue is what the reference finds at a path: the last value, and how many nodes.
type refValue struct {
	v     any
	count int
}

// refValuesAt decodes raw as the webhook's reference decoder does and returns what each
// path holds.
func refValuesAt(t interface{ Fatalf(string, ...any) }, raw []byte) map[string]*refValue {
	var root any
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, &root); err != nil {
		t.Fatalf("the reference cannot read %s: %v", raw, err)
	}
	found := map[string]*refValue{}
	refWalk(root, "", false, func(path string, v any) {
		if f := found[path]; f != nil {
			f.count++
			f.v = v
		} else {
			found[path] = &refValue{v: v, count: 1}
		}
	})
	return found
}

// keys are the keys of generated objects: the fields that make maps, keys that render like
// paths (a.b, a[0]), and keys that JSON escapes or that are not ASCII.
var keys = []string{"a", "b", "a.b", "a[0]", "x y", "é", "日本", "<&>", `q"q`, `back\slash`, "tab\t", "\u2028", "",
	"spec", "metadata", "nodeSelector", "labels", "resources", "limits", "requests"}

// genValue draws a JSON value nested at most depth deep.
func genValue(t *rapid.T, depth int) any {
	kind := rapid.IntRange(0, 7).Draw(t, "kind")
	if depth == 0 {
		kind %= 5
	}
	switch kind {
	case 0:
		return rapid.SampledFrom([]string{"", "v", "a b", "1.5", "é\n"}).Draw(t, "string")
	case 1:
		return rapid.Int64().Draw(t, "int")
	case 2:
		return rapid.SampledFrom([]float64{0.5, -1.25, 1e300, 3}).Draw(t, "float")
	case 3:
		return rapid.Bool().Draw(t, "bool")
	case 4:
		return nil
	case 5, 6:
		return genObject(t, depth-1)
	default:
		n := rapid.IntRange(0, 3).Draw(t, "items")
		items := make([]any, n)
		for i := range items {
			items[i] = genValue(t, depth-1)
		}
		return items
	}
}

func genObject(t *rapid.T, depth int) map[string]any {
	o := map[string]any{}
	for range rapid.IntRange(0, 4).Draw(t, "keys") {
		o[rapid.SampledFrom(keys).Draw(t, "key")] = genValue(t, depth)
	}
	return o
}

// genInstanceType draws an object shaped like an InstanceType (its maps where mapFields
// says), with random values and fields added anywhere.
func genInstanceType(t *rapid.T) map[string]any {
	root := genObject(t, 2)
	meta, spec, res := genObject(t, 1), genObject(t, 1), genObject(t, 1)
	meta["labels"], meta["annotations"] = genObject(t, 1), genObject(t, 0)
	spec["nodeSelector"] = genObject(t, 1)
	res["limits"], res["requests"] = genObject(t, 1), genObject(t, 0)
	spec["resources"] = res
	root["metadata"], root["spec"] = meta, spec
	return root
}

// valuesAt finds what the reference finds, at every path of an object and at paths the
// object does not have, whatever the object's spacing.
func TestValuesAtIsReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw, err := json.Marshal(genInstanceType(t))
		if err != nil {
			t.Fatal(err)
		}
		if rapid.Bool().Draw(t, "indent") {
			var b bytes.Buffer
			if err := json.Indent(&b, raw, " ", "\t "); err != nil {
				t.Fatal(err)
			}
			raw = b.Bytes()
		}
		ref := refValuesAt(t, raw)
		var s pathSet
		for p := range ref {
			if rapid.IntRange(0, 3).Draw(t, "take") > 0 {
				s.add(p)
				s.add(p + ".absent")
				s.add(p + "[absent]")
			}
		}
		s.add("absent")
		got, ok := s.valuesAt(raw)
		if !ok {
			t.Fatalf("valuesAt(%s) failed", raw)
		}
		for i, p := range s.paths {
			want := ref[p]
			switch {
			case want == nil && got[i].count != 0:
				t.Fatalf("%q: found %d times in %s; the reference finds nothing", p, got[i].count, raw)
			case want != nil && min(want.count, 2) != min(got[i].count, 2):
				t.Fatalf("%q: found %d times in %s; the reference %d", p, got[i].count, raw, want.count)
			case want != nil && want.count == 1:
				var v any
				text := raw[got[i].start:got[i].end]
				if err := sigsjson.UnmarshalCaseSensitivePreserveInts(text, &v); err != nil || !reflect.DeepEqual(v, want.v) {
					t.Fatalf("%q: %s (%v); the reference %#v", p, text, err, want.v)
				}
			}
		}
	})
}

// valuesAt reads keys as encoding/json does (escapes decoded, invalid UTF-8 as U+FFFD),
// and counts a key written twice as two places.
func TestValuesAtKeys(t *testing.T) {
	for _, tc := range []struct {
		raw, path string
		count     int
		value     string
	}{
		{`{"spec":{"nodeSelector":{"a\u0020b":"x"}}}`, "spec.nodeSelector[a b]", 1, `"x"`},
		{`{"spec":{"node\u0053elector":{"k":1}}}`, "spec.nodeSelector[k]", 1, `1`},
		{`{"spec":{"a\"b\\":[1, {"c":null}]}}`, `spec.a"b\[1].c`, 1, `null`},
		{"{\"k\xff\":true}", "k\uFFFD", 1, `true`},
		{`{"k\ud800":true}`, "k\uFFFD", 1, `true`},
		{`{"spec":{"x":1,"x":1}}`, "spec.x", 2, ``},
		{`{"spec":{"x":{"y":1},"x":{"y":1}}}`, "spec.x.y", 2, ``},
		{`{"spec":{"a.b":1,"a":{"b":2}}}`, "spec.a.b", 2, ``},
		{`{"spec":{"a.b":1,"a":{"b":2}}}`, "spec.a", 1, `{"b":2}`},
		{` { "spec" : { "x" : [ 1 , 2 ] } } `, "spec.x[1]", 1, `2`},
		{`{"spec":{}}`, "spec.x", 0, ``},
		{`[{"a":1}]`, "[0].a", 1, `1`},
		{`{"a":1}`, "", 1, `{"a":1}`},
	} {
		var s pathSet
		s.add(tc.path)
		got, ok := s.valuesAt([]byte(tc.raw))
		if !ok || got[0].count != tc.count || tc.count == 1 && tc.raw[got[0].start:got[0].end] != tc.value {
			t.Errorf("valuesAt(%s) at %q: ok %v, %+v; want %d, %s", tc.raw, tc.path, ok, got, tc.count, tc.value)
		}
	}
}

// valuesAt reads exactly what encoding/json reads: anything else is not JSON.
func TestValuesAtRefusesWhatJSONRefuses(t *testing.T) {
	deep := strings.Repeat(`{"a":`, maxDepth) + "1" + strings.Repeat("}", maxDepth)
	tooDeep := strings.Repeat(`[`, maxDepth+1) + strings.Repeat("]", maxDepth+1)
	for _, raw := range []string{
		`{"a":1}`, `{"a":1} `, `{"a":1}x`, `{"a":1}{}`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":.5}`, `{"a":1e}`,
		`{"a":1e+5}`, `{"a":-0.5E-3}`, `{"a":tru}`, `{"a":truex}`, `{"a":nul}`, `{"a":"\x"}`, `{"a":"\u12"}`,
		`{"a":"\u12g4"}`, "{\"a\":\"\x01\"}", `{"a":"`, `{"a"}`, `{"a":1,}`, `{,}`, `{"a":[1,]}`, `{"a":[1 2]}`,
		`{a:1}`, ``, ` `, `"x"`, `[]`, `{"a":{"b":[{}]}}`, deep, tooDeep, "{\"a\":\"\xff\"}",
	} {
		var s pathSet
		s.add("a")
		_, ok := s.valuesAt([]byte(raw))
		if want := json.Valid([]byte(raw)) && raw != tooDeep; ok != want {
			t.Errorf("valuesAt(%.40s) ok = %v; want %v", raw, ok, want)
		}
	}
}

// manyKeys is an instance type with n invalid node selector keys, and their paths.
func manyKeys(n int) ([]byte, []string) {
	var b strings.Builder
	paths := make([]string, n)
	b.WriteString(`{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},"spec":{"nodeSelector":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"bad key %d":"v"`, i)
		paths[i] = fmt.Sprintf("spec.nodeSelector[bad key %d]", i)
	}
	b.WriteString(`},"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}}`)
	return []byte(b.String()), paths
}

var sinkSpans []span

// valuesAt allocates nothing for each node or key: its allocations are those of its
// result and of the path it builds, whatever the number of keys (the walk it replaced
// decoded the object and made a string of each node's path).
func TestValuesAtAllocations(t *testing.T) {
	for _, n := range []int{10, 10000} {
		raw, paths := manyKeys(n)
		var s pathSet
		for _, p := range paths {
			s.add(p)
		}
		allocs := testing.AllocsPerRun(5, func() {
			var ok bool
			if sinkSpans, ok = s.valuesAt(raw); !ok {
				t.Fatal("not JSON")
			}
		})
		if allocs > 8 {
			t.Errorf("valuesAt of %d keys: %.0f allocations; want at most 8", n, allocs)
		}
		for i, f := range sinkSpans {
			if f.count != 1 {
				t.Fatalf("%s: count %d", paths[i], f.count)
			}
		}
	}
}
