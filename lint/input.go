package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/source"
)

// StdinName is how standard input is named in findings.
const StdinName = "<stdin>"

// An Input is a source of manifests: a path of the file system, a file or directory of an
// fs.FS, a reader, or bytes.
type Input struct {
	name  string    // the name in findings
	path  string    // an OS path to stat and walk
	fsys  fs.FS     // with root, a file or directory of fsys
	root  string    //
	r     io.Reader // or the contents, read once
	data  []byte    // or the contents
	nodes []cluster.Node
	kind  inputKind
}

type inputKind uint8

const (
	inputPath inputKind = iota
	inputFS
	inputReader
	inputBytes
	inputNodes
)

// Path is a file or directory of the file system. A directory is walked for manifests
// (IsManifestName: .yaml, .yml, .json), in lexical order; a file is read whatever its
// name. Findings name files by their paths as walked: examples/broken/deployments.yaml.
func Path(p string) Input { return Input{name: p, path: p, kind: inputPath} }

// FS is the file or directory root of fsys, as Path is for the file system. Findings name
// files by their paths in fsys.
func FS(fsys fs.FS, root string) Input {
	return Input{name: root, fsys: fsys, root: root, kind: inputFS}
}

// Reader is one file, read from r and named name in findings.
func Reader(name string, r io.Reader) Input { return Input{name: name, r: r, kind: inputReader} }

// Stdin is standard input, read from r and named <stdin> in findings.
func Stdin(r io.Reader) Input { return Reader(StdinName, r) }

// Bytes is one file of the given contents, named name in findings.
func Bytes(name string, data []byte) Input { return Input{name: name, data: data, kind: inputBytes} }

// NodeObjects is nodes already decoded (from a cluster's API, say), for Options.Nodes,
// named name in findings: they are used as given, with no file to read or place findings
// in. Among the inputs or the catalog they are skipped, as nodes in a file are.
func NodeObjects(name string, nodes []cluster.Node) Input {
	return Input{name: name, nodes: nodes, kind: inputNodes}
}

// check reports an input that cannot be read at all: made with a nil reader or fs.FS, or
// an empty path (the zero Input).
func (in Input) check() error {
	switch {
	case in.kind == inputPath && in.path == "":
		return &usageError{"an input's path is empty"}
	case in.kind == inputReader && in.r == nil:
		return &usageError{"input " + strconv.Quote(in.name) + ": nil io.Reader"}
	case in.kind == inputFS && in.fsys == nil:
		return &usageError{"input " + strconv.Quote(in.name) + ": nil fs.FS"}
	}
	return nil
}

// String is the name the input has in findings.
func (in Input) String() string { return in.name }

// An inputFile is one file to read.
type inputFile struct {
	name string
	// read reads the source. Before it reads, it calls reserve (when not nil) with the
	// size of what the source holds, in bytes, or -1 when that is not known before reading
	// it (a reader, a pipe, a device), so that a run takes its read budget first; it does
	// not call it when the source cannot be opened.
	read func(reserve func(size int64)) ([]byte, error)
	once bool // it can be read once only: a reader
	// chart is the directory of the Helm chart whose templates/ holds the file, "" when
	// it is in none: the file is a template, not a manifest, whatever it holds.
	chart string
	// dir is the directory named as an input whose walk found the file, "" for a file
	// named itself.
	dir string
	// nodes, when not nil, are the nodes of a NodeObjects input: there is nothing to read.
	nodes []cluster.Node
}

// expand lists the files of inputs: directories walked, each file once, the paths ex
// excludes left out. Problems met walking (an unreadable directory, a dangling symlink) are
// findings, and what is not a regular file is skipped; an input that cannot be read at all
// (a missing path, a file without read permission), or a directory that holds no manifest,
// is an error.
func expand(inputs []Input, ex excluder) ([]inputFile, []Finding, []Skip, error) {
	var srcs []inputFile
	var problems []Finding
	var skipped []Skip
	seen := map[string]bool{}
	charts := chartFinder{}
	add := func(key string, s inputFile) {
		if key != "" {
			if seen[key] {
				return
			}
			seen[key] = true
		}
		srcs = append(srcs, s)
	}
	for _, in := range inputs {
		switch in.kind {
		case inputBytes:
			data := in.data
			add("", inputFile{name: in.name, read: func(reserve func(int64)) ([]byte, error) {
				reserveSize(reserve, int64(len(data)))
				return data, nil
			}})
		case inputNodes:
			nodes := in.nodes
			add("", inputFile{name: in.name, nodes: nodes, read: func(reserve func(int64)) ([]byte, error) {
				reserveSize(reserve, 0)
				return nil, nil
			}})
		case inputReader:
			r := in.r
			add("", inputFile{name: in.name, read: func(reserve func(int64)) ([]byte, error) {
				reserveSize(reserve, -1)
				return readAll(r, -1)
			}, once: true})
		case inputPath:
			info, err := os.Stat(in.path)
			if err != nil {
				return nil, nil, nil, err
			}
			if !info.IsDir() {
				p := in.path
				if info.Mode().IsRegular() {
					// A named file that cannot be read is a usage error, as a missing one
					// is. (A pipe or device is not opened here: opening a FIFO waits for
					// its writer.)
					f, err := os.Open(p)
					if err != nil {
						return nil, nil, nil, err
					}
					f.Close()
				}
				src := fileSource(p, nil, !info.Mode().IsRegular()) // a pipe, as the shell's <(…) hands one over
				src.chart = charts.of(p, filepath.Separator, osExists)
				add(absKey(p), src)
				continue
			}
			abs := absKey(in.path) // once: filepath.Abs asks the system for the working directory
			skip := ex.under(abs)
			n, ps, sk, err := walk(os.DirFS(in.path), ".", skip, func(rel string) {
				p := filepath.Join(in.path, filepath.FromSlash(rel))
				src := fileSource(p, nil, false)
				src.chart = charts.of(p, filepath.Separator, osExists)
				src.dir = in.path
				add(filepath.Join(abs, filepath.FromSlash(rel)), src)
			}, func(rel string) string { return filepath.Join(in.path, filepath.FromSlash(rel)) })
			if err != nil {
				return nil, nil, nil, &fs.PathError{Op: "read", Path: in.path, Err: unwrapPath(err)}
			}
			problems = append(problems, ps...)
			skipped = append(skipped, sk...)
			if n == 0 && len(ps) == 0 {
				return nil, nil, nil, fmt.Errorf("%s: no manifest (.yaml, .yml or .json file) in this directory", in.path)
			}
		case inputFS:
			info, err := fs.Stat(in.fsys, in.root)
			if err != nil {
				return nil, nil, nil, err
			}
			fsys := in.fsys
			if !info.IsDir() {
				p := in.root
				if info.Mode().IsRegular() {
					f, err := fsys.Open(p)
					if err != nil {
						return nil, nil, nil, err
					}
					f.Close()
				}
				src := fileSource(p, fsys, false)
				src.chart = charts.of(p, '/', fsExists(fsys))
				add("fs:"+p, src)
				continue
			}
			n, ps, sk, err := walk(fsys, in.root, ex.inFS, func(p string) {
				src := fileSource(p, fsys, false)
				src.chart = charts.of(p, '/', fsExists(fsys))
				src.dir = in.root
				add("", src)
			}, func(p string) string { return p })
			if err != nil {
				return nil, nil, nil, &fs.PathError{Op: "read", Path: in.root, Err: unwrapPath(err)}
			}
			problems = append(problems, ps...)
			skipped = append(skipped, sk...)
			if n == 0 && len(ps) == 0 {
				return nil, nil, nil, fmt.Errorf("%s: no manifest (.yaml, .yml or .json file) in this directory", in.root)
			}
		}
	}
	return srcs, problems, skipped, nil
}

// reserveSize calls reserve, when there is one, with size.
func reserveSize(reserve func(int64), size int64) {
	if reserve != nil {
		reserve(size)
	}
}

// fileSource is the file p of fsys, or of the file system when fsys is nil; once, when it
// is not a regular file (a pipe, as the shell's <(…) hands one over). Its size is read once
// it is open (fstat), not asked before: a file is opened and stat'ed once.
func fileSource(p string, fsys fs.FS, once bool) inputFile {
	return inputFile{
		name: p,
		read: func(reserve func(int64)) ([]byte, error) {
			if fsys == nil && !once {
				return readRegular(p, reserve)
			}
			return readFile(fsys, p, reserve)
		},
		once: once,
	}
}

// chartFinder tells whether a file is a template of a Helm chart: under a directory
// named templates whose parent holds a Chart.yaml. It asks about each directory once.
type chartFinder map[string]bool // a templates/ directory's parent → whether it is a chart

// of returns the chart directory that holds p in its templates/ (at any depth, as Helm
// renders them), or "". sep is the paths' separator; exists tells whether a file exists.
func (c chartFinder) of(p string, sep byte, exists func(string) bool) string {
	for i := 0; i < len(p); {
		j := strings.IndexByte(p[i:], sep)
		if j < 0 {
			return "" // the last element is the file itself
		}
		if p[i:i+j] == "templates" {
			dir := p[:max(i-1, 0)]
			chart, ok := c[dir]
			if !ok {
				name := "Chart.yaml"
				if dir != "" {
					name = dir + string(sep) + name
				}
				chart = exists(name)
				c[dir] = chart
			}
			if chart {
				if dir == "" {
					return "."
				}
				return dir
			}
		}
		i += j + 1
	}
	return ""
}

func osExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func fsExists(fsys fs.FS) func(string) bool {
	return func(p string) bool {
		_, err := fs.Stat(fsys, p)
		return err == nil
	}
}

// absKey is the key that tells two names of one file apart from two files.
func absKey(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// walk calls file for each manifest below root in fsys, in lexical order, leaving out the
// paths below root that excluded reports, and returns how many it found, the problems met
// and what it skipped for not being a regular file (named by name). It opens no file: a
// named pipe, a socket or a device among manifests is skipped, not read, so that a walk
// cannot wait for ever or read without end; a symlink is followed to what it names. A
// directory below root that cannot be read is a problem, and the walk goes on; root itself
// that cannot be read (no permission to list it) is the error returned, as a named file
// that cannot be read is.
func walk(fsys fs.FS, root string, excluded func(p string) bool, file func(string), name func(string) string) (int, []Finding, []Skip, error) {
	n := 0
	var problems []Finding
	var skipped []Skip
	var rootErr error
	_ = fs.WalkDir(fsys, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				rootErr = err
				return fs.SkipAll
			}
			problems = append(problems, fileProblemAt(name(p), 1, UnreadableFile, "cannot read: "+pathError(err)))
			if e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p != root && excluded(p) {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() || !isManifestName(e.Name()) {
			return nil
		}
		if e.Name() == ConfigName {
			skipped = append(skipped, Skip{File: name(p), Line: 1, Reason: "the config file of instancetype: settings, not manifests"})
			return nil
		}
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			info, err := fs.Stat(fsys, p) // what the link names
			if err != nil {
				problems = append(problems, fileProblemAt(name(p), 1, UnreadableFile, "cannot read: "+pathError(err)))
				return nil
			}
			if info.IsDir() {
				return nil // a directory is walked only when named
			}
			mode = info.Mode().Type()
		}
		if !mode.IsRegular() {
			skipped = append(skipped, Skip{File: name(p), Line: 1, Reason: "not a regular file (" + fileKind(mode) +
				"): a walk reads regular files only; name it as a PATH to read it"})
			return nil
		}
		n++
		file(p)
		return nil
	})
	if rootErr != nil {
		return 0, nil, nil, rootErr
	}
	return n, problems, skipped, nil
}

// unwrapPath returns the cause of a *fs.PathError, or err.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// fileKind names the kind of file a mode that is not regular is.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// excluder leaves paths out of walks: those that match one of its patterns (see excluded).
type excluder struct {
	patterns []string
	// dir, when not "", is the absolute directory the patterns are relative to
	// (Options.ExcludeDir): a path of the file system is matched by its path relative to
	// dir, not to the directory walked.
	dir string
}

// under returns what a walk of the file system directory abs (an absolute path) leaves
// out, given the paths of the walk (slash-separated, relative to abs).
func (ex excluder) under(abs string) func(p string) bool {
	if len(ex.patterns) == 0 {
		return func(string) bool { return false }
	}
	if ex.dir == "" {
		return ex.inFS
	}
	return func(p string) bool {
		return excluded(relPath(filepath.Join(abs, filepath.FromSlash(p)), ex.dir), ex.patterns)
	}
}

// inFS reports whether a walk of an fs.FS leaves out p, a path of it: the paths of an fs.FS
// are matched as they are, having no place in the file system that dir could be related to.
func (ex excluder) inFS(p string) bool { return excluded(p, ex.patterns) }

// relPath returns the absolute path p relative to the absolute directory dir,
// slash-separated ("../other/x.yaml" for a path outside dir), or p, slash-separated, when
// it has none (another volume).
func relPath(p, dir string) string {
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// excluded reports whether the slash-separated path p, or any trailing part of it that
// starts at a path element, matches one of the patterns (path.Match).
func excluded(p string, patterns []string) bool {
	for _, pat := range patterns {
		for rest := p; ; {
			if ok, _ := path.Match(pat, rest); ok {
				return true
			}
			i := strings.IndexByte(rest, '/')
			if i < 0 {
				break
			}
			rest = rest[i+1:]
		}
	}
	return false
}

// ValidExclude reports a pattern that path.Match cannot use.
func ValidExclude(pattern string) error {
	_, err := path.Match(pattern, "")
	return err
}

// readFile reads p, from fsys or, when fsys is nil, from the file system, up to
// source.MaxFileSize (and one byte more, so that a larger file is told apart). size is
// its size when known (-1 for a file that is not regular), -2 when not asked yet.
func readFile(fsys fs.FS, p string, reserve func(int64)) ([]byte, error) {
	var f fs.File
	var err error
	if fsys == nil {
		f, err = os.Open(p)
	} else {
		f, err = fsys.Open(p)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = info.Size()
	}
	reserveSize(reserve, size)
	return readAll(f, size)
}

// readAll reads r up to source.MaxFileSize and one byte more, into a buffer of about
// size bytes when the size is known (so that a read does not double a buffer past what it
// holds), growing it as it goes otherwise.
func readAll(r io.Reader, size int64) ([]byte, error) {
	const limit = source.MaxFileSize + 1
	lr := io.LimitReader(r, limit)
	if size < 0 || size >= limit {
		return io.ReadAll(lr)
	}
	buf := make([]byte, 0, size+1) // one more, to see the end at once
	for {
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) { // the file grew since its size was read
			return io.ReadAll(io.MultiReader(bytes.NewReader(buf), lr))
		}
	}
}

// pathError shortens an error of the file system to what the user needs: the cause, the
// path being in the finding already.
func pathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// manifestExtensions are the file name extensions of manifests.
var manifestExtensions = [...]string{".yaml", ".yml", ".json"}

// isManifestName reports whether a file of this name is read when a directory is walked:
// its extension is .yaml, .yml or .json, or .py or .ipynb (Python scripts and notebooks, for
// their azure-ai-ml calls), in any case.
func isManifestName(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || strings.ContainsAny(name[dot:], `/\`) {
		return false
	}
	for _, e := range manifestExtensions {
		if strings.EqualFold(name[dot:], e) {
			return true
		}
	}
	_, py := pythonFile(name)
	return py
}
