package lint

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/selector"
)

// nodeInputs are the nodes of Options.Nodes.
type nodeInputs struct {
	index    *fit.Index
	findings []Finding
}

// readNodes reads the cluster's nodes, reporting the problems of reading them and of the
// nodes themselves (an allocatable amount that is no quantity, a missing status), and a
// name given to two nodes, of which the last is used.
func readNodes(srcs []source) *nodeInputs {
	ni := &nodeInputs{}
	var nodes []fit.Node
	type place struct {
		file string
		pos  manifest.Position
		path *field.Path
	}
	seen := map[string]place{}
	for _, s := range srcs {
		data, err := s.read()
		if err != nil {
			ni.findings = append(ni.findings, manifest.FileProblem(s.name, 1, manifest.UnreadableFile, "cannot read: "+pathError(err)))
			continue
		}
		f := manifest.Scan(s.name, data, func(d *manifest.Document) {
			ni.findings = append(ni.findings, d.Locate(d.Errors)...)
			for _, n := range d.Nodes {
				namePath := n.Path.Child("metadata", "name")
				pos := d.Position(namePath.String())
				if prev, dup := seen[n.Object.Name]; dup && n.Object.Name != "" {
					e := field.Duplicate(prev.path, n.Object.Name).WithOrigin(rules.Nodes)
					e.Detail = "a node of this name is given again, at " + s.name + ":" + strconv.Itoa(pos.Line) + ", which is the one used"
					ni.findings = append(ni.findings, Finding{File: prev.file, Position: prev.pos, Err: e})
				}
				seen[n.Object.Name] = place{s.name, pos, namePath}
				nodes = append(nodes, n.Object)
			}
		})
		ni.findings = append(ni.findings, f.Errors...)
	}
	ni.index = fit.NewIndex(nodes)
	return ni
}

// typeFit checks an instance type of the inputs against the nodes: its findings, at its
// spec.nodeSelector and its requests (its limits, for an extended resource). A type whose
// selector conflicts with the extension's has that finding already, and none here.
func typeFit(index *fit.Index, it manifest.Item[*instancetype.InstanceType], extension map[string]string, tols []fit.Toleration) []*field.Error {
	spec := it.Path.Child("spec")
	sel, err := selector.Merge(extension, it.Object.Spec.NodeSelector)
	if err != nil {
		return nil
	}
	d := fit.DemandOf(sel, it.Object.Spec.Resources.Requests, it.Object.Spec.Resources.Limits)
	d.Tolerations = tols
	res := index.Check(d)
	return res.Errors(spec.Child("nodeSelector"), func(name instancetype.ResourceName) *field.Path {
		if name == instancetype.ResourceCPU || name == instancetype.ResourceMemory {
			return spec.Child("resources", "requests").Key(string(name))
		}
		return spec.Child("resources", "limits").Key(string(name))
	})
}

// workloadFit is the finding of a workload's fit: at its instance type, or, for one with
// resources of its own, at the request no node covers.
func workloadFit(res fit.Result, w manifest.Item[*resolve.Workload], own bool) []*field.Error {
	at := w.Object.InstanceTypePath(w.Path)
	return res.Errors(at, func(name instancetype.ResourceName) *field.Path {
		switch {
		case !own:
			return at
		case name == instancetype.ResourceCPU || name == instancetype.ResourceMemory:
			return w.Object.ResourcesPath(w.Path).Child("requests").Key(string(name))
		}
		return w.Object.ResourcesPath(w.Path).Child("limits").Key(string(name))
	})
}

// nodesSkipped is why a document of nodes among the inputs is not checked.
func nodesSkipped(n int) string {
	what := "a Node"
	if n > 1 {
		what = strconv.Itoa(n) + " Nodes"
	}
	return what + ": give nodes with --nodes to check that instance types fit them"
}
