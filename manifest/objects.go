package manifest

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/textdist"
)

// The fields of each decoded struct, from the JSON names of the Go types, so that a field
// added to a type is known here at once: the decoder reads the common fields itself and
// any other known field through encoding/json.
var (
	instanceTypeFields = jsonFields(reflect.TypeFor[instancetype.InstanceType]())
	listFields         = jsonFields(reflect.TypeFor[instancetype.InstanceTypeList]())
	specFields         = jsonFields(reflect.TypeFor[instancetype.InstanceTypeSpec]())
	resourcesFields    = jsonFields(reflect.TypeFor[instancetype.ResourceRequirements]())
	objectMetaFields   = jsonFields(reflect.TypeFor[metav1.ObjectMeta]())
	listMetaFields     = jsonFields(reflect.TypeFor[metav1.ListMeta]())
)

// jsonFields lists the JSON names of a struct's fields, those of inlined structs included,
// in order.
func jsonFields(t reflect.Type) []string {
	var names []string
	eachJSONField(t, func(name string, _ reflect.StructField) bool {
		names = append(names, name)
		return true
	})
	return names
}

// eachJSONField calls fn with the JSON name and the field of each of a struct's fields that
// encoding/json decodes, those of inlined structs included, in order, until fn returns
// false. It reports whether fn never did.
func eachJSONField(t reflect.Type, fn func(name string, f reflect.StructField) bool) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case name == "" && (strings.Contains(","+opts+",", ",inline,") || f.Anonymous) && f.Type.Kind() == reflect.Struct:
			if !eachJSONField(f.Type, fn) {
				return false
			}
		case name != "":
			if !fn(name, f) {
				return false
			}
		}
	}
	return true
}

// jsonField returns the field of the struct type t that encoding/json would decode the
// JSON key name into, matched exactly, as strict decoding matches (encoding/json also
// takes a key that differs in case; strict decoding reports that as unknown).
func jsonField(t reflect.Type, name string) (sf reflect.StructField, found bool) {
	eachJSONField(t, func(n string, f reflect.StructField) bool {
		if n == name {
			sf, found = f, true
		}
		return !found
	})
	return sf, found
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// strictFields reports, as unknown fields, the keys of the mappings within n (the value of
// the current path, decoded through encoding/json into a value of type t) that t has no
// field for. Types that read their own JSON (metav1.Time, the free-form FieldsV1) are not
// looked into.
func (d *decoder) strictFields(n *yaml.Node, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		var known []string
		d.walk(n, false, func(key string, k, v *yaml.Node) {
			f, found := jsonField(t, key)
			if !found {
				if known == nil {
					known = jsonFields(t)
				}
				d.unknown(key, known, k)
				return
			}
			d.strictFields(v, f.Type)
		})
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
		d.items(n, func(_ int, _, e *yaml.Node) { d.strictFields(e, t.Elem()) })
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		d.walk(n, true, func(_ string, _, v *yaml.Node) { d.strictFields(v, t.Elem()) })
	}
}

// unknown reports the field key at the current path, written at k, which the schema does
// not have, as apimachinery's strict decoding does.
func (d *decoder) unknown(key string, known []string, k *yaml.Node) {
	detail := "unknown field " + clip.Quote(key)
	if s := closestField(key, known); s != "" {
		detail += "; did you mean " + strconv.Quote(s) + "?"
	} else {
		detail += "; known fields: " + strings.Join(known, ", ")
	}
	d.addTyped(k, field.Forbidden(d.path.build(), detail).WithOrigin(rules.UnknownField), UnknownField)
}

// closestField returns the known field key most likely meant: equal but for case, or the
// one nearest within a small edit distance (one edit for names of up to four letters, two
// for longer ones; a swap of two letters is one), when no other is as near.
func closestField(key string, known []string) string {
	best, bestDist, ties := "", 3, 0
	for _, k := range known {
		limit := 2
		if len(k) <= 4 {
			limit = 1
		}
		d := textdist.Distance(key, k, limit)
		switch {
		case d > limit || d > bestDist:
		case d < bestDist:
			best, bestDist, ties = k, d, 0
		default:
			ties++
		}
	}
	if ties > 0 {
		return ""
	}
	return best
}

// typeMeta checks the apiVersion and kind of the instance type or list n at the current
// path (or, with optional set, of a list item, where both may be left out).
func (d *decoder) typeMeta(n *yaml.Node, kind string, optional bool) {
	budget := MaxNodes
	// Values that are not strings are reported where the fields are decoded.
	check := func(name, want string, required bool) {
		d.path.field(name)
		defer d.path.pop()
		k, v := lookup(n, name, &budget)
		switch {
		case k == nil && required:
			d.add(field.Required(d.path.build(), "must be "+want).WithOrigin(rules.Kind))
		case k != nil && v.Kind == yaml.ScalarNode && v.Tag == tagStr && v.Value != want:
			d.add(field.NotSupported(d.path.build(), v.Value, []string{want}).WithOrigin(rules.Kind))
		}
	}
	check("apiVersion", instancetype.APIVersion, !optional)
	check("kind", kind, false)
}

// instanceType decodes the InstanceType n at the current path, or a list item when item
// is set.
func (d *decoder) instanceType(n *yaml.Node, item bool) *instancetype.InstanceType {
	it := &instancetype.InstanceType{}
	if !d.mapping(n) {
		return it
	}
	d.typeMeta(n, instancetype.Kind, item)
	d.walk(n, false, func(key string, k, v *yaml.Node) {
		switch key {
		case "apiVersion":
			it.APIVersion = d.str(v, false)
		case "kind":
			it.Kind = d.str(v, false)
		case "metadata":
			d.objectMeta(v, &it.ObjectMeta)
		case "spec":
			d.spec(v, &it.Spec)
		default:
			d.other(key, k, v, instanceTypeFields, it)
		}
	})
	return it
}

// other decodes the field key, at the current path, that the decoder does not read itself:
// through encoding/json when the struct into has it, else it is an unknown field, whose
// value is still checked for what kubectl refuses (so that such a finding has its path).
func (d *decoder) other(key string, k, v *yaml.Node, known []string, into any) {
	for _, f := range known {
		if f == key {
			d.viaJSON(key, v, into)
			return
		}
	}
	d.unknown(key, known, k)
	d.checkTree(v)
}

func (d *decoder) spec(n *yaml.Node, s *instancetype.InstanceTypeSpec) {
	d.object(n, func(key string, k, v *yaml.Node) {
		switch key {
		case "nodeSelector":
			s.NodeSelector = d.stringMap(v)
		case "resources":
			d.resources(v, &s.Resources)
		default:
			d.other(key, k, v, specFields, s)
		}
	})
}

// resources decodes a resources section: limits and requests.
func (d *decoder) resources(n *yaml.Node, r *instancetype.ResourceRequirements) {
	d.object(n, func(key string, k, v *yaml.Node) {
		switch key {
		case "limits":
			r.Limits = d.resourceList(v)
		case "requests":
			r.Requests = d.resourceList(v)
		default:
			d.other(key, k, v, resourcesFields, r)
		}
	})
}

// stringMap decodes a map of strings, such as a node selector or labels. A value kubectl
// sends as anything but a string is a finding, null included.
func (d *decoder) stringMap(n *yaml.Node) map[string]string {
	if !d.mapping(n) {
		return nil
	}
	m := make(map[string]string, len(n.Content)/2)
	d.walk(n, true, func(key string, _, v *yaml.Node) { m[key] = d.str(v, true) })
	return m
}

// objectMeta decodes metadata. The fields a manifest usually carries are read directly;
// the rarer ones (timestamps, owner references, managed fields) go through encoding/json
// into metav1.ObjectMeta, so that they are checked as Kubernetes checks them.
func (d *decoder) objectMeta(n *yaml.Node, m *metav1.ObjectMeta) {
	d.object(n, func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
			m.Name = d.str(v, false)
		case "generateName":
			m.GenerateName = d.str(v, false)
		case "namespace":
			m.Namespace = d.str(v, false)
		case "resourceVersion":
			m.ResourceVersion = d.str(v, false)
		case "labels":
			m.Labels = d.stringMap(v)
		case "annotations":
			m.Annotations = d.stringMap(v)
		default:
			d.other(key, k, v, objectMetaFields, m)
		}
	})
}

func (d *decoder) listMeta(n *yaml.Node, m *metav1.ListMeta) {
	d.object(n, func(key string, k, v *yaml.Node) { d.other(key, k, v, listMetaFields, m) })
}

// viaJSON decodes the field key of a struct, at the current path, through encoding/json,
// from the JSON value kubectl would send for v.
func (d *decoder) viaJSON(key string, v *yaml.Node, into any) {
	before := d.budget
	val := d.value(v)
	if d.overflow || d.tooDeep != nil {
		return
	}
	// encoding/json ignores fields it does not know, and strict decoding reports them:
	// walk the value again against the Go type. The walk retraces value's, so it is
	// charged nothing more.
	if f, ok := jsonField(reflect.TypeOf(into).Elem(), key); ok {
		after := d.budget
		d.budget = before
		d.quiet++
		d.unrecorded++
		d.strictFields(v, f.Type)
		d.unrecorded--
		d.quiet--
		d.budget, d.overflow = after, false
	}
	b, err := json.Marshal(map[string]any{key: val})
	if err == nil {
		err = json.Unmarshal(b, into)
	}
	if err != nil {
		d.refused()
		d.add(field.Invalid(d.path.build(), badValue(v), jsonProblem(err)).WithOrigin(rules.WrongType))
	}
}

// jsonProblem shortens an encoding/json error to what a user can act on.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "must be " + jsonTypeName(te.Type) + ", not " + jsonValueName(te.Value)
	}
	return err.Error()
}

// jsonValueName names, as the other findings do, the kind of JSON value that
// encoding/json's UnmarshalTypeError names ("array", "number 1.5", "object").
func jsonValueName(v string) string {
	kind, _, _ := strings.Cut(v, " ")
	switch kind {
	case "array":
		return "a list"
	case "object":
		return "a mapping"
	case "bool":
		return "a boolean"
	case "number":
		return "a number"
	case "string":
		return "a string"
	}
	return article(v)
}

// article returns s after "a" or "an", as its first letter asks (a U is taken as in
// "a User").
func article(s string) string {
	if s != "" && strings.ContainsRune("AEIOaeio", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return article(t.String())
}

// list decodes the InstanceTypeList n, calling item for each item with its path.
func (d *decoder) list(n *yaml.Node, item func(it *instancetype.InstanceType, ip *field.Path, n *yaml.Node, errs field.ErrorList), grow func(items int)) {
	var l instancetype.InstanceTypeList
	d.typeMeta(n, instancetype.ListKind, false)
	sawItems := false
	d.walk(n, false, func(key string, k, v *yaml.Node) {
		switch key {
		case "apiVersion", "kind":
			d.str(v, false)
		case "metadata":
			d.listMeta(v, &l.ListMeta)
		case "items":
			sawItems = true
			if v.Kind != yaml.SequenceNode {
				if !isNull(v) {
					d.wrongType(v, "a list")
				}
				return
			}
			items := d.path.build() // once, for the paths of all the items
			grow(len(v.Content))
			d.items(v, func(j int, _, e *yaml.Node) {
				from := len(d.errs)
				it := d.instanceType(e, true)
				item(it, items.Index(j), e, d.since(from))
				d.release(v, j)
			})
		default:
			d.other(key, k, v, listFields, &l)
		}
	})
	if !sawItems {
		d.path.field("items")
		d.add(field.Required(d.path.build(), "a list of instance types").WithOrigin(rules.Kind))
		d.path.pop()
	}
}

// v1ListFields are the fields of a v1 List.
var v1ListFields = []string{"apiVersion", "kind", "metadata", "items"}

// v1List decodes the v1 List n, as kubectl get -o yaml prints one: its InstanceType items
// are given to item, its Node items to node, its other items to skip with why.
func (d *decoder) v1List(n *yaml.Node, item func(*instancetype.InstanceType, *field.Path, *yaml.Node, field.ErrorList),
	node func(cluster.Node, *field.Path, *yaml.Node, field.ErrorList), skip func(line int, reason string)) {
	d.walk(n, false, func(key string, k, v *yaml.Node) {
		switch key {
		case "apiVersion", "kind":
			d.str(v, false)
		case "metadata":
			var m metav1.ListMeta
			d.listMeta(v, &m)
		case "items":
			if v.Kind != yaml.SequenceNode {
				if !isNull(v) {
					d.wrongType(v, "a list")
				}
				return
			}
			items := d.path.build()
			d.items(v, func(j int, _, e *yaml.Node) {
				kind, reason, problem := recognise(e)
				from := len(d.errs)
				switch {
				case problem != nil:
					problem.Field = string(d.path.text) + "." + problem.Field // items[j].kind
					budget := MaxNodes
					if k, _ := lookup(e, "kind", &budget); k != nil {
						d.addAt(k, problem)
					} else {
						d.add(problem)
					}
				case kind == KindInstanceType:
					it := d.instanceType(e, false)
					item(it, items.Index(j), e, d.since(from))
				case kind == KindNode:
					nd := d.node(e)
					node(nd, items.Index(j), e, d.since(from))
				case kind == "":
					skip(e.Line, string(d.path.text)+": "+reason)
					d.checkTree(e)
				default:
					skip(e.Line, string(d.path.text)+": "+article(string(kind))+" inside a List: write it in a file of its own to have it checked")
					d.checkTree(e)
				}
				d.release(v, j)
			})
		default:
			d.unknown(key, v1ListFields, k)
			d.checkTree(v)
		}
	})
}

// release lets the nodes of the decoded item j of the list seq go, so that memory holds the
// decoded objects and the tree of the items left, not both. Nothing reads a document's tree
// once it is decoded; within the decoding, only an alias can reach a node a second time, so
// that items are released only in a document without aliases.
func (d *decoder) release(seq *yaml.Node, j int) {
	if !d.aliases {
		if d.long != nil && seq == d.long.seq {
			j -= d.itemBase // the list's node holds one part
		}
		seq.Content[j] = nil
	}
}
