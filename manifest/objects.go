package manifest

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
)

var (
	instanceTypeFields = []string{"apiVersion", "kind", "metadata", "spec"}
	listFields         = []string{"apiVersion", "kind", "metadata", "items"}
	itemFields         = []string{"apiVersion", "kind", "metadata", "spec"}
	specFields         = []string{"nodeSelector", "resources"}
	resourcesFields    = []string{"limits", "requests"}
	objectMetaFields   = jsonFields(reflect.TypeFor[metav1.ObjectMeta]())
	listMetaFields     = jsonFields(reflect.TypeFor[metav1.ListMeta]())
)

// jsonFields lists the JSON names of a struct's fields.
func jsonFields(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// unknown reports a field the schema does not have.
func (d *decoder) unknown(p *field.Path, key string, known []string) {
	d.add(field.NotSupported(p.Child(key), key, known))
}

// typeMeta checks the apiVersion and kind of an instance type or a list (or, with
// optional set, of a list item, where both may be left out).
func (d *decoder) typeMeta(root *yaml.Node, p *field.Path, kind string, optional bool) {
	budget := MaxNodes
	// Values that are not strings are reported where the fields are decoded.
	if k, v := lookup(root, "apiVersion", &budget); k != nil {
		if isString(v) && v.Value != instancetype.APIVersion {
			d.add(field.NotSupported(p.Child("apiVersion"), v.Value, []string{instancetype.APIVersion}))
		}
	} else if !optional {
		d.add(field.Required(p.Child("apiVersion"), "must be "+instancetype.APIVersion))
	}
	if k, v := lookup(root, "kind", &budget); k != nil {
		if isString(v) && v.Value != kind {
			d.add(field.NotSupported(p.Child("kind"), v.Value, []string{kind}))
		}
	}
}

// instanceType decodes an InstanceType, or a list item when item is set.
func (d *decoder) instanceType(n *yaml.Node, p *field.Path, item bool) instancetype.InstanceType {
	var it instancetype.InstanceType
	if !d.mapping(n, p) {
		return it
	}
	d.typeMeta(n, p, instancetype.Kind, item)
	known := instanceTypeFields
	if item {
		known = itemFields
	}
	d.entries(n, p, true, func(key string, _, v *yaml.Node) {
		switch key {
		case "apiVersion":
			it.APIVersion = d.str(v, p.Child(key))
		case "kind":
			it.Kind = d.str(v, p.Child(key))
		case "metadata":
			d.objectMeta(v, p.Child(key), &it.ObjectMeta)
		case "spec":
			d.spec(v, p.Child(key), &it.Spec)
		default:
			d.unknown(p, key, known)
		}
	})
	return it
}

func (d *decoder) spec(n *yaml.Node, p *field.Path, s *instancetype.InstanceTypeSpec) {
	if !d.mapping(n, p) {
		return
	}
	d.entries(n, p, true, func(key string, _, v *yaml.Node) {
		switch key {
		case "nodeSelector":
			s.NodeSelector = d.stringMap(v, p.Child(key))
		case "resources":
			d.resources(v, p.Child(key), &s.Resources)
		default:
			d.unknown(p, key, specFields)
		}
	})
}

// resources decodes a resources section: limits and requests.
func (d *decoder) resources(n *yaml.Node, p *field.Path, r *instancetype.ResourceRequirements) {
	if !d.mapping(n, p) {
		return
	}
	d.entries(n, p, true, func(key string, _, v *yaml.Node) {
		switch key {
		case "limits":
			r.Limits = d.resourceList(v, p.Child(key))
		case "requests":
			r.Requests = d.resourceList(v, p.Child(key))
		default:
			d.unknown(p, key, resourcesFields)
		}
	})
}

// stringMap decodes a map of strings, such as a node selector or labels.
func (d *decoder) stringMap(n *yaml.Node, p *field.Path) map[string]string {
	if !d.mapping(n, p) {
		return nil
	}
	m := make(map[string]string, len(n.Content)/2)
	d.entries(n, p, false, func(key string, _, v *yaml.Node) {
		m[key] = d.str(v, p.Key(key))
	})
	return m
}

// objectMeta decodes metadata. The fields a manifest usually carries are read directly;
// the rarer ones (timestamps, owner references, managed fields) go through encoding/json
// into metav1.ObjectMeta, so that they are checked as Kubernetes checks them.
func (d *decoder) objectMeta(n *yaml.Node, p *field.Path, m *metav1.ObjectMeta) {
	if !d.mapping(n, p) {
		return
	}
	d.entries(n, p, true, func(key string, _, v *yaml.Node) {
		switch key {
		case "name":
			m.Name = d.str(v, p.Child(key))
		case "generateName":
			m.GenerateName = d.str(v, p.Child(key))
		case "namespace":
			m.Namespace = d.str(v, p.Child(key))
		case "uid":
			m.UID = types.UID(d.str(v, p.Child(key)))
		case "resourceVersion":
			m.ResourceVersion = d.str(v, p.Child(key))
		case "labels":
			m.Labels = d.stringMap(v, p.Child(key))
		case "annotations":
			m.Annotations = d.stringMap(v, p.Child(key))
		default:
			d.viaJSON(key, v, p, objectMetaFields, m)
		}
	})
}

func (d *decoder) listMeta(n *yaml.Node, p *field.Path, m *metav1.ListMeta) {
	if !d.mapping(n, p) {
		return
	}
	d.entries(n, p, true, func(key string, _, v *yaml.Node) {
		d.viaJSON(key, v, p, listMetaFields, m)
	})
}

// viaJSON decodes the field key of a metadata struct through encoding/json, after
// checking that the struct has it.
func (d *decoder) viaJSON(key string, v *yaml.Node, p *field.Path, known []string, into any) {
	found := false
	for _, k := range known {
		found = found || k == key
	}
	if !found {
		d.unknown(p, key, known)
		return
	}
	d.checkTree(v, p.Child(key))
	if d.overflow || d.tooLong != nil {
		return
	}
	var val any
	if err := v.Decode(&val); err != nil {
		d.add(field.Invalid(p.Child(key), field.OmitValueType{}, err.Error()))
		return
	}
	b, err := json.Marshal(map[string]any{key: val})
	if err == nil {
		err = json.Unmarshal(b, into)
	}
	if err != nil {
		d.add(field.Invalid(p.Child(key), badValue(v), jsonProblem(err)))
	}
}

// jsonProblem shortens an encoding/json error to what a user can act on.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "must be " + jsonTypeName(te.Type) + ", not a " + te.Value
	}
	return err.Error()
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
	return "a " + t.String()
}

// list decodes an InstanceTypeList.
func (d *decoder) list(n *yaml.Node, p *field.Path) *instancetype.InstanceTypeList {
	l := &instancetype.InstanceTypeList{}
	d.typeMeta(n, p, instancetype.ListKind, false)
	sawItems := false
	d.entries(n, p, true, func(key string, _, v *yaml.Node) {
		switch key {
		case "apiVersion":
			l.APIVersion = d.str(v, p.Child(key))
		case "kind":
			l.Kind = d.str(v, p.Child(key))
		case "metadata":
			d.listMeta(v, p.Child(key), &l.ListMeta)
		case "items":
			sawItems = true
			if v.Kind != yaml.SequenceNode {
				if !isNull(v) {
					d.wrongType(v, p.Child(key), "a list")
				}
				return
			}
			l.Items = make([]instancetype.InstanceType, 0, len(v.Content))
			for i, e := range v.Content {
				if e = d.visit(e); e == nil {
					return
				}
				l.Items = append(l.Items, d.instanceType(e, p.Child(key).Index(i), true))
			}
		default:
			d.unknown(p, key, listFields)
		}
	})
	if !sawItems {
		d.add(field.Required(p.Child("items"), "a list of instance types"))
	}
	return l
}
