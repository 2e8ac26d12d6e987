package validate

import (
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/selector"
)

// Limits of object metadata, as the API server sets them (k8s.io/apimachinery's
// pkg/api/validation and pkg/apis/meta/v1/validation).
const (
	// maxAnnotationsBytes is the most bytes of annotation keys and values together.
	maxAnnotationsBytes = 256 << 10
)

// The paths of metadata fields, below an object's root.
var (
	pathMetadataGenerateName    = []string{"metadata", "generateName"}
	pathMetadataAnnotations     = []string{"metadata", "annotations"}
	pathMetadataFinalizers      = []string{"metadata", "finalizers"}
	pathMetadataOwnerReferences = []string{"metadata", "ownerReferences"}
)

// validateObjectMeta appends the findings about the metadata m of the object at root to
// errs, in a fixed order: the name (R1), and what the API server refuses in the metadata
// of a cluster-scoped custom resource it is asked to create (apimachinery's
// ValidateObjectMeta, which the tests compare with, and a real API server in the client
// module's tests): generateName, labels, annotations, owner references, finalizers. Map
// keys and list indices are in the paths (metadata.annotations[a b],
// metadata.finalizers[1]), where apimachinery reports at the map or list. It does not
// allocate when m is valid.
//
// What the API server sets itself on a create, rather than refusing what a manifest
// carries there, is not checked: the namespace (cleared on a cluster-scoped object), the
// generation, the managed fields, the uid and the timestamps. Nor is a resourceVersion,
// which the API server refuses when it stores a new object and requires on an update:
// validation does not know which it is, and kubectl get -o yaml prints one.
func validateObjectMeta(m *metav1.ObjectMeta, root *field.Path, errs field.ErrorList) field.ErrorList {
	switch {
	case m.Name == "":
		errs = append(errs, field.Required(at{root, pathMetadataName}.path(),
			"every instance type needs a name, which workloads write in instance_type").WithOrigin(rules.R1))
	case !validObjectName(m.Name):
		errs = append(errs, field.Invalid(at{root, pathMetadataName}.path(), clip.String(m.Name), objectNameDetail(m.Name)).WithOrigin(rules.R1))
	}
	rest := len(errs) // the findings of rule metadata start here
	if m.GenerateName != "" && !validGenerateName(m.GenerateName) {
		errs = append(errs, field.Invalid(at{root, pathMetadataGenerateName}.path(), clip.String(m.GenerateName),
			"must be the start of a DNS-1123 subdomain, to which the API server adds 5 characters: lowercase letters, digits, '-' and '.', starting with a letter or digit"))
	}
	errs = validateLabels(m.Labels, at{root, pathMetadataLabels}, rules.Metadata, errs)
	errs = validateAnnotations(m.Annotations, at{root, pathMetadataAnnotations}, errs)
	if len(m.OwnerReferences) > 0 {
		errs = validateOwnerReferences(m.OwnerReferences, at{root, pathMetadataOwnerReferences}, errs)
	}
	errs = validateFinalizers(m.Finalizers, at{root, pathMetadataFinalizers}, errs)
	for _, e := range errs[rest:] {
		e.Origin = rules.Metadata
	}
	return errs
}

// validGenerateName reports whether s is a valid generateName: as apimachinery's
// NameIsDNSSubdomain(s, true) checks it, a DNS-1123 subdomain once a trailing '-' and the
// byte before it are replaced by "a". It does not allocate.
func validGenerateName(s string) bool {
	n := len(s)
	if n < 2 || s[n-1] != '-' {
		return validObjectName(s)
	}
	head := s[:n-2] // then "a"
	byteAt := func(i int) byte {
		if i < len(head) {
			return head[i]
		}
		return 'a'
	}
	m := len(head) + 1
	if m > maxNameLen || !isLowerAlnum(byteAt(0)) {
		return false
	}
	for i := 1; i < m-1; i++ {
		switch c := byteAt(i); {
		case isLowerAlnum(c), c == '-':
		case c == '.':
			if !isLowerAlnum(byteAt(i-1)) || !isLowerAlnum(byteAt(i+1)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// validAnnotationKey reports whether k is a valid annotation key: a qualified name, as a
// label key is, except that case does not matter (apimachinery lowercases the key before
// checking it, so "Example.com/x" is an annotation key and no label key).
func validAnnotationKey(k string) bool {
	if selector.ValidLabelKey(k) {
		return true
	}
	lower := strings.ToLower(k) // allocates only for a key with upper case
	return lower != k && selector.ValidLabelKey(lower)
}

// validateAnnotations appends the findings about the annotations m, found at l, to errs:
// each key that is no qualified name, sorted, then their total size.
func validateAnnotations(m map[string]string, l at, errs field.ErrorList) field.ErrorList {
	size, ok := 0, true
	for k, v := range m {
		size += len(k) + len(v)
		ok = ok && validAnnotationKey(k)
	}
	if !ok {
		var bad []string
		for k := range m {
			if !validAnnotationKey(k) {
				bad = append(bad, k)
			}
		}
		slices.Sort(bad)
		for _, k := range bad {
			errs = append(errs, field.Invalid(l.key(k), clip.String(k), qualifiedNameDetail(strings.ToLower(k), "an annotation key")))
		}
	}
	if size > maxAnnotationsBytes {
		e := field.TooLong(l.path(), "", maxAnnotationsBytes)
		e.Detail = "annotations may hold at most " + strconv.Itoa(maxAnnotationsBytes) + " bytes of keys and values together; these hold " + strconv.Itoa(size)
		errs = append(errs, e)
	}
	return errs
}

// validateFinalizers appends the findings about the finalizers fs, found at l, to errs:
// each that is no qualified name, then orphan and foregroundDeletion set together.
func validateFinalizers(fs []string, l at, errs field.ErrorList) field.ErrorList {
	orphan, foreground := false, false
	for i, f := range fs {
		if !selector.ValidLabelKey(f) {
			errs = append(errs, field.Invalid(l.path().Index(i), clip.String(f), qualifiedNameDetail(f, "a finalizer name, such as \"example.com/cleanup\",")))
		}
		orphan = orphan || f == metav1.FinalizerOrphanDependents
		foreground = foreground || f == metav1.FinalizerDeleteDependents
	}
	if orphan && foreground {
		errs = append(errs, field.Invalid(l.path(), field.OmitValueType{},
			"finalizers "+metav1.FinalizerOrphanDependents+" and "+metav1.FinalizerDeleteDependents+" cannot both be set"))
	}
	return errs
}

// bannedOwners are the kinds that may not own an object, as apimachinery's BannedOwners.
var bannedOwners = []schema.GroupVersionKind{{Version: "v1", Kind: "Event"}}

// validateOwnerReferences appends the findings about the owner references refs, found at
// l, to errs: each one's apiVersion, kind, name and uid, a banned owner kind, and more than
// one controller.
func validateOwnerReferences(refs []metav1.OwnerReference, l at, errs field.ErrorList) field.ErrorList {
	controller := -1 // the first reference with controller set
	for i, r := range refs {
		p := indexed{l, i}
		gv, err := schema.ParseGroupVersion(r.APIVersion)
		switch {
		case r.APIVersion == "":
			errs = append(errs, field.Required(p.Child("apiVersion"), "the owner's apiVersion, such as \"apps/v1\""))
		case err != nil || gv.Version == "":
			errs = append(errs, field.Invalid(p.Child("apiVersion"), clip.String(r.APIVersion), "must be GROUP/VERSION or VERSION, such as \"apps/v1\" or \"v1\""))
		}
		for _, f := range [...]struct{ name, value string }{{"kind", r.Kind}, {"name", r.Name}, {"uid", string(r.UID)}} {
			if f.value == "" {
				errs = append(errs, field.Required(p.Child(f.name), "the owner's "+f.name))
			}
		}
		if gvk := gv.WithKind(r.Kind); slices.Contains(bannedOwners, gvk) {
			errs = append(errs, field.Invalid(p.path(), field.OmitValueType{}, gvk.String()+" may not own an object"))
		}
		if r.Controller == nil || !*r.Controller {
			continue
		}
		if controller < 0 {
			controller = i
			continue
		}
		first := refs[controller]
		errs = append(errs, field.Invalid(l.path(), field.OmitValueType{},
			"only one owner reference may have controller set to true; "+clip.Quote(first.Kind+"/"+first.Name)+" and "+clip.Quote(r.Kind+"/"+r.Name)+" both do"))
	}
	return errs
}

// qualifiedNameDetail explains why k is not a qualified name, as what (its role, such as
// "an annotation key"), in Kubernetes' words.
func qualifiedNameDetail(k, what string) string {
	msgs := content.IsLabelKey(k) // a qualified name: the same rule
	if len(msgs) == 0 {
		return "must be " + what + ": a qualified name"
	}
	return "must be " + what + ": " + strings.Join(msgs, "; ")
}

// indexed is the path of item i of the list at l, built only when asked for.
type indexed struct {
	l at
	i int
}

func (x indexed) path() *field.Path             { return x.l.path().Index(x.i) }
func (x indexed) Child(name string) *field.Path { return x.path().Child(name) }
