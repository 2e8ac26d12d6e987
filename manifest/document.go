package manifest

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/workload"

	"github.com/amlarc-go/instancetypes/instancetype"
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
	// KindPipelineJob is a pipeline job; each step on a compute target is a workload,
	// whether it names an instance type or not.
	KindPipelineJob Kind = "PipelineJob"
	// KindSweepJob is a sweep job.
	KindSweepJob Kind = "SweepJob"
	// KindAutoMLJob is an AutoML job (type: automl) on a compute target.
	KindAutoMLJob Kind = "AutoMLJob"
	// KindBatchDeployment is a batch deployment on a compute target: a workload that
	// names its instance type in resources.instance_type, as a job does.
	KindBatchDeployment Kind = "BatchDeployment"
	// KindCompute is an Azure ML compute target (a compute file, or the output of az ml
	// compute show); KindComputeList a list of them, as az ml compute list prints it.
	KindCompute     Kind = "Compute"
	KindComputeList Kind = "ComputeList"
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
	// Suppressions are the suppression comments of the file that are in no recognised
	// document's Suppressions: those of documents skipped or that cannot be read, and of
	// a document of comments alone at the end. With the documents', they are what
	// Suppressions(data) returns.
	Suppressions []Suppression
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
	// Errors are the problems decoding found in the object: those of its document's
	// Errors that were found reading it (all of them for an object that is the whole
	// document). A workload whose decoding found a problem is not placed with confidence;
	// a caller that skips an object (nodes among manifests) skips these with it.
	Errors field.ErrorList
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
	// command or sweep job, one per step on a compute target for a pipeline job,
	// one per inline deployment for an endpoint.
	Workloads []Item[*workload.Workload]
	// Nodes are the v1 Nodes of the document: one for a Node, the Node items of a List, as
	// kubectl get nodes -o yaml prints them.
	Nodes []Item[cluster.Node]
	// Computes are the Azure ML compute targets of the document: one for a compute file,
	// the items of az ml compute list's output.
	Computes []Item[Compute]

	// Errors are the problems found decoding the document, with paths relative to it.
	// A document with errors is still returned with whatever could be decoded.
	Errors field.ErrorList
	// Suppressions are the suppression comments that apply to the document's lines: its
	// own, the one on the "---" line before it, and those of a document of comments alone
	// before it (see Suppressions), read from the one parse of the document. Scan hands
	// them over with the document, before the findings they may suppress are known.
	Suppressions []Suppression

	at *positions // the table of positions its decoding filled
	// refusal reports a document kubectl refuses (a value it cannot send or read), which
	// must have a finding.
	refusal bool
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
// value" for what decoded as unset) says the same mistake again: Locate leaves it out.
func (d *Document) Refused(path string) bool {
	_, refused := d.at.lookup(path)
	return refused
}

// Position returns the position of the node at path, a field path in apimachinery's
// notation relative to the document (as field.Path.String renders it): for a mapping key,
// the position of the key; for a list item, of the item. The positions are those recorded
// as the document was decoded, of every field, map entry and list item the reader decodes
// (an instance type's, a workload's, a node's), so that every finding a check of them can
// make has one; for any other path, one that leads nowhere (a missing field) or into a
// part of the document that is only checked (a workload's environment, managed fields),
// it returns the position of the nearest recorded parent, or of the document's first line.
//
// Its cost is that of reading path once, whatever the size of the document.
func (d *Document) Position(path string) Position {
	pos, _ := d.at.lookup(path)
	return pos
}

// MaxFieldLen is the longest field path a finding repeats. A path holds the keys above
// the offending node, which a file may make as long as a scalar may be (MaxScalarSize): a
// longer path is cut, as values are, so that one long key does not repeat in full in every
// finding below it. The finding's line still leads to the node.
const MaxFieldLen = 1024

// Locate returns the findings of errs, each with the position of its field in the
// document's file, in the order of errs. A field path longer than MaxFieldLen is cut in
// the finding (which then holds a copy of its error). Errors of the document's own decoding (its Errors)
// are placed where decoding found them, with their FindingType. Any other error, of
// validation, is left out when it is at or below a value that decoding refused (see
// Refused), as it says the same mistake again ("Required value" for a cpu written as a
// list), and placed at its field otherwise (see Position).
//
// So that the findings of a document are d.Locate(append(d.Errors, validation...)): this is
// what package lint and the admission webhook do.
func (d *Document) Locate(errs field.ErrorList) []Finding {
	out := make([]Finding, 0, len(errs))
	for _, e := range errs {
		if pos, typ, ok := d.at.place(e); ok {
			out = append(out, Finding{File: d.File, Position: pos, Err: clipField(e), Type: typ})
			continue
		}
		pos, refused := d.at.lookup(e.Field)
		if refused {
			continue
		}
		out = append(out, Finding{File: d.File, Position: pos, Err: clipField(e)})
	}
	return out
}

// A Locator places findings of validation as [Document.Locate] places them, for a few
// paths of a document, once the document is gone: it keeps of the document's table only what
// was recorded for those paths, a few bytes each. A caller that checks an object of a
// document later (package lint checks each workload once the catalog is formed) keeps a
// Locator rather than the document. The zero Locator places every finding at line 1.
type Locator struct {
	file  string
	start Position
	at    []entry // sorted by hash
}

// Locator returns a Locator of the findings at or below the given paths (field paths
// relative to the document, as field.Path.String renders them), at or below the node at
// base (the object's place, nil for the document itself). A finding is placed at the
// longest of the paths recorded that is its path or a parent of it, else at base; it is
// left out when one of those paths was refused, as Locate leaves it out. So the paths
// given are those the object's findings can be at, and the paths above them that decoding
// may have refused.
func (d *Document) Locator(base *field.Path, paths ...string) Locator {
	d.at.index()
	start := d.at.start
	if base != nil {
		start = d.Position(base.String())
	}
	l := Locator{file: d.File, start: start}
	for _, p := range paths {
		if e, ok := d.at.find(hashPathString(p)); ok {
			l.at = append(l.at, e)
		}
	}
	slices.SortFunc(l.at, func(a, b entry) int { return cmp.Compare(a.hash, b.hash) })
	l.at = slices.CompactFunc(slices.Clip(l.at), func(a, b entry) bool { return a.hash == b.hash })
	return l
}

// Locate is Document.Locate for findings of validation at the Locator's paths: each placed,
// those at or below a refused value left out.
func (l Locator) Locate(errs field.ErrorList) []Finding {
	out := make([]Finding, 0, len(errs))
	for _, e := range errs {
		pos, refused := lookupEntries(func(h uint64) (entry, bool) { return find(l.at, h) }, l.start, e.Field)
		if !refused {
			out = append(out, Finding{File: l.file, Position: pos, Err: clipField(e)})
		}
	}
	return out
}

// clipField returns e, or a copy of it with its field path cut to MaxFieldLen.
func clipField(e *field.Error) *field.Error {
	if len(e.Field) <= MaxFieldLen {
		return e
	}
	c := *e
	c.Field = clip.To(e.Field, MaxFieldLen)
	return &c
}
