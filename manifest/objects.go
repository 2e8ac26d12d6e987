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

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
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

// strictFields reports, as unknown fields, the keys of the mappings within n (a value
// decoded through encoding/json into a value of type t) that t has no field for. Types
// that read their own JSON (metav1.Time, the free-form FieldsV1) are not looked into.
func (d *decoder) strictFields(n *yaml.Node, p *path, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || !d.descend(n) {
		return
	}
	defer d.ascend()
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		var known []string
		c := d.pairs(n, p)
		for i := 0; i+1 < len(c); i += 2 {
			key, ok := d.keyOf(c[i], p)
			if !ok {
				continue
			}
			f, found := jsonField(t, key)
			if !found {
				if known == nil {
					known = jsonFields(t)
				}
				d.unknown(p, key, known, c[i])
				continue
			}
			fp := p.child(key)
			if v := d.visit(c[i+1], &fp); v != nil {
				d.strictFields(v, &fp, f.Type)
			}
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
		for i, e := range n.Content {
			ip := p.index(i)
			if e = d.visit(e, &ip); e == nil {
				return
			}
			d.strictFields(e, &ip, t.Elem())
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		c := d.pairs(n, p)
		for i := 0; i+1 < len(c); i += 2 {
			key, ok := d.keyOf(c[i], p)
			kp := p.key(key)
			if v := d.visit(c[i+1], &kp); ok && v != nil {
				d.strictFields(v, &kp, t.Elem())
			}
		}
	}
}

// unknown reports a field the schema does not have, as apimachinery's strict decoding does.
func (d *decoder) unknown(p *path, key string, known []string, k *yaml.Node) {
	fp := p.child(key)
	detail := "unknown field " + clip.Quote(key)
	if s := closestField(key, known); s != "" {
		detail += "; did you mean " + strconv.Quote(s) + "?"
	} else {
		detail += "; known fields: " + strings.Join(known, ", ")
	}
	e := field.Forbidden(fp.build(), detail)
	d.addTyped(e, UnknownField)
	if d.pinned == nil {
		d.pinned = make(map[*field.Error]Position)
	}
	d.pinned[e] = Position{Line: k.Line + d.lines, Column: k.Column}
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

// typeMeta checks the apiVersion and kind of an instance type or a list (or, with
// optional set, of a list item, where both may be left out).
func (d *decoder) typeMeta(root *yaml.Node, p *path, kind string, optional bool) {
	budget := MaxNodes
	// Values that are not strings are reported where the fields are decoded.
	if k, v := lookup(root, "apiVersion", &budget); k != nil {
		if v.Kind == yaml.ScalarNode && v.Tag == tagStr && v.Value != instancetype.APIVersion {
			fp := p.child("apiVersion")
			d.add(field.NotSupported(fp.build(), v.Value, []string{instancetype.APIVersion}))
		}
	} else if !optional {
		fp := p.child("apiVersion")
		d.add(field.Required(fp.build(), "must be "+instancetype.APIVersion))
	}
	if k, v := lookup(root, "kind", &budget); k != nil {
		if v.Kind == yaml.ScalarNode && v.Tag == tagStr && v.Value != kind {
			fp := p.child("kind")
			d.add(field.NotSupported(fp.build(), v.Value, []string{kind}))
		}
	}
}

// instanceType decodes an InstanceType, or a list item when item is set.
func (d *decoder) instanceType(n *yaml.Node, p *path, item bool) *instancetype.InstanceType {
	it := &instancetype.InstanceType{}
	if !d.mapping(n, p) {
		return it
	}
	if !d.descend(n) {
		return it
	}
	defer d.ascend()
	d.typeMeta(n, p, instancetype.Kind, item)
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return it
		}
		if !ok {
			continue
		}
		switch key {
		case "apiVersion":
			it.APIVersion = d.str(v, &fp, false)
		case "kind":
			it.Kind = d.str(v, &fp, false)
		case "metadata":
			d.objectMeta(v, &fp, &it.ObjectMeta)
		case "spec":
			d.spec(v, &fp, &it.Spec)
		default:
			d.other(key, c[i], v, p, instanceTypeFields, it)
		}
	}
	return it
}

// other decodes a field the decoder does not read itself: through encoding/json when the
// struct has it, else it is an unknown field.
func (d *decoder) other(key string, k, v *yaml.Node, p *path, known []string, into any) {
	for _, f := range known {
		if f == key {
			d.viaJSON(key, v, p, into)
			return
		}
	}
	d.unknown(p, key, known, k)
}

func (d *decoder) spec(n *yaml.Node, p *path, s *instancetype.InstanceTypeSpec) {
	if !d.mapping(n, p) || !d.descend(n) {
		return
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return
		}
		if !ok {
			continue
		}
		switch key {
		case "nodeSelector":
			s.NodeSelector = d.stringMap(v, &fp)
		case "resources":
			d.resources(v, &fp, &s.Resources)
		default:
			d.other(key, c[i], v, p, specFields, s)
		}
	}
}

// resources decodes a resources section: limits and requests.
func (d *decoder) resources(n *yaml.Node, p *path, r *instancetype.ResourceRequirements) {
	if !d.mapping(n, p) || !d.descend(n) {
		return
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return
		}
		if !ok {
			continue
		}
		d.keep(&fp, c[i])
		switch key {
		case "limits":
			r.Limits = d.resourceList(v, &fp)
		case "requests":
			r.Requests = d.resourceList(v, &fp)
		default:
			d.other(key, c[i], v, p, resourcesFields, r)
		}
	}
}

// stringMap decodes a map of strings, such as a node selector or labels. A value kubectl
// sends as anything but a string is a finding, null included.
func (d *decoder) stringMap(n *yaml.Node, p *path) map[string]string {
	if !d.mapping(n, p) || !d.descend(n) {
		return nil
	}
	defer d.ascend()
	c := d.keyed(n, p)
	m := make(map[string]string, len(c)/2)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		kp := p.key(key)
		v := d.visit(c[i+1], &kp)
		if v == nil {
			return m
		}
		if ok {
			m[key] = d.str(v, &kp, true)
		}
	}
	return m
}

// objectMeta decodes metadata. The fields a manifest usually carries are read directly;
// the rarer ones (timestamps, owner references, managed fields) go through encoding/json
// into metav1.ObjectMeta, so that they are checked as Kubernetes checks them.
func (d *decoder) objectMeta(n *yaml.Node, p *path, m *metav1.ObjectMeta) {
	if !d.mapping(n, p) || !d.descend(n) {
		return
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return
		}
		if !ok {
			continue
		}
		switch key {
		case "name":
			d.keepName(&fp, c[i])
			m.Name = d.str(v, &fp, false)
		case "generateName":
			m.GenerateName = d.str(v, &fp, false)
		case "namespace":
			m.Namespace = d.str(v, &fp, false)
		case "resourceVersion":
			m.ResourceVersion = d.str(v, &fp, false)
		case "labels":
			m.Labels = d.stringMap(v, &fp)
		case "annotations":
			m.Annotations = d.stringMap(v, &fp)
		default:
			d.other(key, c[i], v, p, objectMetaFields, m)
		}
	}
}

func (d *decoder) listMeta(n *yaml.Node, p *path, m *metav1.ListMeta) {
	if !d.mapping(n, p) || !d.descend(n) {
		return
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return
		}
		if ok {
			d.other(key, c[i], v, p, listMetaFields, m)
		}
	}
}

// viaJSON decodes the field key of a struct through encoding/json, from the JSON value
// kubectl would send for v.
func (d *decoder) viaJSON(key string, v *yaml.Node, p *path, into any) {
	fp := p.child(key)
	before := d.budget
	val := d.value(v, &fp)
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
		d.strictFields(v, &fp, f.Type)
		d.quiet--
		d.budget, d.overflow = after, false
	}
	b, err := json.Marshal(map[string]any{key: val})
	if err == nil {
		err = json.Unmarshal(b, into)
	}
	if err != nil {
		d.refusePath(&fp)
		d.add(field.Invalid(fp.build(), badValue(v), jsonProblem(err)))
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

// list decodes an InstanceTypeList, calling item for each item with its path.
func (d *decoder) list(n *yaml.Node, p *path, item func(it *instancetype.InstanceType, ip *field.Path, n *yaml.Node)) {
	var l instancetype.InstanceTypeList
	d.typeMeta(n, p, instancetype.ListKind, false)
	if !d.descend(n) {
		return
	}
	defer d.ascend()
	sawItems := false
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return
		}
		if !ok {
			continue
		}
		switch key {
		case "apiVersion":
			d.str(v, &fp, false)
		case "kind":
			d.str(v, &fp, false)
		case "metadata":
			d.listMeta(v, &fp, &l.ListMeta)
		case "items":
			sawItems = true
			if v.Kind != yaml.SequenceNode {
				if !isNull(v) {
					d.wrongType(v, &fp, "a list")
				}
				continue
			}
			if !d.descend(v) {
				return
			}
			items := fp.build() // once, for the paths of all the items
			for j, e := range v.Content {
				ip := fp.index(j)
				if e = d.visit(e, &ip); e == nil {
					d.ascend()
					return
				}
				item(d.instanceType(e, &ip, true), items.Index(j), e)
				d.pinErrors()
				if d.itemDone != nil {
					d.itemDone(v, j)
				}
			}
			d.ascend()
		default:
			d.other(key, c[i], v, p, listFields, &l)
		}
	}
	if !sawItems {
		fp := p.child("items")
		d.add(field.Required(fp.build(), "a list of instance types"))
	}
}

// v1ListFields are the fields of a v1 List.
var v1ListFields = []string{"apiVersion", "kind", "metadata", "items"}

// v1List decodes a v1 List, as kubectl get -o yaml prints one: its InstanceType items are
// given to item, its Node items to node, its other items to skip with why.
func (d *decoder) v1List(n *yaml.Node, p *path, item func(*instancetype.InstanceType, *path, *yaml.Node),
	node func(fit.Node, *path, *yaml.Node), skip func(line int, reason string)) {
	if !d.descend(n) {
		return
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return
		}
		if !ok {
			continue
		}
		switch key {
		case "apiVersion", "kind":
			d.str(v, &fp, false)
		case "metadata":
			var m metav1.ListMeta
			d.listMeta(v, &fp, &m)
		case "items":
			if v.Kind != yaml.SequenceNode {
				if !isNull(v) {
					d.wrongType(v, &fp, "a list")
				}
				continue
			}
			if !d.descend(v) {
				return
			}
			for j, e := range v.Content {
				ip := fp.index(j)
				if e = d.visit(e, &ip); e == nil {
					d.ascend()
					return
				}
				kind, reason, problem := recognise(e)
				switch {
				case problem != nil:
					problem.Field = ip.build().Child(problem.Field).String() // items[j].kind
					d.add(problem)
				case kind == KindInstanceType:
					item(d.instanceType(e, &ip, false), &ip, e)
				case kind == KindNode:
					node(d.node(e, &ip), &ip, e)
				case kind == "":
					skip(e.Line, ip.build().String()+": "+reason)
					d.checkTree(e, &ip)
				default:
					skip(e.Line, ip.build().String()+": "+article(string(kind))+" inside a List: write it in a file of its own to have it checked")
					d.checkTree(e, &ip)
				}
				d.pinErrors()
				if d.itemDone != nil {
					d.itemDone(v, j)
				}
			}
			d.ascend()
		default:
			d.unknown(p, key, v1ListFields, c[i])
		}
	}
}
