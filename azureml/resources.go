package azureml

import (
	"encoding/json"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
	"github.com/amlarc-go/instancetypes/source"
)

// The resources of a Kubernetes online deployment are read as azure-ai-ml reads them
// (KubernetesOnlineDeploymentSchema's ResourceRequirementsSchema and
// ResourceSettingsSchema): requests and limits, each of cpu, memory and gpu, strings all;
// nvidia.com/gpu is renamed gpu before the schema reads it. Kubernetes' own spellings are
// an InstanceType's business, not an Azure ML file's.

// resourceNames are the resource names of an Azure ML deployment's resources, as findings
// list them.
var resourceNames = []string{"cpu", "memory", "gpu", "nvidia.com/gpu"}

// resourcesFields are the fields of an Azure ML deployment's resources.
var resourcesFields = []string{"limits", "requests"}

// reader decodes the values of one Azure ML document.
type reader struct {
	strict.Decoder
	doc *source.Document
	// aliases maps the path validation knows a value by to the path it is written at:
	// resources.limits[nvidia.com/gpu] to resources.limits[gpu].
	aliases map[string]string
}

// resources decodes the resources section v of an Azure ML deployment, at p.
func (r *reader) resources(v any, p *field.Path) *instancetype.ResourceRequirements {
	m, ok := r.Mapping(v, p)
	if !ok {
		return nil
	}
	res := &instancetype.ResourceRequirements{}
	for _, k := range strict.SortedKeys(m) {
		switch k {
		case "limits":
			res.Limits = r.resourceList(m[k], p.Child(k))
		case "requests":
			res.Requests = r.resourceList(m[k], p.Child(k))
		default:
			r.Unknown(k, resourcesFields, p.Child(k))
		}
	}
	return res
}

// resourceList decodes the requests or limits of an Azure ML deployment: cpu, memory,
// and gpu, which is nvidia.com/gpu (the list holds it under that name). Both gpu and
// nvidia.com/gpu given is a finding at the second, the last being in effect, as
// azure-ai-ml has it. Any other name is a finding, and is left out of the list.
func (r *reader) resourceList(v any, p *field.Path) instancetype.ResourceList {
	m, ok := r.Mapping(v, p)
	if !ok {
		return nil
	}
	l := make(instancetype.ResourceList, len(m))
	_, gpu := m["gpu"]
	_, nvidia := m[string(instancetype.ResourceNvidiaGPU)]
	last := "gpu" // of the two, the one in effect: written last
	if gpu && nvidia {
		a, b := r.doc.PositionOf(p.Key("gpu").String()), r.doc.PositionOf(p.Key(string(instancetype.ResourceNvidiaGPU)).String())
		first := b
		if b.Line > a.Line || b.Line == a.Line && b.Column > a.Column {
			last, first = string(instancetype.ResourceNvidiaGPU), a
		}
		e := field.Duplicate(p.Key(last), last)
		e.Detail = "gpu and nvidia.com/gpu are one resource (azure-ai-ml reads nvidia.com/gpu as gpu), also given on line " +
			strconv.Itoa(first.Line) + "; the last one is in effect: give it once"
		e.Origin = rules.GPUGivenTwice
		r.Errs = append(r.Errs, e)
	}
	for _, k := range strict.SortedKeys(m) {
		switch k {
		case "cpu", "memory":
			l[instancetype.ResourceName(k)] = r.amount(m[k], p.Key(k))
		case "gpu", string(instancetype.ResourceNvidiaGPU):
			if gpu && nvidia && k != last {
				continue
			}
			if k == "gpu" {
				// Validation knows it as nvidia.com/gpu: its findings are placed here.
				if r.aliases == nil {
					r.aliases = map[string]string{}
				}
				r.aliases[p.Key(string(instancetype.ResourceNvidiaGPU)).String()] = p.Key(k).String()
			}
			l[instancetype.ResourceNvidiaGPU] = r.amount(m[k], p.Key(k))
		default:
			e := field.NotSupported(p.Key(k), k, resourceNames)
			if s := strict.Closest(k, resourceNames); s != "" {
				e.Detail += "; did you mean " + strconv.Quote(s) + "?"
			}
			e.Detail += " (the Azure ML CLI refuses any other name in a deployment's resources: \"Unknown field\")"
			e.Origin = rules.AzureMLResourceName
			r.Errs = append(r.Errs, e)
		}
	}
	return l
}

// amount decodes one value of an Azure ML deployment's resources, at p: a string, which
// azure-ai-ml requires. It reads the file with PyYAML
// (pyYAMLScalar), so what is a string to it is not always one to kubectl (1e3 is; 1.5, 1
// and on are not: "Not a valid string"), and what is a string to it is read as the text it
// is. A number or a boolean is a finding that says how to quote it; its value is still
// read, as kubectl reads it, and the finding refuses it, so that validation does not
// restate it. null is a finding ("Field may not be null") too, refused and unset.
func (r *reader) amount(v any, p *field.Path) instancetype.Amount {
	if str, ok := v.(string); ok && pyYAMLType(str) == "" {
		// A string to both readers, however it is written: no need to look at how.
		return instancetype.AmountFromString(str)
	}
	s, ok := r.doc.Scalar(p.String())
	if !ok || !isScalar(v) {
		return r.Amount(v, p)
	}
	switch what := pyYAMLScalar(s); what {
	case "":
		switch v.(type) {
		case json.Number, bool:
			return instancetype.AmountFromString(s.Value) // a string to azure-ai-ml (1e3)
		}
		return r.Amount(v, p)
	case "null":
		e := field.TypeInvalid(p, "null", "must be a string: the Azure ML CLI refuses null in a deployment's resources (\"Field may not be null\"); give a quantity, or leave the name out")
		e.Origin = rules.AzureMLResourceType
		r.Errs = append(r.Errs, e)
		return instancetype.Amount{}
	default:
		e := field.TypeInvalid(p, clip.String(s.Value), "must be a string: the Azure ML CLI refuses "+what+" in a deployment's resources (\"Not a valid string\"); quote it: "+clip.Quote(s.Value))
		e.Origin = rules.AzureMLResourceType
		r.Errs = append(r.Errs, e)
		if n, ok := v.(json.Number); ok {
			return instancetype.ParseAmount(string(n))
		}
		return instancetype.AmountFromString(s.Value)
	}
}
