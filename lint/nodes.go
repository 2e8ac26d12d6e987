package lint

import (
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/plan"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/selector"
	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/workload"
)

// nodeInputs are the nodes of Options.Nodes.
type nodeInputs struct {
	index    *fit.Index
	nodes    []cluster.Node // as read, in order, duplicates included
	findings []Finding
}

// readNodes reads the cluster's nodes, reporting the problems of reading them and of the
// nodes themselves (an allocatable amount that is no quantity, a missing status), and a
// name given to two nodes, of which the last is used.
func readNodes(srcs []inputFile) *nodeInputs {
	ni := &nodeInputs{}
	var nodes []cluster.Node
	seen := map[string]nodePlace{}
	for _, s := range srcs {
		if s.nodes != nil {
			for _, n := range s.nodes {
				if prev, dup := seen[n.Name]; dup && n.Name != "" {
					e := field.Duplicate(prev.path, n.Name).WithOrigin(rules.Nodes)
					e.Detail = "a node of this name is given again, in " + s.name + ", which is the one used"
					ni.findings = append(ni.findings, Finding{File: prev.file, Position: prev.at(), Err: e})
				}
				seen[n.Name] = nodePlace{file: s.name, path: field.NewPath("metadata", "name")}
				nodes = append(nodes, n)
			}
			continue
		}
		data, err := s.read(nil)
		if err != nil {
			ni.findings = append(ni.findings, fileProblemAt(s.name, 1, UnreadableFile, "cannot read: "+pathError(err)))
			continue
		}
		f := scanFile(s.name, data, asCluster, func(d *document) {
			ni.findings = append(ni.findings, d.locate(d.errs)...)
			d.src.Value = nil
			for _, n := range d.nodes() {
				namePath := n.Path.Child("metadata", "name")
				if prev, dup := seen[n.Object.Name]; dup && n.Object.Name != "" {
					pos := d.src.PositionOf(namePath.String())
					e := field.Duplicate(prev.path, n.Object.Name).WithOrigin(rules.Nodes)
					e.Detail = "a node of this name is given again, at " + s.name + ":" + strconv.Itoa(pos.Line) + ", which is the one used"
					ni.findings = append(ni.findings, Finding{File: prev.file, Position: prev.at(), Err: e})
				}
				seen[n.Object.Name] = nodePlace{s.name, d.src, namePath}
				nodes = append(nodes, n.Object)
			}
		})
		ni.findings = append(ni.findings, f.findings...)
	}
	ni.index = fit.NewIndex(nodes)
	ni.nodes = nodes
	return ni
}

// nodePlace is where a node is: its document, and the path of its metadata.name, found
// only for a name given twice (so that a list of thousands of nodes is not parsed for
// positions).
type nodePlace struct {
	file string
	doc  *source.Document // nil for nodes given decoded
	path *field.Path
}

// at is the position of the node's name: line 1 for nodes given decoded.
func (p nodePlace) at() Position {
	if p.doc == nil {
		return Position{Line: 1, Column: 1}
	}
	return p.doc.PositionOf(p.path.String())
}

// typeFit checks an instance type of the inputs against the nodes: its findings, at its
// spec.nodeSelector and its requests (its limits, for an extended resource). A type whose
// selector conflicts with the extension's has that finding already, and none here.
func typeFit(index *fit.Index, it decode.Object[*instancetype.InstanceType], extension map[string]string, tols []cluster.Toleration) []*field.Error {
	spec := it.Path.Child("spec")
	sel, err := selector.Merge(extension, it.Object.Spec.NodeSelector)
	if err != nil {
		return nil
	}
	d := fit.DemandOf(sel, it.Object.Spec.Resources.Requests, it.Object.Spec.Resources.Limits)
	d.Tolerations = tols
	res := index.Check(d)
	errs := res.Errors(spec.Child("nodeSelector"), func(name instancetype.ResourceName) *field.Path {
		if name == instancetype.ResourceCPU || name == instancetype.ResourceMemory {
			return spec.Child("resources", "requests").Key(string(name))
		}
		return spec.Child("resources", "limits").Key(string(name))
	})
	if keys := scopeTaints(index, d, res, "", ""); len(keys) > 0 {
		hint := "; an instance type names no workspace or resource group, and Azure ML's pods tolerate the " + taintWords(keys) +
			" of their own only: check the workloads that use it, on their computes (--computes), or add " + tolerateFlags(keys)
		for _, e := range errs {
			e.Detail += hint
		}
	} else {
		addHint(errs, tolerateHint(res))
	}
	return errs
}

// addHint adds hint to the detail of each error.
func addHint(errs field.ErrorList, hint string) {
	for _, e := range errs {
		e.Detail += hint
	}
}

// maxTolerateHint is the most taints a tolerateHint names.
const maxTolerateHint = 3

// tolerateHint says how to have the fit check tolerate the taints that keep a demand off
// matching nodes that would take it: "; to tolerate them: --tolerate sku=gpu:NoSchedule, or
// tolerations: [sku=gpu:NoSchedule] in .instancetype.yaml". It names the taints of res's
// groups, each once, at most maxTolerateHint of them, as --tolerate takes them
// (KEY=VALUE:EFFECT), and "" when the demand fits, no matching node is excluded by
// taints, none of the excluded nodes would fit, or a taint's text is no label's (a hint
// the flag would refuse is no hint).
func tolerateHint(res fit.Result) string {
	if res.Fits > 0 || res.Tainted == 0 || res.WouldFit == 0 {
		return ""
	}
	var tols []string
	unnamed := res.Tainted // nodes, or taints, the groups do not name
	for _, g := range res.TaintGroups {
		unnamed -= g.Nodes
		if g.MoreTaints > 0 {
			unnamed++
		}
		for _, t := range g.Taints {
			if !plainTaint(t) {
				return ""
			}
			s := t.Key
			if t.Value != "" {
				s += "=" + t.Value
			}
			s += ":" + t.Effect
			if !slices.Contains(tols, s) {
				tols = append(tols, s)
			}
		}
	}
	if len(tols) == 0 {
		return ""
	}
	others := ""
	if len(tols) > maxTolerateHint || unnamed > 0 {
		tols, others = tols[:min(len(tols), maxTolerateHint)], " (and the other taints)"
	}
	return "; to tolerate them: --tolerate " + strings.Join(tols, " --tolerate ") + others +
		", or tolerations: [" + strings.Join(tols, ", ") + "] in .instancetype.yaml"
}

// plainTaint reports a taint whose key, value and effect have the characters of labels
// only, which a --tolerate flag can name as they are.
func plainTaint(t cluster.Taint) bool {
	for _, s := range []string{t.Key, t.Value, t.Effect} {
		for _, c := range []byte(s) {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '/') {
				return false
			}
		}
	}
	return t.Key != "" && t.Effect != ""
}

// scopeTaints returns the keys of the resource-group and workspace taints (fit's
// TaintResourceGroup, TaintWorkspace) that keep a demand off nodes it would otherwise be
// scheduled on, when its resource group (rg) or workspace (ws) is not known (""), so that
// it tolerates no value of them: tolerating those keys, whatever their values, makes more
// nodes candidates. It returns nil when the demand fits, or the taints are not why it
// does not.
func scopeTaints(index *fit.Index, d fit.Demand, res fit.Result, rg, ws string) []string {
	if res.Fits > 0 || res.Tainted == 0 {
		return nil
	}
	var keys []string
	if ws == "" {
		keys = append(keys, fit.TaintWorkspace)
	}
	if rg == "" {
		keys = append(keys, fit.TaintResourceGroup)
	}
	if len(keys) == 0 {
		return nil
	}
	more := d
	more.Tolerations = slices.Clone(d.Tolerations)
	for _, k := range keys {
		more.Tolerations = append(more.Tolerations, cluster.Toleration{Key: k, Exists: true})
	}
	if index.Check(more).Candidates <= res.Candidates {
		return nil
	}
	// Name only the keys that make a difference alone, when one does.
	var alone []string
	for _, k := range keys {
		one := d
		one.Tolerations = append(slices.Clone(d.Tolerations), cluster.Toleration{Key: k, Exists: true})
		if index.Check(one).Candidates > res.Candidates {
			alone = append(alone, k)
		}
	}
	if len(alone) > 0 {
		return alone
	}
	return keys
}

// taintWords names the taints of keys: "ml.azure.com/workspace taints", "ml.azure.com/workspace
// and ml.azure.com/resource-group taints".
func taintWords(keys []string) string {
	return strings.Join(keys, " and ") + " taints"
}

// tolerateFlags are the --tolerate flags that tolerate keys, whatever their values.
func tolerateFlags(keys []string) string {
	return "--tolerate " + strings.Join(keys, " --tolerate ")
}

// workloadFit is the finding of a workload's fit: at its instance type, or, for one with
// resources of its own, at the request no node covers.
func workloadFit(res fit.Result, p *field.Path, w *workload.Workload, own bool) []*field.Error {
	at := w.InstanceTypePath(p)
	return res.Errors(at, func(name instancetype.ResourceName) *field.Path {
		switch {
		case !own:
			return at
		case name == instancetype.ResourceCPU || name == instancetype.ResourceMemory:
			return w.ResourcesPath(p).Child("requests").Key(string(name))
		}
		return w.ResourcesPath(p).Child("limits").Key(string(name))
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

// strandedShare is the share of a resource an instance type may leave stranded on every
// node it may use before rule stranded reports it: half.
const strandedShare = 0.5

// typeStranded is the finding of an instance type of the inputs that leaves more than half
// of a resource stranded on every node it may use and fits, counting the overhead of an
// online deployment's pods (package plan's DefaultOverhead): at the request of the
// resource, or at its nodeSelector for a resource it does not request (the GPUs of nodes a
// CPU-only type lands on).
func typeStranded(p *plan.Planner, it decode.Object[*instancetype.InstanceType]) []*field.Error {
	strands, _ := p.Strands(it.Object, strandedShare)
	var errs []*field.Error
	spec := it.Path.Child("spec")
	for _, s := range strands {
		e := s.At
		name := s.Resource
		left, usable := e.Stranded[name], e.Usable[name]
		pods := plural(int(e.PerNode), "pod") + " fit"
		if e.PerNode == 1 {
			pods += "s"
		}
		detail := "leaves " + percent(s.Share) + " of the " + string(name) + " of every node it may use stranded (" +
			plural(s.Nodes, "node") + ", counting Azure ML's overhead): on " + e.Node + " (pool " + e.Pool + "), " +
			pods + ", limited by " + string(e.LimitedBy) + ", leaving " + left.String() + " of " + usable.String()
		var at *field.Path
		var value any
		switch {
		case !s.Requested:
			at, value = spec.Child("nodeSelector"), selectorText(it.Object.Spec.NodeSelector)
			detail += "; it asks for none: a nodeSelector that keeps it off these nodes would leave them to instance types that use it"
		case name == instancetype.ResourceCPU || name == instancetype.ResourceMemory:
			at = spec.Child("resources", "requests").Key(string(name))
			value = it.Object.Spec.Resources.Requests[name].String()
			if up := upTo(name, usable, e.PerNode, p.PerPod(name)); up != "" {
				detail += "; each pod could ask up to " + up
			}
		default:
			at = spec.Child("resources", "limits").Key(string(name))
			value = it.Object.Spec.Resources.Limits[name].String()
		}
		detail += " ('instancetype plan' shows every pool, 'instancetype suggest' sizes instance types for them)"
		errs = append(errs, field.Invalid(at, value, detail).WithOrigin(rules.Stranded))
	}
	return errs
}

// percent is a share as a whole percentage, rounded down: 0.666 is "66%".
func percent(share float64) string { return strconv.Itoa(int(share*100)) + "%" }

// plural is n and word, with an s when n is not 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// selectorText is a selector as k=v,k=v, sorted, for a finding's value.
func selectorText(sel map[string]string) string {
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		keys[i] = k + "=" + sel[k]
	}
	return strings.Join(keys, ",")
}

// upTo is what each of n pods could request of a resource to use what is usable, less the
// per-pod overhead over: "7840m", "3758Mi" (memory rounded down to whole Mi).
func upTo(name instancetype.ResourceName, usable quantity.Quantity, n, over int64) string {
	if n <= 0 {
		return ""
	}
	each := plan.Units(name, usable)/n - over
	if each <= 0 {
		return ""
	}
	if name == instancetype.ResourceCPU {
		return quantity.MustParse(strconv.FormatInt(each, 10) + "m").String()
	}
	if each >= 1<<20 { // whole Mi, as people write memory
		each &^= 1<<20 - 1
	}
	return quantity.MustParse(strconv.FormatInt(each, 10)).WithFormat(quantity.BinarySI).String()
}
