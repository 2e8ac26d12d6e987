// Command modproxy adds a module version, made from a directory, to a module proxy laid
// out as files (GOPROXY=file:///path), as the Go module proxy protocol serves one
// (https://go.dev/ref/mod#goproxy-protocol): MODULE/@v/VERSION.info, .mod and .zip, and
// the list of versions. The zip holds what a release of the directory would (package
// golang.org/x/mod/zip: nested modules, vendor directories and version control files left
// out), so that a consumer module can be built against this repository's modules as users
// get them, before they are tagged (client/hack/consumer.sh).
//
//	modproxy -proxy DIR -version vX.Y.Z SRCDIR
//
// The module path is read from SRCDIR/go.mod.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/zip"
)

func main() {
	proxy := flag.String("proxy", "", "the proxy's directory (created if missing)")
	version := flag.String("version", "", "the version to publish, such as v0.1.0")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: modproxy -proxy DIR -version vX.Y.Z SRCDIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *proxy == "" || *version == "" || flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := publish(*proxy, *version, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

// publish adds the module in src at version to the proxy in dir.
func publish(dir, version, src string) error {
	if !semver.IsValid(version) || semver.Canonical(version) != version {
		return fmt.Errorf("%q is not a canonical semantic version", version)
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return errors.New(src + "/go.mod names no module")
	}
	m := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	at := filepath.Join(dir, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	var z bytes.Buffer
	if err := zip.CreateFromDir(&z, m, src); err != nil {
		return fmt.Errorf("zipping %s: %w", src, err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	for ext, data := range map[string][]byte{".info": info, ".mod": gomod, ".zip": z.Bytes()} {
		if err := os.WriteFile(filepath.Join(at, version+ext), data, 0o644); err != nil {
			return err
		}
	}
	// The list of versions: those published, one a line.
	list := filepath.Join(at, "list")
	old, err := os.ReadFile(list)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	versions := strings.Fields(string(old))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	semver.Sort(versions)
	if err := os.WriteFile(list, []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "modproxy: %s@%s (%d bytes)\n", path, version, z.Len())
	return nil
}
