package decode

import (
	"reflect"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
	"github.com/amlarc-go/instancetypes/source"
)

// Object is one object of a document, with its place in it.
type Object[T any] struct {
	// Path is where the object is in its document: nil for the document itself, items[3]
	// for an item of a list.
	Path *field.Path
	// Object is the object, with whatever could be decoded of it.
	Object T
	// Errors are the problems decoding found in the object, at paths relative to the
	// document.
	Errors field.ErrorList
}

// Skipped is an item of a list that is not decoded, and why.
type Skipped struct {
	Path   *field.Path
	Reason string
}

// Result is what decoding a Kubernetes document found.
type Result struct {
	// InstanceTypes are the instance types of the document: the InstanceType itself, the
	// items of an InstanceTypeList, the InstanceType items of a List.
	InstanceTypes []Object[*instancetype.InstanceType]
	// Nodes are its v1 Nodes: the Node itself, the Node items of a List.
	Nodes []Object[cluster.Node]
	// Skipped are the items of a List that are neither.
	Skipped []Skipped
	// Errors are the problems of the document outside its objects (a list's own fields).
	Errors field.ErrorList
	// At places the errors whose path does not say where they are: a duplicate merge key,
	// reported at its mapping.
	At map[*field.Error]source.Position
}

// Document decodes the document d, recognised as kind (see Recognise), strictly: an
// unknown field of an instance type or a list is a finding, as apimachinery's strict
// decoding reports it, with the known fields taken from the Go types' JSON names; a value
// of the wrong type is a finding at its path, and decoding goes on, so that every problem
// is reported at once; so is a key set twice in any mapping of the document (see
// Duplicates). Of a Node, what the fit check needs is decoded (its name and labels,
// spec.unschedulable and taints, status.allocatable), and the rest is not checked. The
// items of a long list are decoded one run at a time (source.Document.Items).
func Document(d *source.Document, kind Kind) *Result {
	r := &Result{}
	dec := &strict.Decoder{Src: d}
	switch kind {
	case KindInstanceType:
		it, errs := InstanceType(d.Value, nil, false, d)
		r.InstanceTypes = append(r.InstanceTypes, Object[*instancetype.InstanceType]{Object: it, Errors: errs})
	case KindNode:
		n, errs := Node(d.Value, nil, d)
		r.Nodes = append(r.Nodes, Object[cluster.Node]{Object: n, Errors: errs})
	case KindInstanceTypeList, KindList:
		list(dec, d, kind, r)
		r.Errors = dec.Errs
	}
	dups, at := Duplicates(d)
	r.At = at
	for _, e := range dups {
		r.attribute(e)
	}
	return r
}

// InstanceType decodes the value v of an InstanceType at path p of its document (nil for
// the document itself), strictly. An item of an InstanceTypeList (item set) may leave
// out its apiVersion and kind. src, when not nil, is the document, whose text findings
// quote values from.
func InstanceType(v any, p *field.Path, item bool, src strict.Written) (*instancetype.InstanceType, field.ErrorList) {
	d := &strict.Decoder{Src: src}
	it := &instancetype.InstanceType{}
	m, ok := d.Mapping(v, p)
	if ok {
		typeMeta(d, m, p, instancetype.Kind, item)
		d.Object(m, reflect.ValueOf(it).Elem(), p)
	}
	if spec, _ := m["spec"].(map[string]any); hasKey(spec, "tolerations") {
		at := p.Child("spec", "tolerations").String()
		for _, e := range d.Errs {
			if e.Field == at && e.Origin == rules.UnknownField {
				e.Detail += tolerationsHint
			}
		}
	}
	return it, d.Errs
}

// hasKey reports whether the mapping m has the key k.
func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// tolerationsHint follows the unknown-field finding of an InstanceType's spec.tolerations:
// where the tolerations of Azure ML's workloads come from instead. Azure Machine
// Learning's "Reference for configuring Kubernetes cluster" (section "Supported Azure
// Machine Learning taints and tolerations") supports only its own taints, which its
// workload pods tolerate; its extension's configuration settings (az k8s-extension
// create --config) include a nodeSelector but no tolerations.
const tolerationsHint = "; an InstanceType has no tolerations: Azure ML's workload pods tolerate Azure ML's own taints: " +
	"ml.azure.com/amlarc=true and ml.azure.com/amlarc-workload=true, and ml.azure.com/resource-group, ml.azure.com/workspace " +
	"and ml.azure.com/compute set to the workload's own; taint the nodes for Azure ML with those, and pick the nodes with " +
	"spec.nodeSelector (or the extension's nodeSelector: az k8s-extension create --config nodeSelector.KEY=VALUE)"

// typeMeta checks the apiVersion and kind of the instance type or list m at p (or, with
// optional set, of a list item, where both may be left out). Values that are not strings
// are reported where the fields are decoded.
func typeMeta(d *strict.Decoder, m map[string]any, p *field.Path, kind string, optional bool) {
	check := func(name, want string, required bool) {
		v, ok := m[name]
		s, isString := v.(string)
		switch {
		case !ok && required:
			d.Errs = append(d.Errs, field.Required(p.Child(name), "must be "+want).WithOrigin(rules.Kind))
		case isString && s != want:
			d.Errs = append(d.Errs, field.NotSupported(p.Child(name), s, []string{want}).WithOrigin(rules.Kind))
		}
	}
	check("apiVersion", instancetype.APIVersion, !optional)
	check("kind", kind, false)
}

var (
	listFields     = strict.FieldNames(reflect.TypeFor[instancetype.InstanceTypeList]())
	v1ListFields   = []string{"apiVersion", "kind", "metadata", "items"}
	itemsPath      = field.NewPath("items")
	itemsReadAlone = "a list of instance types"
)

// list decodes an InstanceTypeList or a v1 List: its own fields, then each item.
func list(d *strict.Decoder, doc *source.Document, kind Kind, r *Result) {
	m, ok := d.Mapping(doc.Value, nil)
	if !ok {
		return
	}
	known := listFields
	if kind == KindInstanceTypeList {
		typeMeta(d, m, nil, instancetype.ListKind, false)
	} else {
		known = v1ListFields
	}
	for _, k := range strict.SortedKeys(m) {
		switch k {
		case "apiVersion", "kind":
			d.Str(m[k], field.NewPath(k), false)
		case "metadata":
			var lm metav1.ListMeta
			d.Object(m[k], reflect.ValueOf(&lm).Elem(), field.NewPath(k))
		case "items":
			if _, isList := m[k].([]any); !isList && m[k] != nil {
				d.WrongType(m[k], itemsPath, "a list")
			}
		default:
			d.Unknown(k, known, field.NewPath(k))
		}
	}
	if _, ok := m["items"]; !ok && !doc.Long() && kind == KindInstanceTypeList {
		d.Errs = append(d.Errs, field.Required(itemsPath, itemsReadAlone).WithOrigin(rules.Kind))
	}
	doc.Items(func(i int, v any) bool {
		p := itemsPath.Index(i)
		if kind == KindInstanceTypeList {
			it, errs := InstanceType(v, p, true, doc)
			r.InstanceTypes = append(r.InstanceTypes, Object[*instancetype.InstanceType]{Path: p, Object: it, Errors: errs})
			return true
		}
		switch k, skip, problem, ok := Recognise(v); {
		case problem != nil:
			problem.Field = p.String() + "." + problem.Field
			d.Errs = append(d.Errs, problem)
		case k == KindInstanceType:
			it, errs := InstanceType(v, p, false, doc)
			r.InstanceTypes = append(r.InstanceTypes, Object[*instancetype.InstanceType]{Path: p, Object: it, Errors: errs})
		case k == KindNode:
			n, errs := Node(v, p, doc)
			r.Nodes = append(r.Nodes, Object[cluster.Node]{Path: p, Object: n, Errors: errs})
		case ok && k == "":
			r.Skipped = append(r.Skipped, Skipped{Path: p, Reason: p.String() + ": " + skip})
		case ok:
			r.Skipped = append(r.Skipped, Skipped{Path: p, Reason: p.String() + ": " + strict.Article(string(k)) + " inside a List: write it in a file of its own to have it checked"})
		default:
			r.Skipped = append(r.Skipped, Skipped{Path: p, Reason: p.String() + ": " + strict.KindName(v) + ", not a Kubernetes object (an Azure ML file inside a List is not read: write it in a file of its own)"})
		}
		return true
	})
}

// attribute adds a finding of the whole document to the object it is in.
func (r *Result) attribute(e *field.Error) {
	for i := range r.InstanceTypes {
		if within(e.Field, r.InstanceTypes[i].Path) {
			r.InstanceTypes[i].Errors = append(r.InstanceTypes[i].Errors, e)
			return
		}
	}
	for i := range r.Nodes {
		if within(e.Field, r.Nodes[i].Path) {
			r.Nodes[i].Errors = append(r.Nodes[i].Errors, e)
			return
		}
	}
	r.Errors = append(r.Errors, e)
}

// within reports whether the field path f is at or below p (any path for nil).
func within(f string, p *field.Path) bool {
	if p == nil {
		return true
	}
	s := p.String()
	return len(f) >= len(s) && f[:len(s)] == s && (len(f) == len(s) || f[len(s)] == '.' || f[len(s)] == '[')
}

// keyedMaps are the fields whose values are maps keyed by name, whose keys a path holds
// in brackets: labels[team], limits[nvidia.com/gpu].
var keyedMaps = map[string]bool{"labels": true, "annotations": true, "nodeSelector": true, "requests": true, "limits": true,
	"allocatable": true, "capacity": true}

// Duplicates returns a finding for each key set twice in a mapping of the document d, as
// source.Document.Duplicates finds them (rule duplicate-key): kubectl keeps the last
// value, which decoding reads, and strict decoding refuses the document. A merge key
// (<<) set twice is one too: both apply, the later one winning. It returns where each
// finding is, too: the later key.
func Duplicates(d *source.Document) (field.ErrorList, map[*field.Error]source.Position) {
	dups := d.Duplicates()
	if len(dups) == 0 {
		return nil, nil
	}
	var errs field.ErrorList
	at := make(map[*field.Error]source.Position, len(dups))
	for _, dup := range dups {
		var p *field.Path
		keyed := false
		for _, s := range dup.Path {
			switch {
			case s.IsIndex:
				p = p.Index(s.Index)
			case keyed:
				p = p.Key(s.Key)
			case p == nil:
				p = field.NewPath(s.Key)
			default:
				p = p.Child(s.Key)
			}
			keyed = !s.IsIndex && keyedMaps[s.Key]
		}
		var e *field.Error
		if dup.Merge {
			e = field.Duplicate(p, "<<")
			e.Detail = "a merge key (<<) set twice in this mapping, first on line " + strconv.Itoa(dup.First.Line) +
				"; both apply, the later one winning: write one, <<: [*a, *b], where the earlier wins"
		} else {
			switch {
			case keyed:
				p = p.Key(dup.Key)
			case p == nil:
				p = field.NewPath(dup.Key)
			default:
				p = p.Child(dup.Key)
			}
			e = field.Duplicate(p, dup.Key)
			e.Detail = "key set twice in this mapping, first on line " + strconv.Itoa(dup.First.Line) + "; the last one is in effect"
		}
		e.Origin = rules.DuplicateKey
		errs = append(errs, e)
		at[e] = dup.At
	}
	return errs, at
}

// Refuses reports a finding of decoding that refuses the value at its path (a value of
// the wrong type): a validator's finding at or below that path says the same mistake
// again, and is left out (see WithoutRestated).
func Refuses(e *field.Error) bool {
	return e.Origin == rules.WrongType || e.Origin == rules.AzureMLResourceType
}

// WithoutRestated returns the findings of validation, errs, but those at or below a value
// that a finding of decoding, among decoded, refused (a number where a string belongs, a
// list where the limits belong): decoding has said it, and one mistake gets one finding.
// alias, when not nil, maps a path to the one the value is written at (see
// azureml.Result.Aliases). It returns errs itself when it leaves nothing out.
func WithoutRestated(decoded, errs field.ErrorList, alias func(string) string) field.ErrorList {
	if alias == nil {
		alias = func(p string) string { return p }
	}
	var refused []string
	for _, e := range decoded {
		if Refuses(e) {
			refused = append(refused, alias(e.Field))
		}
	}
	if len(refused) == 0 {
		return errs
	}
	out := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		if !restates(alias(e.Field), refused) {
			out = append(out, e)
		}
	}
	return out
}

// restates reports whether the path p is at or below one of refused. A path of a map key
// that holds "]." (spec.nodeSelector[a].b] for the key "a].b") starts with the text of
// its sibling's path (spec.nodeSelector[a]) but is not below it: what follows a path
// below is an index or key in brackets, or a field, whose name holds no bracket.
func restates(p string, refused []string) bool {
	for _, r := range refused {
		if p == r {
			return true
		}
		if !strings.HasPrefix(p, r) || len(p) == len(r) {
			continue
		}
		switch rest := p[len(r):]; rest[0] {
		case '[':
			return true
		case '.':
			name := rest[1:]
			if i := strings.IndexAny(name, ".["); i >= 0 {
				name = name[:i]
			}
			if !strings.Contains(name, "]") {
				return true
			}
		}
	}
	return false
}
