package plan

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Resources are amounts of resources by name: what a node's per-node overhead or a pod's
// per-pod overhead requests. Its JSON is an object of quantities, {"cpu":"10m","memory":"100Mi"}.
type Resources map[instancetype.ResourceName]quantity.Quantity

// String renders r as cpu=10m,memory=100Mi, in name order; "none" when r holds nothing.
// It is what ParseResources reads.
func (r Resources) String() string {
	if len(r) == 0 {
		return "none"
	}
	names := make([]string, 0, len(r))
	for name := range r {
		names = append(names, string(name))
	}
	slices.Sort(names)
	var b strings.Builder
	for i, name := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(name)
		b.WriteByte('=')
		b.WriteString(r[instancetype.ResourceName(name)].String())
	}
	return b.String()
}

// Workload is the kind of Azure ML workload whose pods an instance type is planned for:
// it decides the per-pod overhead.
type Workload string

// The workloads of DefaultOverhead.
const (
	// Deployment is an online deployment: each pod carries the identity sidecar.
	Deployment Workload = "deployment"
	// Job is a training job: its pods carry no sidecar of Azure ML's.
	Job Workload = "job"
)

// Overhead is what runs beside a workload's pods and takes part of a node's allocatable
// resources: per node (DaemonSets), and per pod (sidecars, added to each pod's requests).
type Overhead struct {
	// PerNode is what is taken on every node before any pod of the workload lands.
	PerNode Resources `json:"perNode"`
	// PerPod is added to the requests of every pod of the workload.
	PerPod Resources `json:"perPod"`
}

// FluentBit returns the requests of the Azure ML extension's fluent-bit DaemonSet, which
// runs on every node: cpu 10m and memory 100Mi, as Azure Machine Learning's "Reference for
// configuring Kubernetes cluster" lists them (see docs/plan.md). The map is new.
func FluentBit() Resources {
	return Resources{instancetype.ResourceCPU: quantity.MustParse("10m"), instancetype.ResourceMemory: quantity.MustParse("100Mi")}
}

// IdentitySidecar returns the requests of the identity sidecar that Azure ML adds to every
// pod of an online deployment: cpu 10m and memory 100Mi, as the same reference lists them.
// The map is new.
func IdentitySidecar() Resources {
	return Resources{instancetype.ResourceCPU: quantity.MustParse("10m"), instancetype.ResourceMemory: quantity.MustParse("100Mi")}
}

// DefaultOverhead returns the overhead Azure ML documents for a workload: per node, the
// fluent-bit DaemonSet; per pod, the identity sidecar for a Deployment and nothing for a
// Job (or any other value). The maps are new, and never nil.
func DefaultOverhead(w Workload) Overhead {
	o := Overhead{PerNode: FluentBit(), PerPod: Resources{}}
	if w == Deployment {
		o.PerPod = IdentitySidecar()
	}
	return o
}

// ParseResources reads overhead as the command's --overhead-node and --overhead-pod take
// it: name=quantity pairs separated by commas (cpu=10m,memory=100Mi), or "none" for
// nothing. A name is cpu, memory, pods or a fully qualified extended resource
// (nvidia.com/gpu); an amount is a quantity of at least zero. On error it returns nil and
// an error that names the pair at fault.
func ParseResources(s string) (Resources, error) {
	s = strings.TrimSpace(s)
	r := Resources{}
	if s == "none" {
		return r, nil
	}
	if s == "" {
		return nil, errors.New(`no resources: want name=quantity[,name=quantity], or none`)
	}
	for _, pair := range strings.Split(s, ",") {
		name, text, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok {
			return nil, fmt.Errorf("%q is not name=quantity", clip.String(pair))
		}
		rn := instancetype.ResourceName(name)
		switch {
		case rn == instancetype.ResourceCPU || rn == instancetype.ResourceMemory || rn == ResourcePods:
		case strings.Contains(name, "/") && len(validation.IsQualifiedName(name)) == 0:
		default:
			return nil, fmt.Errorf("resource %q: want cpu, memory, pods or a qualified name such as nvidia.com/gpu", clip.String(name))
		}
		if _, dup := r[rn]; dup {
			return nil, fmt.Errorf("resource %q given twice", name)
		}
		q, err := quantity.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if q.Sign() < 0 {
			return nil, fmt.Errorf("%s: %s is below zero", name, q)
		}
		r[rn] = q
	}
	return r, nil
}
