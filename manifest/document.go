package manifest

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
)

// Kind is what a recognised document is.
type Kind string

// The kinds of document this package recognises.
const (
	KindInstanceType     Kind = instancetype.Kind     // an InstanceType
	KindInstanceTypeList Kind = instancetype.ListKind // an InstanceTypeList
	// KindList is a v1 List, as kubectl get -o yaml prints: its instance types (and, read
	// as nodes, its Nodes) are read; its other items are skipped.
	KindList Kind = "List"
	// KindDeployment is a Kubernetes online deployment.
	KindDeployment Kind = "KubernetesOnlineDeployment"
	// KindEndpoint is an online endpoint written with its deployments inline, an older
	// form; each deployment is a workload.
	KindEndpoint Kind = "KubernetesOnlineEndpoint"
	// KindJob is a command job on a compute target.
	KindJob Kind = "CommandJob"
	// KindPipelineJob is a pipeline job; each step that names an instance type is a
	// workload.
	KindPipelineJob Kind = "PipelineJob"
	// KindSweepJob is a sweep job.
	KindSweepJob Kind = "SweepJob"
	// KindNode is a v1 Node; the Nodes of a List are read too.
	KindNode Kind = "Node"
)

// File is what was read from one file: its recognised documents, those it skipped, and
// the problems found reading it.
type File struct {
	// Name is the file's name as given to Parse.
	Name string
	// Documents are the recognised documents, in file order.
	Documents []*Document
	// Count is the number of non-empty documents in the file, recognised or not, those that
	// cannot be read (a syntax error) included.
	Count int
	// Checked is the number of recognised documents decoded (those in Documents, or those
	// handed to Scan's fn).
	Checked int
	// Skipped are the non-empty documents not checked, each with why, in file order.
	Skipped []Skip
	// Errors are the problems not tied to a recognised document (a syntax error, a file
	// too large, invalid UTF-8), each with its position.
	Errors []Finding
}

// Skip is a document, or a whole file, that is not checked.
type Skip struct {
	// Line is the line on which the document starts (1 for a whole file).
	Line int
	// Reason says why it is not checked: "a Service, not an InstanceType or an Azure ML
	// workload", "a managed online deployment (its instance_type is an Azure VM size)".
	Reason string
}

// Findings returns every problem found while reading the file, those of its documents
// included, in file order.
func (f *File) Findings() []Finding {
	out := append([]Finding(nil), f.Errors...)
	for _, d := range f.Documents {
		out = append(out, d.Locate(d.Errors)...)
	}
	SortFindings(out)
	return out
}

// Item is one object of a document, with its place in it.
type Item[T any] struct {
	// Path is where the object sits in its document: nil for the document itself,
	// items[3] for a list item, jobs.train for a step of a pipeline job,
	// deployments[0] for a deployment written inside an endpoint.
	Path *field.Path
	// Line is the line on which the object starts.
	Line int
	// Kind is the kind of the document the object comes from, or of the object itself
	// in a list: KindInstanceType for a list item, KindPipelineJob for a pipeline step.
	Kind Kind
	// Object is the object.
	Object T
	// Note, when set, says that the object is written in an older form, and how it is
	// written today.
	Note string
}

// Document is one recognised document of a file.
type Document struct {
	// File is the name of the file the document came from.
	File string
	// Index is the document's place in its file, from 0, counting non-empty documents.
	Index int
	// Line is the line on which the document's content starts.
	Line int
	// Kind is what the document was recognised as.
	Kind Kind

	// InstanceTypes are the instance types of the document: one for an InstanceType, the
	// items of an InstanceTypeList, the InstanceType items of a List.
	InstanceTypes []Item[*instancetype.InstanceType]
	// Workloads are the deployments and jobs of the document: one for a deployment or a
	// command or sweep job, one per step that names an instance type for a pipeline job,
	// one per inline deployment for an endpoint.
	Workloads []Item[*resolve.Workload]
	// Nodes are the v1 Nodes of the document: one for a Node, the Node items of a List, as
	// kubectl get nodes -o yaml prints them.
	Nodes []Item[fit.Node]

	// Errors are the problems found decoding the document, with paths relative to it.
	// A document with errors is still returned with whatever could be decoded.
	Errors field.ErrorList

	root    *yaml.Node
	lines   int                       // the document's first line in the file, less one
	pinned  map[*field.Error]Position // findings a path cannot place
	kept    map[string]Position       // positions recorded for after the tree is released
	refused map[string]bool           // paths whose value decoding refused
	typed   map[*field.Error]FindingType
}

// Position is a place in a file. Lines and columns count from 1; a column counts
// characters.
type Position struct {
	Line, Column int
}

// Refused reports whether decoding refused the value at path (a field path relative to
// the document, as field.Path.String renders it), or at a path above it: a value of the
// wrong type, which it reported (limits: 5 refuses spec.resources.limits, and so
// spec.resources.limits[cpu]). A validator's finding at such a path (such as "Required
// value" for what decoded as unset) says the same mistake again, and can be dropped.
// Bracketed keys are read whole, dots and slashes included (limits[nvidia.com/gpu]).
func (d *Document) Refused(path string) bool {
	if len(d.refused) == 0 {
		return false
	}
	if d.refused[path] {
		return true
	}
	for rest := path; rest != ""; {
		_, rest, _ = nextSegment(rest)
		if rest != "" && d.refused[path[:len(path)-len(rest)]] {
			return true
		}
	}
	return false
}

// Position returns the position of the node at path, a field path in apimachinery's
// notation relative to the document (as field.Path.String renders it). For a path that
// leads nowhere (a missing field) it returns the position of the nearest existing parent.
// For a mapping key it is the position of the key.
//
// Once the document's tree is released (see Scan), only the positions recorded while
// decoding remain: those of instance types' names and of every field of a workload that
// its checks may report on; any other path maps to the nearest of them above it.
func (d *Document) Position(path string) Position {
	if d.root == nil {
		return d.keptPosition(path)
	}
	n := d.root
	pos := d.pos(n)
	if path == "<nil>" {
		return pos
	}
	budget := MaxNodes
	for path != "" {
		var seg string
		var bracket bool
		seg, path, bracket = nextSegment(path)
		n = deref(n)
		switch {
		case n.Kind == yaml.SequenceNode && bracket:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(n.Content) {
				return pos
			}
			if n = n.Content[i]; n == nil {
				return pos // a list item Scan has released
			}
			pos = d.pos(n)
		case n.Kind == yaml.MappingNode:
			k, v := lookup(n, seg, &budget)
			if k == nil {
				return pos
			}
			n = v
			pos = d.pos(k)
		default:
			return pos
		}
	}
	return pos
}

// keptPosition maps path to the recorded position of it or of its nearest recorded
// parent, or to the document's first line.
func (d *Document) keptPosition(path string) Position {
	if p, ok := d.kept[path]; ok {
		return p
	}
	if d.kept != nil && path != "" && path != "<nil>" {
		// Try every parent, longest first.
		var ends []int
		rest, at := path, 0
		for rest != "" {
			_, r, _ := nextSegment(rest)
			at += len(rest) - len(r)
			ends = append(ends, at)
			rest = r
		}
		for i := len(ends) - 2; i >= 0; i-- {
			if p, ok := d.kept[path[:ends[i]]]; ok {
				return p
			}
		}
	}
	return Position{Line: d.Line, Column: 1}
}

// release drops the document's node tree, keeping the positions recorded while decoding.
func (d *Document) release() { d.root = nil }

func (d *Document) pos(n *yaml.Node) Position {
	if n == nil {
		return Position{Line: d.Line, Column: 1}
	}
	return Position{Line: n.Line + d.lines, Column: n.Column}
}

// nextSegment splits the first segment off a field path: "a.b" gives "a", ".b";
// "[k.x].y" gives "k.x", ".y" and reports a bracketed segment. A bracketed key runs to the
// first "]" that ends the path or is followed by "." or "[", so keys holding dots or
// slashes (nvidia.com/gpu) survive.
func nextSegment(path string) (seg, rest string, bracket bool) {
	if path[0] == '.' {
		path = path[1:]
	}
	if path != "" && path[0] == '[' {
		for i := 1; i < len(path); i++ {
			if path[i] == ']' && (i+1 == len(path) || path[i+1] == '.' || path[i+1] == '[') {
				return path[1:i], path[i+1:], true
			}
		}
		return path[1:], "", true
	}
	end := strings.IndexAny(path, ".[")
	if end < 0 {
		return path, "", false
	}
	return path[:end], path[end:], false
}

// Locate returns each error with the position of its field in the document's file.
// Errors the decoder made for problems that are not about a field's value (an unknown
// field) carry their FindingType.
func (d *Document) Locate(errs field.ErrorList) []Finding {
	out := make([]Finding, 0, len(errs))
	for _, e := range errs {
		p, ok := d.pinned[e]
		if !ok {
			p = d.Position(e.Field)
		}
		out = append(out, Finding{File: d.File, Position: p, Err: e, Type: d.typed[e]})
	}
	return out
}
