package manifest

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
)

// Kind is the kind of a recognised document.
type Kind string

// The kinds of document this package recognises.
const (
	KindInstanceType     Kind = instancetype.Kind
	KindInstanceTypeList Kind = instancetype.ListKind
	KindDeployment       Kind = Kind(resolve.Deployment)
	KindJob              Kind = Kind(resolve.Job)
)

// File is what was read from one file: its recognised documents and the problems found
// reading it.
type File struct {
	// Name is the file's name as given to Parse.
	Name string
	// Documents are the recognised documents, in file order.
	Documents []*Document
	// Count is the number of non-empty documents in the file, recognised or not.
	Count int
	// Errors are the problems not tied to a recognised document (a syntax error, a file
	// too large, invalid UTF-8), each with its position.
	Errors []Finding
}

// Findings returns every problem found while reading the file, those of its documents
// included, in file order.
func (f *File) Findings() []Finding {
	out := append([]Finding(nil), f.Errors...)
	for _, d := range f.Documents {
		out = append(out, d.Locate(d.Errors)...)
	}
	sortFindings(out)
	return out
}

// Document is one recognised document of a file.
type Document struct {
	// File is the name of the file the document came from.
	File string
	// Index is the document's place in its file's stream, from 0.
	Index int
	// Line is the line on which the document's content starts.
	Line int
	// Kind is what the document was recognised as.
	Kind Kind

	// InstanceTypes are the instance types of an InstanceType (one) or an
	// InstanceTypeList (its items, pointing into List.Items) document.
	InstanceTypes []*instancetype.InstanceType
	// List is the decoded InstanceTypeList, nil for other kinds.
	List *instancetype.InstanceTypeList
	// Workload is the decoded deployment or job, nil for other kinds.
	Workload *resolve.Workload

	// Errors are the problems found decoding the document, with paths relative to it.
	// A document with errors is still returned with whatever could be decoded.
	Errors field.ErrorList

	root   *yaml.Node
	pinned map[*field.Error]Position
}

// ItemPath returns the path, relative to the document, of the root of its i-th instance
// type: nil (the document itself) for an InstanceType, items[i] for a list.
func (d *Document) ItemPath(i int) *field.Path {
	if d.Kind == KindInstanceTypeList {
		return field.NewPath("items").Index(i)
	}
	return nil
}

// Position is a place in a file. Lines and columns count from 1.
type Position struct {
	Line, Column int
}

// Position returns the position of the node at path, a field path in apimachinery's
// notation relative to the document (as field.Path.String renders it). For a path that
// leads nowhere (a missing field) it returns the position of the nearest existing parent.
// For a mapping key it is the position of the key.
func (d *Document) Position(path string) Position {
	n := d.root
	pos := nodePos(n)
	if n == nil {
		return Position{Line: d.Line, Column: 1}
	}
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
			n = n.Content[i]
			pos = nodePos(n)
		case n.Kind == yaml.MappingNode:
			k, v := lookup(n, seg, &budget)
			if k == nil {
				return pos
			}
			n = v
			pos = nodePos(k)
		default:
			return pos
		}
	}
	return pos
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

func nodePos(n *yaml.Node) Position {
	if n == nil {
		return Position{Line: 1, Column: 1}
	}
	return Position{Line: n.Line, Column: n.Column}
}

// Locate returns each error with the position of its field in the document's file.
func (d *Document) Locate(errs field.ErrorList) []Finding {
	out := make([]Finding, 0, len(errs))
	for _, e := range errs {
		p, ok := d.pinned[e]
		if !ok {
			p = d.Position(e.Field)
		}
		out = append(out, Finding{File: d.File, Position: p, Err: e})
	}
	return out
}
