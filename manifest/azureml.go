package manifest

import (
	"strconv"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
)

// The resources of a Kubernetes online deployment are read as azure-ai-ml reads them
// (KubernetesOnlineDeploymentSchema's ResourceRequirementsSchema and
// ResourceSettingsSchema): requests and limits, each of cpu, memory and gpu, strings all;
// nvidia.com/gpu is renamed gpu before the schema reads it. Kubernetes' own spellings are
// an InstanceType's business, not an Azure ML file's.

// azureResourceNames are the resource names of an Azure ML deployment's resources, as
// findings list them.
var azureResourceNames = []string{"cpu", "memory", "gpu", "nvidia.com/gpu"}

// azureResourcesFields are the fields of an Azure ML deployment's resources.
var azureResourcesFields = []string{"limits", "requests"}

// azureResources decodes the resources section of an Azure ML deployment into r.
func (d *decoder) azureResources(n *yaml.Node, r *instancetype.ResourceRequirements) {
	d.object(n, func(key string, k, v *yaml.Node) {
		switch key {
		case "limits":
			r.Limits = d.azureResourceList(v)
		case "requests":
			r.Requests = d.azureResourceList(v)
		default:
			d.unknown(key, azureResourcesFields, k)
			d.checkTree(v)
		}
	})
}

// azureResourceList decodes the requests or limits of an Azure ML deployment: cpu,
// memory, and gpu, which is nvidia.com/gpu (the list holds it under that name, and its
// position is recorded under both). Both gpu and nvidia.com/gpu given is a finding at the
// second, the last being in effect, as azure-ai-ml has it. Any other name is a finding,
// and is left out of the list.
func (d *decoder) azureResourceList(n *yaml.Node) instancetype.ResourceList {
	if !d.mapping(n) {
		return nil
	}
	l := make(instancetype.ResourceList, len(n.Content)/2)
	var gpuKey *yaml.Node // the first of gpu and nvidia.com/gpu
	d.walk(n, true, func(key string, k, v *yaml.Node) {
		switch key {
		case "cpu", "memory":
			l[instancetype.ResourceName(key)] = d.azureAmount(v)
		case "gpu", string(instancetype.ResourceNvidiaGPU):
			if gpuKey != nil && gpuKey.Value != key {
				e := field.Duplicate(d.path.build(), key)
				e.Detail = "gpu and nvidia.com/gpu are one resource (azure-ai-ml reads nvidia.com/gpu as gpu), also given on line " +
					strconv.Itoa(gpuKey.Line+d.lines) + "; the last one is in effect: give it once"
				e.Origin = rules.GPUGivenTwice
				d.addAt(k, e)
			}
			if gpuKey == nil {
				gpuKey = k
			}
			before := d.refusals
			a := d.azureAmount(v)
			if key == "gpu" {
				// Validation knows it as nvidia.com/gpu: place its findings here.
				d.path.pop()
				d.path.key(string(instancetype.ResourceNvidiaGPU))
				d.record(k)
				if d.refusals > before {
					d.refused()
				}
				d.path.pop()
				d.path.key(key)
			}
			l[instancetype.ResourceNvidiaGPU] = a
		default:
			e := field.NotSupported(d.path.build(), key, azureResourceNames)
			if s := closestField(key, azureResourceNames); s != "" {
				e.Detail += "; did you mean " + strconv.Quote(s) + "?"
			}
			e.Detail += " (the Azure ML CLI refuses any other name in a deployment's resources: \"Unknown field\")"
			e.Origin = rules.AzureMLResourceName
			d.addAt(k, e)
			d.checkTree(v)
		}
	})
	return l
}

// azureAmount decodes one value of an Azure ML deployment's resources: a string, which
// azure-ai-ml requires. It reads the file with PyYAML (pyYAMLScalar), so what is a string
// to it is not always one to kubectl (1e3 is; 1.5, 1 and on are not: "Not a valid
// string"), and what is a string to it is read as the text it is. A number or a boolean
// is a finding that says how to quote it; its value is still read, as kubectl reads it,
// and decoding refuses it, so that validation does not restate the finding. null is a
// finding ("Field may not be null") too, refused and unset. A number JSON cannot carry is
// reported where kubectl's reading refuses it, not here.
func (d *decoder) azureAmount(n *yaml.Node) instancetype.Amount {
	if n.Kind != yaml.ScalarNode || (n.Tag == tagInt || n.Tag == tagFloat) && !finite(n.Tag, n.Value) {
		return d.amount(n)
	}
	switch what := pyYAMLScalar(n); what {
	case "":
		if n.Tag == tagInt || n.Tag == tagFloat || n.Tag == tagBool {
			return instancetype.AmountFromString(n.Value) // a string to azure-ai-ml (1e3)
		}
		return d.amount(n)
	case "null":
		d.refused()
		e := field.TypeInvalid(d.path.build(), "null", "must be a string: the Azure ML CLI refuses null in a deployment's resources (\"Field may not be null\"); give a quantity, or leave the name out")
		e.Origin = rules.AzureMLResourceType
		d.add(e)
		return instancetype.Amount{}
	default:
		d.refused()
		e := field.TypeInvalid(d.path.build(), clip.String(n.Value), "must be a string: the Azure ML CLI refuses "+what+" in a deployment's resources (\"Not a valid string\"); quote it: "+clip.Quote(n.Value))
		e.Origin = rules.AzureMLResourceType
		d.add(e)
		if n.Tag == tagInt || n.Tag == tagFloat {
			return instancetype.ParseAmount(d.jsonText(n))
		}
		return instancetype.AmountFromString(n.Value)
	}
}
