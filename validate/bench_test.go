package validate_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// textType is an instance type as text, before any quantity is parsed: what the
// apimachinery way starts from.
type textType struct {
	name             string
	nodeSelector     map[string]string
	requests, limits map[string]string
}

var (
	benchValidText = textType{
		name:         "myinstancetypename",
		nodeSelector: map[string]string{"mylabel": "mylabelvalue"},
		requests:     map[string]string{"cpu": "700m", "memory": "1500Mi"},
		limits:       map[string]string{"cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "1"},
	}
	benchInvalidText = textType{
		name:         "My_Type",
		nodeSelector: map[string]string{"my label": "mylabelvalue"},
		requests:     map[string]string{"cpu": "2", "memory": "1500Mi"},
		limits:       map[string]string{"cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "0.5", "cpus": "1"},
	}
)

// parseInto fills it from tt, reusing its maps: the decode step of this module.
func parseInto(it *instancetype.InstanceType, tt *textType) {
	it.Name = tt.name
	it.Spec.NodeSelector = tt.nodeSelector
	if it.Spec.Resources.Requests == nil {
		it.Spec.Resources.Requests = instancetype.ResourceList{}
		it.Spec.Resources.Limits = instancetype.ResourceList{}
	}
	for k, v := range tt.requests {
		it.Spec.Resources.Requests[instancetype.ResourceName(k)] = instancetype.ParseAmount(v)
	}
	for k, v := range tt.limits {
		it.Spec.Resources.Limits[instancetype.ResourceName(k)] = instancetype.ParseAmount(v)
	}
}

// apimachineryValidate is how a user would check the same rules with apimachinery alone,
// in the style of Kubernetes' own validation: paths built as it goes, quantities parsed
// with resource.ParseQuantity, names with IsDNS1123Subdomain and IsQualifiedName.
func apimachineryValidate(tt *textType, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	meta := fldPath.Child("metadata")
	for _, msg := range k8svalidation.IsDNS1123Subdomain(tt.name) {
		errs = append(errs, field.Invalid(meta.Child("name"), tt.name, msg))
	}
	spec := fldPath.Child("spec")
	sel := spec.Child("nodeSelector")
	for k, v := range tt.nodeSelector {
		for _, msg := range k8svalidation.IsQualifiedName(k) {
			errs = append(errs, field.Invalid(sel.Key(k), k, msg))
		}
		for _, msg := range k8svalidation.IsValidLabelValue(v) {
			errs = append(errs, field.Invalid(sel.Key(k), v, msg))
		}
	}
	res := spec.Child("resources")
	parsed := func(list map[string]string, p *field.Path, isRequests bool) map[string]resource.Quantity {
		out := make(map[string]resource.Quantity, len(list))
		for _, name := range []string{"cpu", "memory"} {
			if _, ok := list[name]; !ok {
				errs = append(errs, field.Required(p.Key(name), ""))
			}
		}
		for name, text := range list {
			fp := p.Key(name)
			if strings.Contains(name, "/") {
				for _, msg := range k8svalidation.IsQualifiedName(name) {
					errs = append(errs, field.Invalid(fp, name, msg))
				}
			} else if name != "cpu" && name != "memory" {
				errs = append(errs, field.NotSupported(fp, name, []string{"cpu", "memory"}))
				continue
			}
			q, err := resource.ParseQuantity(text)
			if err != nil {
				errs = append(errs, field.Invalid(fp, text, err.Error()))
				continue
			}
			switch {
			case strings.Contains(name, "/") && isRequests:
				errs = append(errs, field.Forbidden(fp, "limits only"))
			case strings.Contains(name, "/") && (q.Sign() < 0 || q.MilliValue()%1000 != 0):
				errs = append(errs, field.Invalid(fp, text, "must be a whole number"))
			case !strings.Contains(name, "/") && q.Sign() <= 0:
				errs = append(errs, field.Invalid(fp, text, "must be greater than zero"))
			}
			out[name] = q
		}
		return out
	}
	limits := parsed(tt.limits, res.Child("limits"), false)
	requests := parsed(tt.requests, res.Child("requests"), true)
	for _, name := range []string{"cpu", "memory"} {
		r, okr := requests[name]
		l, okl := limits[name]
		if okr && okl && r.Cmp(l) > 0 {
			errs = append(errs, field.Invalid(res.Child("requests").Key(name), r.String(), "must be less than or equal to "+name+" limit of "+l.String()))
		}
	}
	return errs
}

func BenchmarkInstanceType(b *testing.B) {
	for _, input := range []struct {
		name string
		tt   *textType
	}{{"valid", &benchValidText}, {"invalid", &benchInvalidText}} {
		it := &instancetype.InstanceType{}
		parseInto(it, input.tt)
		root := field.NewPath("items").Index(1)
		opts := resolve.Options{NodeSelector: map[string]string{"mylabel": "mylabelvalue", "pool": "ml"}}
		b.Run(input.name+"/validate", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkErrs = validate.InstanceType(it, root, opts)
			}
		})
		b.Run(input.name+"/parse+validate", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parseInto(it, input.tt)
				sinkErrs = validate.InstanceType(it, root, opts)
			}
		})
		b.Run(input.name+"/apimachinery", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkErrs = apimachineryValidate(input.tt, root)
			}
		})
	}
}

// apimachineryWorkload checks a deployment's resources against its instance type's limits
// the apimachinery way: parse both, compare.
func apimachineryWorkload(requests, limits, typeLimits map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	res := fldPath.Child("resources")
	for _, name := range []string{"cpu", "memory"} {
		r, err := resource.ParseQuantity(requests[name])
		if err != nil || r.Sign() <= 0 {
			errs = append(errs, field.Invalid(res.Child("requests").Key(name), requests[name], "bad"))
		}
		if name == "memory" && r.Cmp(resource.MustParse("1M")) < 0 {
			errs = append(errs, field.Invalid(res.Child("requests").Key(name), requests[name], "must be at least 1M"))
		}
		l, err := resource.ParseQuantity(limits[name])
		if err != nil {
			continue
		}
		tl, err := resource.ParseQuantity(typeLimits[name])
		if err == nil && l.Cmp(tl) > 0 {
			errs = append(errs, field.Invalid(res.Child("limits").Key(name), limits[name], "above the type"))
		}
		if r.Cmp(l) > 0 {
			errs = append(errs, field.Invalid(res.Child("requests").Key(name), requests[name], "above the limit"))
		}
	}
	for name, text := range limits {
		if strings.Contains(name, "/") {
			for _, msg := range k8svalidation.IsQualifiedName(name) {
				errs = append(errs, field.Invalid(res.Child("limits").Key(name), name, msg))
			}
			if q, err := resource.ParseQuantity(text); err != nil || q.MilliValue()%1000 != 0 {
				errs = append(errs, field.Invalid(res.Child("limits").Key(name), text, "must be a whole number"))
			}
		}
	}
	return errs
}

func BenchmarkWorkload(b *testing.B) {
	w := gpuDeployment()
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkErrs = validate.Workload(testCatalog, w, nil, resolve.Options{})
		}
	})
	b.Run("mlflow-on-type/validate", func(b *testing.B) {
		w := &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "mlflow", MLflow: true}
		b.ReportAllocs()
		for b.Loop() {
			sinkErrs = validate.Workload(testCatalog, w, nil, resolve.Options{})
		}
	})
	b.Run("apimachinery", func(b *testing.B) {
		requests := map[string]string{"cpu": "500m", "memory": "1Gi"}
		limits := map[string]string{"cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "1"}
		typeLimits := benchValidText.limits
		b.ReportAllocs()
		for b.Loop() {
			sinkErrs = apimachineryWorkload(requests, limits, typeLimits, nil)
		}
	})
}
