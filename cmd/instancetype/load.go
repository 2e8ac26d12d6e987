package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/amlarc-go/instancetypes/manifest"
)

// stdinName is how standard input is named in findings.
const stdinName = "<stdin>"

// load reads every path: "-" is standard input (read only if named), a directory is
// walked for manifest files, anything else is read as one file whatever its name. It
// fails on the first path that cannot be read.
func load(paths []string, stdin io.Reader) ([]*manifest.File, error) {
	var files []*manifest.File
	readStdin := false
	for _, p := range paths {
		if p == "-" {
			if readStdin {
				continue // stdin can be read once; naming it twice reads it once
			}
			readStdin = true
			f, err := manifest.Read(stdinName, stdin)
			if err != nil {
				return nil, fmt.Errorf("reading standard input: %w", err)
			}
			files = append(files, f)
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			f, err := readFile(p)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !isManifestName(path) {
				return nil
			}
			f, err := readFile(path)
			if err != nil {
				return err
			}
			files = append(files, f)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

func readFile(path string) (*manifest.File, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := manifest.Read(path, r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return f, nil
}

func isManifestName(path string) bool {
	return slices.Contains(manifest.Extensions, strings.ToLower(filepath.Ext(path)))
}
