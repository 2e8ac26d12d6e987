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
	"strings"

	"github.com/amlarc-go/instancetypes/manifest"
)

// StdinName is how standard input is named in findings.
const StdinName = "<stdin>"

// An Input is a source of manifests: a path of the file system, a file or directory of an
// fs.FS, a reader, or bytes.
type Input struct {
	name string    // the name in findings
	path string    // an OS path to stat and walk
	fsys fs.FS     // with root, a file or directory of fsys
	root string    //
	r    io.Reader // or the contents, read once
	data []byte    // or the contents
	kind inputKind
}

type inputKind uint8

const (
	inputPath inputKind = iota
	inputFS
	inputReader
	inputBytes
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

// A source is one file to read.
type source struct {
	name string
	read func() ([]byte, error)
}

// expand lists the files of inputs: directories walked, each file once, excluded paths
// left out. Problems met walking (an unreadable directory, a dangling symlink) are
// findings; an input that cannot be read at all, or a directory that holds no manifest, is
// an error.
func expand(inputs []Input, exclude []string) ([]source, []manifest.Finding, error) {
	var srcs []source
	var problems []manifest.Finding
	seen := map[string]bool{}
	add := func(key string, s source) {
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
			add("", source{name: in.name, read: func() ([]byte, error) { return data, nil }})
		case inputReader:
			r := in.r
			add("", source{name: in.name, read: func() ([]byte, error) { return readAll(r) }})
		case inputPath:
			info, err := os.Stat(in.path)
			if err != nil {
				return nil, nil, err
			}
			if !info.IsDir() {
				p := in.path
				add(absKey(p), source{name: p, read: func() ([]byte, error) { return readFile(nil, p) }})
				continue
			}
			n, ps := walk(os.DirFS(in.path), ".", exclude, func(rel string) {
				p := filepath.Join(in.path, filepath.FromSlash(rel))
				add(absKey(p), source{name: p, read: func() ([]byte, error) { return readFile(nil, p) }})
			}, func(rel string) string { return filepath.Join(in.path, filepath.FromSlash(rel)) })
			problems = append(problems, ps...)
			if n == 0 && len(ps) == 0 {
				return nil, nil, fmt.Errorf("%s: no manifest (.yaml, .yml or .json file) in this directory", in.path)
			}
		case inputFS:
			info, err := fs.Stat(in.fsys, in.root)
			if err != nil {
				return nil, nil, err
			}
			fsys := in.fsys
			if !info.IsDir() {
				p := in.root
				add("fs:"+p, source{name: p, read: func() ([]byte, error) { return readFile(fsys, p) }})
				continue
			}
			n, ps := walk(fsys, in.root, exclude, func(p string) {
				add("", source{name: p, read: func() ([]byte, error) { return readFile(fsys, p) }})
			}, func(p string) string { return p })
			problems = append(problems, ps...)
			if n == 0 && len(ps) == 0 {
				return nil, nil, fmt.Errorf("%s: no manifest (.yaml, .yml or .json file) in this directory", in.root)
			}
		}
	}
	return srcs, problems, nil
}

// absKey is the key that tells two names of one file apart from two files.
func absKey(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// walk calls file for each manifest below root in fsys, in lexical order, skipping the
// paths that match an exclude pattern, and returns how many it found and the problems met
// (named by name).
func walk(fsys fs.FS, root string, exclude []string, file func(string), name func(string) string) (int, []manifest.Finding) {
	n := 0
	var problems []manifest.Finding
	_ = fs.WalkDir(fsys, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == root && e == nil {
				problems = append(problems, manifest.FileProblem(name(p), 1, manifest.UnreadableFile, "cannot read: "+pathError(err)))
				return fs.SkipAll
			}
			problems = append(problems, manifest.FileProblem(name(p), 1, manifest.UnreadableFile, "cannot read: "+pathError(err)))
			if e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p != root && excluded(p, exclude) {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() || !manifest.IsManifestName(e.Name()) {
			return nil
		}
		n++
		file(p)
		return nil
	})
	return n, problems
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
// manifest.MaxFileSize (and one byte more, so that a larger file is told apart).
func readFile(fsys fs.FS, p string) ([]byte, error) {
	var f io.ReadCloser
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
	return readAll(f)
}

func readAll(r io.Reader) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(io.LimitReader(r, manifest.MaxFileSize+1))
	return b.Bytes(), err
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
