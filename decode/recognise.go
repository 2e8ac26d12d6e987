package decode

import (
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
)

// Kind is what a Kubernetes document is, of those this package decodes.
type Kind string

// The kinds of Kubernetes document this package decodes.
const (
	KindInstanceType     Kind = instancetype.Kind     // an InstanceType
	KindInstanceTypeList Kind = instancetype.ListKind // an InstanceTypeList
	// KindList is a v1 List, as kubectl get -o yaml prints one: its InstanceType and Node
	// items are decoded, its other items skipped.
	KindList Kind = "List"
	// KindNode is a v1 Node.
	KindNode Kind = "Node"
)

// Recognise tells what the document whose value is v is, when it is a Kubernetes object
// (it has an apiVersion or a kind): one of the kinds of this package; or "" and why it is
// skipped ("a Service (v1), not an InstanceType"); or a problem, for a document of the
// instance types' API group of another kind. It reports false for a value that is no
// Kubernetes object (an Azure ML file, say).
func Recognise(v any) (kind Kind, skip string, problem *field.Error, ok bool) {
	m, isMap := v.(map[string]any)
	if !isMap {
		return "", "", nil, false
	}
	apiVersion, hasAPIVersion := m["apiVersion"]
	kindValue, hasKind := m["kind"]
	av, _ := apiVersion.(string)
	k, _ := kindValue.(string)
	_, name := m["name"]
	_, version := m["version"]
	_, metadata := m["metadata"]
	switch {
	case k == instancetype.Kind:
		return KindInstanceType, "", nil, true
	case k == instancetype.ListKind:
		return KindInstanceTypeList, "", nil, true
	case strings.HasPrefix(av, instancetype.GroupName+"/"):
		if !hasKind {
			return "", "", field.Required(field.NewPath("kind"), "an "+instancetype.GroupName+" document must be an InstanceType or an InstanceTypeList").WithOrigin(rules.Kind), true
		}
		return "", "", field.NotSupported(field.NewPath("kind"), clip.String(strict.JSONText(kindValue)), []string{instancetype.Kind, instancetype.ListKind}).WithOrigin(rules.Kind), true
	case k == "List" && av == "v1":
		return KindList, "", nil, true
	case k == "Node" && av == "v1":
		return KindNode, "", nil, true
	case !hasKind && (av == "v2" || av == "v1") && name && version && !metadata:
		return "", "a Helm chart's Chart.yaml, not a manifest", nil, true
	case hasAPIVersion || hasKind:
		return "", objectSkipReason(k, av), nil, true
	}
	return "", "", nil, false
}

// skipReasons holds the reasons objectSkipReason has made, by kind and apiVersion, so
// that the thousands of documents of a kubectl get -o yaml share a few strings (a report
// keeps every skipped document's reason). It holds at most maxSkipReasons.
var skipReasons struct {
	sync.Mutex
	m map[[2]string]string
}

const maxSkipReasons = 512

// objectSkipReason is why a Kubernetes object of kind and apiVersion is skipped: "a
// Service (v1), not an InstanceType".
func objectSkipReason(kind, apiVersion string) string {
	key := [2]string{kind, apiVersion}
	skipReasons.Lock()
	defer skipReasons.Unlock()
	if r, ok := skipReasons.m[key]; ok {
		return r
	}
	what := "a Kubernetes object"
	if kind != "" {
		what = strict.Article(clip.String(kind))
		if apiVersion != "" {
			what += " (" + clip.String(apiVersion) + ")"
		}
	}
	r := what + ", not an InstanceType"
	if skipReasons.m == nil {
		skipReasons.m = map[[2]string]string{}
	}
	if len(skipReasons.m) < maxSkipReasons {
		skipReasons.m[[2]string{strings.Clone(kind), strings.Clone(apiVersion)}] = r
	}
	return r
}
