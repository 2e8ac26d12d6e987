//go:build unix

package main

import (
	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/amlarc-go/instancetypes/source"
)

// Hostile inputs through the command, as a user would meet them: each written to a file
// (or piped to standard input), the built binary run on it, and its exit code, findings,
// output size, peak memory and time checked. The decoder's side of the same inputs is in
// manifest/hostile_test.go. (Unix only: peak memory is read from the child's rusage, through the launcher of
// launcher_unix_test.go.)
//
// The bounds, per run of the command:
const (
	// hostileTimeout is how long a run may take before it counts as a hang. It is a guard
	// against hangs, not a speed requirement: every case below takes well under 5 s.
	hostileTimeout = 60 * time.Second
	// hostileMaxRSS is the most memory a run may use: its peak resident set size. The
	// largest legitimate input, a file of MaxFileSize bytes refused unread, stays under
	// 200 MB; a valid 20,000-item list (5 MB) about 190 MB.
	hostileMaxRSS = 512 << 20
	// hostileMaxOutput is the most a run may print, standard output and error together,
	// for these inputs: each has a handful of findings at most, and a finding repeats at
	// most validate.MaxValueLen bytes of a value.
	hostileMaxOutput = 256 << 10
)

// hostileHeader starts an InstanceType document.
const hostileHeader = "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\n"

// hostileResources is a valid spec.resources, so that an instance type's only problem is
// the one a case plants.
const hostileResources = "spec:\n  resources:\n    requests: {cpu: 100m, memory: 1Gi}\n    limits: {cpu: 1, memory: 2Gi}\n"

// billionLaughs is head followed by an alias bomb in a few hundred bytes: ten levels of
// anchors, each a list of ten aliases to the one before, and "key: *a9", 10^10 nodes once
// expanded.
func billionLaughs(head, key string) []byte {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	b.WriteString(key + ": *a9\n")
	return []byte(b.String())
}

// randomBytes returns n bytes from a fixed seed.
func randomBytes(n int) []byte {
	rng := rand.New(rand.NewPCG(7, 11))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

type hostileCase struct {
	name string
	data func() []byte
	// args are the command's arguments; FILE stands for the hostile file's path and "-"
	// for the data on standard input. Default: validate FILE.
	args []string
	// code is the exit status wanted; why says why when it is not cli.ExitFindings.
	code int
	why  string
	// want are substrings of standard output: the finding naming the problem.
	want []string
	// slow cases run only with INSTANCETYPES_SLOW_TESTS set (see slow): manifest's own
	// tests cover their inputs in process.
	slow bool
	// maxRSS, when set, is the most memory the run may use, below hostileMaxRSS; maxCPU
	// the most processor time, a generous bound against a cost that grows out of line
	// (never the wall-clock time, which a busy machine stretches).
	maxRSS int64
	maxCPU time.Duration
}

// must fails the test on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func hostileCases() []hostileCase {
	name300 := strings.Repeat("n", 300)
	return []hostileCase{
		{
			name: "alias bomb in an instance type",
			data: func() []byte {
				return append(billionLaughs(hostileHeader, "x"), "metadata:\n  name: bomb\n  ownerReferences: *a9\n"+hostileResources...)
			},
			code: cli.ExitFindings,
			want: []string{"FILE:1: kubectl refuses this document: its aliases expand too far (document contains excessive aliasing)"},
		},
		{
			name: "alias bomb in a deployment",
			data: func() []byte { return billionLaughs("endpoint_name: e\n", "extra") },
			code: cli.ExitFindings,
			want: []string{"kubectl refuses this document: its aliases expand too far"},
			slow: true,
		},
		{
			name: "alias bomb on standard input, JSON output",
			data: func() []byte { return billionLaughs("command: train\ncompute: azureml:k8s\n", "extra") },
			args: []string{"validate", "-o", "json", "-"},
			code: cli.ExitFindings,
			// JSON findings are checked as FILE:LINE: TYPE: FIELD: MESSAGE.
			want: []string{"<stdin>:1: InputLimit: : kubectl refuses this document: its aliases expand too far"},
		},
		{
			name: "alias bomb in a document of another kind",
			data: func() []byte { return billionLaughs("apiVersion: v1\nkind: ConfigMap\n", "data") },
			code: cli.ExitFindings,
			why:  "kubectl refuses the document, whatever its kind: its reader stops expanding aliases, and that is a finding",
			want: []string{"kubectl refuses this document: its aliases expand too far"},
			slow: true,
		},
		{
			name: "200,000-deep flow nesting",
			data: func() []byte {
				return []byte(hostileHeader + "spec: " + strings.Repeat("[", 200000) + strings.Repeat("]", 200000) + "\n")
			},
			code: cli.ExitFindings,
			want: []string{"FILE:3: exceeded max depth of 10000"},
			slow: true,
		},
		{
			name: "200,000-deep block nesting",
			data: func() []byte { return []byte(hostileHeader + "spec:\n" + strings.Repeat("- ", 200000) + "x\n") },
			code: cli.ExitFindings,
			want: []string{"exceeded max depth of 10000"},
			slow: true,
		},
		{
			name: "200,000-deep nesting on standard input",
			data: func() []byte { return []byte(strings.Repeat("{a: ", 200000)) },
			args: []string{"validate", "-"},
			code: cli.ExitFindings,
			// It starts with "{", so kubectl reads it as JSON, then as YAML: both fail, and the
			// JSON problem is reported, as kubectl reports it.
			want: []string{"<stdin>:1: exceeded max depth of 10000"},
			slow: true,
		},
		{
			name: "4 MB of random bytes",
			data: func() []byte { return randomBytes(4 << 20) },
			code: cli.ExitFindings,
			want: []string{"FILE:1: YAML syntax error: control character U+"},
			slow: true,
		},
		{
			name: "1 MB of NUL bytes",
			data: func() []byte { return make([]byte, 1<<20+1) },
			code: cli.ExitFindings,
			want: []string{"FILE:1: YAML syntax error: control character U+0000 is not allowed: kubectl refuses the document"},
			slow: true,
		},
		{
			// One line of a multiple of 4,096 bytes, without a line break: kubectl's line
			// reader loses it, and reads nothing.
			name: "1 MiB of NUL bytes",
			data: func() []byte { return make([]byte, 1<<20) },
			code: cli.ExitFindings,
			want: []string{"FILE:1: kubectl ignores this line: the file's last line has no line break"},
			slow: true,
		},
		{
			name: "a NUL byte in a name",
			data: func() []byte { return []byte(hostileHeader + "metadata: {name: \"a\x00b\"}\n" + hostileResources) },
			code: cli.ExitFindings,
			want: []string{"FILE:3: YAML syntax error: control character U+0000 is not allowed: kubectl refuses the document"},
		},
		{
			name: "invalid UTF-8 in a name",
			data: func() []byte { return []byte(hostileHeader + "metadata:\n  name: \xc3\x28\n" + hostileResources) },
			code: cli.ExitFindings,
			want: []string{"FILE:4: metadata.name: Invalid value: \"\ufffd(\": must be a DNS-1123 subdomain"},
		},
		{
			name: "1 MB scalar as a name",
			data: func() []byte {
				return []byte(hostileHeader + "metadata: {name: " + strings.Repeat("a", 1<<20) + "}\n" + hostileResources)
			},
			code: cli.ExitFindings,
			want: []string{"FILE:3: metadata.name: Invalid value: \"aaaa", "... (1048576 bytes)\": must be no more than 253 bytes"},
		},
		{
			name: "1 MB label key, implicit",
			data: func() []byte {
				return []byte(hostileHeader + "metadata: {name: a}\nspec:\n  nodeSelector:\n    " + strings.Repeat("k", 1<<20) + ": v\n")
			},
			code: cli.ExitFindings,
			// YAML itself refuses an implicit key over 1,024 characters.
			want: []string{"FILE:6: YAML syntax error: mapping values are not allowed in this context"},
			slow: true,
		},
		{
			name: "1 MB label key, explicit",
			data: func() []byte {
				return []byte(hostileHeader + "metadata: {name: a}\nspec:\n  nodeSelector:\n    ? " + strings.Repeat("k", 1<<20) + "\n    : v\n")
			},
			code: cli.ExitFindings,
			want: []string{"(1048576 bytes)\": name part must be no more than 63 bytes"},
			slow: true,
		},
		{
			name: "1 MB label value, quoted, in a list item",
			data: func() []byte {
				return []byte("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n- metadata: {name: a}\n  spec:\n    nodeSelector:\n      k: \"" + strings.Repeat("v", 1<<20) + "\"\n")
			},
			code: cli.ExitFindings,
			want: []string{"FILE:7: items[0].spec.nodeSelector[k]: Invalid value: \"vvvv", "(1048576 bytes)\": must be no more than 63 bytes"},
			slow: true,
		},
		{
			name: "200,000 empty documents, then a valid instance type",
			data: func() []byte {
				return []byte(strings.Repeat("---\n", 200000) + hostileHeader + "metadata: {name: last}\n" + hostileResources)
			},
			code: cli.ExitOK,
			why:  "empty documents are legal YAML and skipped, as kubectl skips them; the one instance type is valid",
			slow: true,
		},
		{
			name: "200,000 empty documents, then a broken instance type",
			data: func() []byte {
				return []byte(strings.Repeat("---\n", 200000) + hostileHeader + "metadata: {name: last}\nspec:\n  resources:\n    requests: {cpu: \"0\", memory: 1Gi}\n    limits: {cpu: 1, memory: 2Gi}\n")
			},
			code: cli.ExitFindings,
			want: []string{"FILE:200006: spec.resources.requests[cpu]: Invalid value: \"0\": must be greater than zero"},
			slow: true,
		},
		{
			name: "200,000 empty documents alone",
			data: func() []byte { return []byte(strings.Repeat("---\n", 200000)) },
			code: cli.ExitOK,
			why:  "a stream of empty documents holds nothing to check",
			slow: true,
		},
		{
			name: "exponent 1e3061300070 as cpu",
			data: func() []byte {
				return []byte(hostileHeader + "metadata: {name: big}\nspec:\n  resources:\n    requests: {cpu: \"1e3061300070\", memory: 1e3061300070}\n    limits: {cpu: \"1e3061300070\", memory: 2Gi}\n")
			},
			code: cli.ExitFindings,
			want: []string{
				`FILE:6: spec.resources.requests[cpu]: Invalid value: "1e3061300070": the exponent must have at most 3 digits`,
				`FILE:6: spec.resources.requests[memory]: Invalid value: "1e3061300070": the exponent must have at most 3 digits`,
				`FILE:7: spec.resources.limits[cpu]: Invalid value: "1e3061300070": the exponent must have at most 3 digits`,
			},
		},
		{
			name: "exponent 1e3061300070 in a deployment's resources",
			data: func() []byte {
				return []byte("endpoint_name: e\nresources:\n  requests: {cpu: \"1e3061300070\", memory: 1Gi}\n  limits: {cpu: \"1e-3061300070\", memory: 2Gi}\n")
			},
			code: cli.ExitFindings,
			want: []string{
				`FILE:3: resources.requests[cpu]: Invalid value: "1e3061300070": out of range`,
				`FILE:4: resources.limits[cpu]: Invalid value: "1e-3061300070": out of range`,
			},
		},
		{
			name: "name of 300 bytes",
			data: func() []byte {
				return []byte(hostileHeader + "metadata:\n  name: " + name300 + "\n" + hostileResources)
			},
			code: cli.ExitFindings,
			want: []string{"FILE:4: metadata.name: Invalid value: \"nnnn", "(300 bytes)\": must be no more than 253 bytes"},
		},
		{
			name: "name of 300 bytes, listed",
			data: func() []byte {
				return []byte(hostileHeader + "metadata:\n  name: " + name300 + "\n" + hostileResources)
			},
			args: []string{"list", "FILE"},
			code: cli.ExitFindings,
			want: []string{"must be no more than 253 bytes", "nnnnnnnn"},
		},
		{
			name: "instance_type of 300 bytes in a deployment",
			data: func() []byte { return []byte("endpoint_name: e\ninstance_type: " + name300 + "\n") },
			args: []string{"resolve", "FILE"},
			code: cli.ExitFindings,
			want: []string{"FILE:2: instance_type: Invalid value: \"nnnn", "(300 bytes)\": must name an InstanceType: must be no more than 253 bytes"},
		},
		{
			// Once 23 s and 400 MB: the reader cut, scanned for templates and parsed 64 MiB
			// of line breaks line by line; a document of blank lines and comments is no
			// longer parsed (about 0.5 s of processor time, 76 MB, most of it the file).
			name:   "64 MiB of blank lines",
			data:   func() []byte { return bytes.Repeat([]byte("\n"), source.MaxFileSize-1) },
			code:   cli.ExitOK,
			why:    "blank lines are an empty document",
			slow:   true,
			maxRSS: 300 << 20, // apimachinery's reader holds a document in one buffer: here 64 MiB, beside the file
			maxCPU: 20 * time.Second,
		},
		{
			name:   "one comment line of 64 MiB",
			data:   func() []byte { return append(bytes.Repeat([]byte("#"), source.MaxFileSize-1), '\n') },
			code:   cli.ExitOK,
			why:    "a comment is an empty document",
			slow:   true,
			maxRSS: 300 << 20, // apimachinery's reader holds a document in one buffer: here 64 MiB, beside the file
			maxCPU: 20 * time.Second,
		},
		{
			// 16 million separators, 8 million empty documents: once more than 11 minutes
			// and past 420 MB, a list of every document made before any was read, and each
			// parsed; now cut and read one at a time, none parsed (about 1 s, 76 MB).
			name:   "64 MiB of separators",
			data:   func() []byte { return bytes.Repeat([]byte("---\n"), source.MaxFileSize/4) },
			code:   cli.ExitOK,
			why:    "a stream of empty documents holds nothing to check",
			slow:   true,
			maxRSS: 300 << 20, // apimachinery's reader holds a document in one buffer: here 64 MiB, beside the file
			maxCPU: 20 * time.Second,
		},
		{
			// 1.4 million documents of "[" (8 MiB), a syntax error each: 1 million once
			// took 126 s and 334 MB, every finding kept; a file lists at most
			// lint's maxFileReports findings of its reading, and counts the rest (about
			// 7 s and 60 MB; 64 MiB of them, 52 s and 163 MB).
			name:   "8 MiB of broken documents",
			data:   func() []byte { return bytes.Repeat([]byte("---\n[\n"), 8<<20/6) },
			want:   []string{"FILE:2: YAML syntax error", "more findings in this file are not shown"},
			code:   cli.ExitFindings,
			slow:   true,
			maxRSS: 128 << 20,
		},
		{
			name: "file one byte over the size limit",
			data: func() []byte { return bytes.Repeat([]byte("#"), source.MaxFileSize+1) },
			code: cli.ExitFindings,
			want: []string{"FILE:1: file too large: more than 67108864 bytes"},
			slow: true,
		},
	}
}

func TestHostileInputs(t *testing.T) {
	for _, tt := range hostileCases() {
		t.Run(tt.name, func(t *testing.T) {
			if tt.slow {
				slow(t)
			}
			dir := t.TempDir()
			data := tt.data()
			file := filepath.Join(dir, "hostile.yaml")
			must(t, os.WriteFile(file, data, 0o644))
			args := tt.args
			if args == nil {
				args = []string{"validate", "FILE"}
			}
			var stdin []byte
			for i, a := range args {
				switch a {
				case "FILE":
					args = append([]string(nil), args...)
					args[i] = "hostile.yaml"
				case "-":
					stdin = data
				}
			}
			r := runHostile(t, dir, stdin, args...)
			checkHostile(t, r, tt.code)
			if tt.maxRSS > 0 && r.rss > tt.maxRSS {
				t.Errorf("peak RSS %d MB; want under %d MB", r.rss>>20, tt.maxRSS>>20)
			}
			if tt.maxCPU > 0 && r.cpu > tt.maxCPU {
				t.Errorf("processor time %v; want under %v", r.cpu, tt.maxCPU)
			}
			out := r.stdout
			if slices.Contains(args, "json") {
				out = jsonFindings(t, r.stdout)
			} else if tt.code == cli.ExitFindings && !strings.Contains(r.stderr, "problem") {
				t.Errorf("no summary of problems on standard error: %.2000s", r.stderr)
			}
			out = strings.ReplaceAll(out, "hostile.yaml:", "FILE:")
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%.2000s", w, out)
				}
			}
		})
	}
}

// jsonFindings renders the findings of validate -o json as FILE:LINE: TYPE: FIELD: MESSAGE
// lines.
func jsonFindings(t *testing.T, out string) string {
	t.Helper()
	var v struct {
		Findings []struct {
			File    string `json:"file"`
			Line    int    `json:"line"`
			Field   string `json:"field"`
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("-o json output is not JSON: %v\n%.2000s", err, out)
	}
	var b strings.Builder
	for _, f := range v.Findings {
		fmt.Fprintf(&b, "%s:%d: %s: %s: %s\n", f.File, f.Line, f.Type, f.Field, f.Message)
	}
	return b.String()
}

// The tests below are regression tests of bugs these hostile inputs found in packages
// other than this one, all fixed since; each says what it saw before the fix, and what
// fixed it.

// TestHostileEndlessInputsOnManyCores: memory must not grow with the number of processors.
// Sixteen endless inputs (symlinks to /dev/zero named as PATHs) peaked at 470 MB with
// GOMAXPROCS=2, 1.55 GB at 8 and 2.7 GB at 16: each worker read its whole file (64 MiB and
// a byte, in a buffer grown to 128 MiB) before taking its share of the shared budget. Now
// the share is taken before reading, for what the file's size allows (all of it for a
// file of unknown size), and a buffer grows only as far as the limit.
func TestHostileEndlessInputsOnManyCores(t *testing.T) {
	slow(t)
	dir := t.TempDir()
	args := []string{"validate"}
	for i := range 16 {
		name := fmt.Sprintf("zero%02d.yaml", i)
		must(t, os.Symlink("/dev/zero", filepath.Join(dir, name)))
		args = append(args, name)
	}
	for _, procs := range []string{"2", "16"} {
		r := runHostileEnv(t, dir, nil, []string{"GOMAXPROCS=" + procs}, args...)
		checkHostile(t, r, cli.ExitFindings)
		if n := strings.Count(r.stdout, "file too large"); n != 16 {
			t.Errorf("GOMAXPROCS=%s: %d files too large; want 16:\n%.2000s", procs, n, r.stdout)
		}
		t.Logf("GOMAXPROCS=%s: peak RSS %d MB", procs, r.rss>>20)
	}
}

// TestHostileCyclicAlias: an anchor whose content holds an alias to itself once crashed the
// command. "endpoint_name: e\nx: &a {k: *a}\n" (28 bytes) made manifest's decoder walk the
// cycle 4,194,304 calls deep (its node budget), past Go's 1 GB stack limit: "fatal error:
// stack overflow", a runtime stack dump and exit status 2, after about 4 s and 1 GB of RSS.
// Now a finding, exit 1.
func TestHostileCyclicAlias(t *testing.T) {
	for _, data := range []string{
		"endpoint_name: e\nx: &a {k: *a}\n",
		hostileHeader + "metadata:\n  name: cyclic\n  ownerReferences: &a [*a]\n" + hostileResources,
	} {
		dir := t.TempDir()
		must(t, os.WriteFile(filepath.Join(dir, "cyclic.yaml"), []byte(data), 0o644))
		r := runHostile(t, dir, nil, "validate", "cyclic.yaml")
		checkHostile(t, r, cli.ExitFindings)
		if !strings.Contains(r.stdout, "an alias (*a) inside the node its anchor (&a) names") {
			t.Errorf("no finding about the cycle:\n%.2000s", r.stdout)
		}
	}
}

// TestHostileManySmallNodes: the node limit (MaxNodes) is applied while walking a document,
// after the YAML reader has built the whole node tree, so it bounds nothing of the tree's
// memory: about 200 bytes per node. "spec: [0,0,0,...]" with 31,000,000 zeros, a 62 MB file
// under the 64 MiB size limit, peaks at 5.9 GB of RSS and takes about 60 s (a 4,000,000-zero
// file of 8 MB: 830 MB). Want: under hostileMaxRSS, for example by counting nodes as the
// reader produces them, or a file size limit matched to the memory bound. Fixed: manifest
// counts the bytes that can separate nodes before parsing and refuses a file over MaxNodes.
func TestHostileManySmallNodes(t *testing.T) {
	slow(t)
	dir := t.TempDir()
	data := hostileHeader + "metadata: {name: flat}\nspec: [" + strings.Repeat("0,", 31_000_000) + "0]\n"
	must(t, os.WriteFile(filepath.Join(dir, "flat.yaml"), []byte(data), 0o644))
	r := runHostile(t, dir, nil, "validate", "flat.yaml")
	checkHostile(t, r, cli.ExitFindings)
}

// TestHostileWideMapping: the duplicate-key check compares each key of a mapping with every
// key before it (manifest's entries and firstKey), quadratic in the mapping's size. A
// nodeSelector of 100,000 distinct valid labels (1.4 MB) takes 30 s; of 300,000 (4.5 MB),
// about 4.5 minutes; a 64 MiB file of them would run for hours. Want: a set of seen keys.
// Fixed: large mappings keep one. (Its one finding: more entries than the CRD allows.)
func TestHostileWideMapping(t *testing.T) {
	slow(t)
	var b strings.Builder
	b.WriteString(hostileHeader + "metadata: {name: wide}\nspec:\n  nodeSelector:\n")
	for i := range 300_000 {
		fmt.Fprintf(&b, "    k%d: v\n", i)
	}
	b.WriteString("  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: 1, memory: 1Gi}\n")
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "wide.yaml"), []byte(b.String()), 0o644))
	r := runHostile(t, dir, nil, "validate", "wide.yaml")
	checkHostile(t, r, cli.ExitFindings)
	if strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, "wide.yaml:5: spec.nodeSelector: Too many: 300000") {
		t.Errorf("output %.2000q; want one finding, of too many entries", r.stdout)
	}
}

// TestHostileAliasedFindings: aliases multiply findings as they multiply nodes, up to the
// node limit. A 35 KB list whose first item has 1,000 invalid label keys and whose 1,999
// other items are aliases of it (- *it) gives 2,001,999 findings: 657 MB of output, 2.25 GB
// of RSS and 36 s. Want: output and memory bounded by a small multiple of the input, for
// example by reporting a finding once per node (not once per expansion), or by a cap on
// findings per file. Fixed: aliases may grow a document at most MaxAliasGrowth-fold.
func TestHostileAliasedFindings(t *testing.T) {
	slow(t)
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n- &it\n  metadata: {name: x}\n  spec:\n    nodeSelector:\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "      'bad key %d': v\n", i)
	}
	b.WriteString("    resources:\n      requests: {cpu: 1, memory: 1Gi}\n      limits: {cpu: 1, memory: 1Gi}\n")
	b.WriteString(strings.Repeat("- *it\n", 1999))
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "amplified.yaml"), []byte(b.String()), 0o644))
	r := runHostile(t, dir, nil, "validate", "amplified.yaml")
	checkHostile(t, r, cli.ExitFindings)
}

// TestHostileUnknownNamesInBigCatalog: each deployment naming an unknown instance type
// costs a pass over the whole catalog for its did-you-mean (resolve's documented cost of a
// miss), so a file of W such deployments and C types costs W×C name comparisons, each up to
// the square of the names' length. 2,000 types and 2,000 deployments with 250-byte names
// (1.3 MB) take 16 s; 10,000 of each with 6-byte names (1.6 MB), 8 s; 10,000 of each with
// 250-byte names (6.4 MB) would take several minutes. Want: a bound on the suggestion work
// per run (a cache by name, a cap on the names scanned or on the misses given suggestions).
// Fixed: the edit distance is computed in a band around the diagonal, and only for names
// of at most 64 bytes (longer ones are compared by case and prefix).
func TestHostileUnknownNamesInBigCatalog(t *testing.T) {
	slow(t)
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	const n = 10_000
	for i := range n {
		fmt.Fprintf(&b, "- metadata: {name: t%06d%s}\n  spec: {resources: {requests: {cpu: 1, memory: 1Gi}, limits: {cpu: 1, memory: 1Gi}}}\n", i, strings.Repeat("a", 243))
	}
	for i := range n {
		fmt.Fprintf(&b, "---\nendpoint_name: e\ninstance_type: u%06d%s\n", i, strings.Repeat("b", 243))
	}
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "misses.yaml"), []byte(b.String()), 0o644))
	r := runHostile(t, dir, nil, "validate", "misses.yaml")
	if r.code != cli.ExitFindings {
		t.Errorf("exit %d; want %d", r.code, cli.ExitFindings)
	}
}

type hostileResult struct {
	stdout, stderr string
	outBytes       int64 // bytes written to stdout and stderr, kept or not
	code           int
	rss            int64         // peak resident set size, bytes
	cpu            time.Duration // processor time, user and system
	elapsed        time.Duration
}

// runHostile runs the binary in dir with stdin, under the hang guard, and reports its
// exit, output, peak memory and time. A hang fails the test.
func runHostile(t *testing.T, dir string, stdin []byte, args ...string) hostileResult {
	t.Helper()
	return runHostileEnv(t, dir, stdin, nil, args...)
}

// runHostileEnv is runHostile with more variables in the command's environment.
func runHostileEnv(t *testing.T, dir string, stdin []byte, env []string, args ...string) hostileResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
	defer cancel()
	// Through the launcher (see launcherEnv), so that the peak RSS measured is the
	// command's own; its process group is killed on a hang.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "launcher-report")
	cmd := exec.CommandContext(ctx, self, append([]string{binary}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1", launcherEnv+"="+report), env...)
	cmd.Stdin = bytes.NewReader(stdin)
	stdout, stderr := &cappedBuffer{max: hostileMaxOutput}, &cappedBuffer{max: hostileMaxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	start := time.Now()
	err = cmd.Run()
	elapsed := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("instancetype %s: no exit within %v: a hang", strings.Join(args, " "), hostileTimeout)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running instancetype: %v", err)
	}
	var rss int64
	var signal int
	var cpu time.Duration
	if b, err := os.ReadFile(report); err != nil {
		t.Fatalf("the launcher wrote no report (%v); stderr: %.1000s", err, stderr.String())
	} else if _, err := fmt.Sscan(string(b), &rss, &signal, &cpu); err != nil {
		t.Fatalf("the launcher's report %q: %v", b, err)
	}
	r := hostileResult{
		stdout: stdout.String(), stderr: stderr.String(),
		outBytes: stdout.n + stderr.n,
		code:     cmd.ProcessState.ExitCode(),
		rss:      rss,
		cpu:      cpu,
		elapsed:  elapsed,
	}
	if signal != 0 {
		t.Fatalf("instancetype killed by signal %v", syscall.Signal(signal))
	}
	t.Logf("exit %d in %v (processor time %v), peak RSS %d MB, output %d bytes", r.code, elapsed.Round(time.Millisecond), cpu.Round(time.Millisecond), r.rss>>20, r.outBytes)
	return r
}

// checkHostile checks what every run must satisfy: the exit code wanted, no panic or
// runtime crash, output and memory within bounds.
func checkHostile(t *testing.T, r hostileResult, code int) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit %d; want %d\nstdout: %.1000s\nstderr: %.1000s", r.code, code, r.stdout, r.stderr)
	}
	for _, crash := range []string{"panic:", "fatal error:", "goroutine "} {
		if strings.Contains(r.stderr, crash) || strings.Contains(r.stdout, crash) {
			t.Errorf("the command crashed (%q):\n%.2000s", crash, r.stderr)
		}
	}
	if r.outBytes > hostileMaxOutput {
		t.Errorf("%d bytes of output; want at most %d", r.outBytes, hostileMaxOutput)
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		if len(line) > 4096 {
			t.Errorf("an output line of %d bytes: %.200s", len(line), line)
		}
	}
	if r.rss > hostileMaxRSS {
		t.Errorf("peak RSS %d MB; want at most %d MB", r.rss>>20, hostileMaxRSS>>20)
	}
}

// peakRSS returns the peak resident set size of an exited process, in bytes.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) << 10 // kilobytes on Linux and the BSDs
}

// cappedBuffer keeps the first max bytes written to it and counts them all, so that a run
// that prints gigabytes cannot exhaust the test's memory. (It has no ReadFrom, so that
// os/exec copies through Write.)
type cappedBuffer struct {
	buf bytes.Buffer
	max int
	n   int64
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.n += int64(len(p))
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *cappedBuffer) String() string { return b.buf.String() }

var _ io.Writer = (*cappedBuffer)(nil)
