package manifest

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
)

// Input limits. The YAML reader itself limits nesting to 10,000 levels.
const (
	// MaxFileSize is the largest file read, in bytes. Larger files are one finding.
	MaxFileSize = 64 << 20
	// MaxScalarSize is the longest scalar (key or value) accepted in a recognised
	// document, in bytes. A document holding a longer one is dropped with one finding.
	MaxScalarSize = 64 << 10
	// MaxNodes is the most nodes a file may hold, and the most one document may expand to
	// once aliases are followed. The YAML reader's tree takes about 200 bytes a node, so
	// this bounds memory too. A file over it is one finding, found by counting the bytes
	// that can separate nodes before anything is parsed; a document that expands further
	// is dropped with one finding.
	MaxNodes = 1_500_000
	// MaxAliasGrowth bounds what aliases may add to a document: its nodes, expanded, may
	// number at most MaxAliasGrowth times those written plus 65,536. Anchors used as
	// templates stay well within it; an alias bomb, or an item with a thousand mistakes
	// aliased a thousand times, does not.
	MaxAliasGrowth = 16
	// MaxDepth is the deepest a document may nest once aliases are followed, the YAML
	// reader's own limit for the text. An alias to a node that contains it (x: &a [*a])
	// nests without end; such a document is dropped with one finding.
	MaxDepth = 10000
)

// Extensions are the file name extensions that ParseFS reads in a directory.
var Extensions = []string{".yaml", ".yml", ".json"}

// Parse reads the documents of one file's contents. name is used in findings only.
// Parse never fails: every problem, a syntax error included, is a finding of the returned
// File. Documents before a syntax error are kept; the rest of the file is not read, as a
// YAML stream cannot be resumed after one.
func Parse(name string, data []byte) *File {
	f := &File{Name: name}
	if len(data) > MaxFileSize {
		f.Errors = append(f.Errors, fileError(name, Position{1, 1},
			fmt.Sprintf("file too large: more than %d bytes", MaxFileSize)))
		return f
	}
	if n := separators(data); n > MaxNodes {
		f.Errors = append(f.Errors, fileError(name, Position{1, 1},
			fmt.Sprintf("file too large: about %d nodes, more than %d", n, MaxNodes)))
		return f
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for i := 0; ; i++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Errors = append(f.Errors, syntaxError(name, data, err))
			break
		}
		if len(doc.Content) == 0 || isNull(doc.Content[0]) {
			continue
		}
		f.Count++
		f.add(i, doc.Content[0])
	}
	return f
}

// Read is Parse on the contents of r, read up to MaxFileSize. It fails only if r does.
func Read(name string, r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	return Parse(name, data), nil
}

// ParseFS parses the file root of fsys or, if root is a directory, every file below it
// whose name ends in one of Extensions, in lexical order. Names in the returned files and
// findings are paths in fsys. It fails only if a file or directory cannot be read.
func ParseFS(fsys fs.FS, root string) ([]*File, error) {
	var files []*File
	err := fs.WalkDir(fsys, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() || (p != root && !hasExtension(p)) {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files = append(files, Parse(p, data))
		return nil
	})
	return files, err
}

func hasExtension(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	for _, e := range Extensions {
		if ext == e {
			return true
		}
	}
	return false
}

// add recognises one non-empty document and, if it is one of ours, decodes it.
func (f *File) add(index int, n *yaml.Node) {
	kind, problem := recognise(n)
	if problem != nil {
		f.Errors = append(f.Errors, *problem)
		f.Errors[len(f.Errors)-1].File = f.Name
		return
	}
	if kind == "" {
		return
	}
	d := newDecoder(min(MaxNodes, MaxAliasGrowth*countNodes(n)+65536))
	doc := &Document{File: f.Name, Index: index, Line: n.Line, Kind: kind, root: n}
	switch kind {
	case KindInstanceType:
		it := d.instanceType(n, nil, false)
		doc.InstanceTypes = []*instancetype.InstanceType{&it}
	case KindInstanceTypeList:
		doc.List = d.list(n, nil)
		for i := range doc.List.Items {
			doc.InstanceTypes = append(doc.InstanceTypes, &doc.List.Items[i])
		}
	case KindDeployment, KindJob:
		doc.Workload = d.workload(n, resolve.WorkloadKind(kind))
	}
	switch {
	case d.tooDeep != nil:
		f.Errors = append(f.Errors, fileError(f.Name, nodePos(d.tooDeep), fmt.Sprintf(
			"document ignored: nested more than %d levels once aliases are followed (does an alias refer to a node that contains it?)", MaxDepth)))
		return
	case d.tooLong != nil:
		f.Errors = append(f.Errors, fileError(f.Name, nodePos(d.tooLong), fmt.Sprintf(
			"document ignored: a scalar of %d bytes, more than %d", len(d.tooLong.Value), MaxScalarSize)))
		return
	case d.overflow:
		f.Errors = append(f.Errors, fileError(f.Name, nodePos(n), fmt.Sprintf(
			"document ignored: more than %d nodes once aliases are expanded", d.limit)))
		return
	}
	doc.Errors, doc.pinned = d.errs, d.pinned
	f.Documents = append(f.Documents, doc)
}

// recognise tells what a document is: one of our kinds, or "" for a document to skip. A
// document of our API group with a kind we do not know is a problem.
func recognise(n *yaml.Node) (Kind, *Finding) {
	if n.Kind != yaml.MappingNode {
		return "", nil
	}
	budget := MaxNodes
	scalar := func(key string) (string, *yaml.Node) {
		k, v := lookup(n, key, &budget)
		if k == nil || v.Kind != yaml.ScalarNode {
			return "", k
		}
		return v.Value, k
	}
	apiVersion, av := scalar("apiVersion")
	kind, kn := scalar("kind")
	switch {
	case kind == instancetype.Kind:
		return KindInstanceType, nil
	case kind == instancetype.ListKind:
		return KindInstanceTypeList, nil
	case strings.HasPrefix(apiVersion, instancetype.GroupName+"/"):
		var e *field.Error
		pos := nodePos(kn)
		if kn == nil {
			e, pos = field.Required(field.NewPath("kind"), "an "+instancetype.GroupName+" document must be an InstanceType or an InstanceTypeList"), nodePos(av)
		} else {
			e = field.NotSupported(field.NewPath("kind"), kind, []string{instancetype.Kind, instancetype.ListKind})
		}
		return "", &Finding{Position: pos, Err: e}
	case av != nil || kn != nil:
		return "", nil // another Kubernetes kind
	}
	if schema, k := scalar("$schema"); k != nil {
		s := strings.ToLower(schema)
		switch {
		case strings.HasSuffix(s, "/kubernetesonlinedeployment.schema.json"):
			return KindDeployment, nil
		case strings.HasSuffix(s, "/commandjob.schema.json"):
			return KindJob, nil
		}
		return "", nil // another Azure ML schema
	}
	if k, _ := lookup(n, "endpoint_name", &budget); k != nil {
		return KindDeployment, nil
	}
	if k, _ := lookup(n, "command", &budget); k != nil {
		return KindJob, nil
	}
	return "", nil
}

// syntaxError turns an error of the YAML reader into a finding at its line. The reader
// names no line for bad bytes (invalid UTF-8, control characters); those are found here.
func syntaxError(name string, data []byte, err error) Finding {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	pos := Position{Line: 1, Column: 1}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(num); err == nil {
				if parserProblem(tail) {
					line++
				}
				pos.Line, msg = line, tail
			}
		}
	} else if p, what, ok := badByte(data); ok {
		pos, msg = p, what
	}
	// The reader may place a problem at the end of a text that does not end in a line
	// break on a line of its own: keep the position within the file.
	if lines := lineCount(data); pos.Line > lines {
		pos = Position{Line: lines, Column: 1}
	}
	return fileError(name, pos, "YAML syntax error: "+msg)
}

// lineCount returns the number of lines of data as the YAML reader counts them: line feeds,
// carriage returns and CRLF pairs, NEL, LS and PS all end a line.
func lineCount(data []byte) int {
	n := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) - bytes.Count(data, []byte("\r\n"))
	for _, br := range []string{"\u0085", "\u2028", "\u2029"} {
		n += bytes.Count(data, []byte(br))
	}
	return n
}

// separators counts the bytes of data that can begin a new YAML node: line breaks, and
// the indicators , : - [ {. Every node but the first of a file follows one, so this is
// an upper bound on the nodes of data, found without parsing it.
func separators(data []byte) int {
	n := 0
	for _, c := range data {
		switch c {
		case '\n', ',', ':', '-', '[', '{':
			n++
		}
	}
	return n
}

// countNodes returns the number of nodes written in the tree under n, aliases counted
// once each and not followed.
func countNodes(n *yaml.Node) int {
	count := 0
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n, stack = stack[len(stack)-1], stack[:len(stack)-1]
		count++
		if n.Kind != yaml.AliasNode {
			stack = append(stack, n.Content...)
		}
	}
	return count
}

// parserProblem reports a problem found by the YAML reader's parser rather than its
// scanner. go.yaml.in/yaml/v3 numbers the lines of parser problems from 0 (those of
// scanner problems from 1), and names the line where the enclosing construct starts.
// Some scanner messages begin like parser ones ("did not find expected tag URI"), so the
// parser's messages are matched whole.
func parserProblem(msg string) bool {
	switch msg {
	case "did not find expected <stream-start>",
		"did not find expected <document start>",
		"did not find expected node content",
		"did not find expected '-' indicator",
		"did not find expected key",
		"did not find expected ',' or ']'",
		"did not find expected ',' or '}'",
		"found duplicate %YAML directive",
		"found duplicate %TAG directive",
		"found incompatible YAML document",
		"found undefined tag handle":
		return true
	}
	return false
}

// badByte finds the first byte the YAML reader refuses: invalid UTF-8, or a control
// character other than tab, line feed and carriage return. Input that starts with a UTF-16
// byte order mark is not checked.
func badByte(data []byte) (Position, string, bool) {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return Position{}, "", false
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return Position{line, col}, fmt.Sprintf("invalid UTF-8 byte 0x%02x", data[i]), true
		case r == '\n':
			line, col = line+1, 0
		case (r < 0x20 && r != '\t' && r != '\r') || r == 0x7f || (r >= 0x80 && r < 0xa0 && r != 0x85) || r == 0xfffe || r == 0xffff:
			return Position{line, col}, fmt.Sprintf("control character %U is not allowed", r), true
		}
		i += size
		col++
	}
	return Position{}, "", false
}
