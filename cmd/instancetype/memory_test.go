//go:build unix

package main

import (
	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
	"github.com/amlarc-go/instancetypes/internal/fixtures"

	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The memory the command may use, whatever its inputs (each measured as the peak RSS of a
// run): any inputs under 512 MiB (hostileMaxRSS); a 20,000-item list under 189 MB, what
// the reader took before it released trees; and many files in memory that does not grow
// with their number as trees would, as each file's parse trees are released once it is
// checked. (Not within 10% of one file: one file of 1 MB peaks at about 17 MB, most of it
// the runtime's floor; 10 such files, read two at a time, at about 34 MB, and 100 at about
// 65 MB, the growth being the report, which lists every document skipped, about 2,000 a
// file here; before trees were released, 8 files of 2.9 MB took 2.36 GB.) Run with
// INSTANCETYPES_SLOW_TESTS=1 (.ci/run does).

// renderedManifests is about size bytes of the Kubernetes objects a rendered chart holds
// (Deployments, Services, ConfigMaps), which the command reads and skips.
func renderedManifests(size, seed int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-%d-%d
  labels: {app: app-%d, tier: backend}
spec:
  replicas: 3
  selector:
    matchLabels: {app: app-%d}
  template:
    metadata:
      labels: {app: app-%d}
    spec:
      containers:
        - name: main
          image: registry.example.com/app:%d
          ports: [{containerPort: 8080}]
          env:
            - {name: MODE, value: production}
            - {name: REPLICA, value: "%d"}
          resources:
            requests: {cpu: 250m, memory: 256Mi}
            limits: {cpu: "1", memory: 1Gi}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: config-%d-%d
data:
  settings.json: '{"feature": true, "threshold": %d, "name": "app-%d"}'
`, seed, i, i, i, i, i, i, seed, i, i, i)
	}
	return b.String()
}

// workloads is about size bytes of Azure ML online deployments naming the instance types
// of types.yaml, some with resources of their own.
func workloads(size, seed int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `---
$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: d-%d-%d
endpoint_name: scoring-%d
model: azureml:model-%d:1
instance_type: type-%d
resources:
  requests: {cpu: 100m, memory: 512Mi}
`, seed, i, i%10, i, i%50)
	}
	return b.String()
}

func typesFile() string {
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range 50 {
		fmt.Fprintf(&b, "- metadata: {name: type-%d}\n  spec:\n    resources:\n      requests: {cpu: 500m, memory: 1Gi}\n      limits: {cpu: \"2\", memory: 4Gi}\n", i)
	}
	return b.String()
}

func writeFiles(t *testing.T, dir string, n int, gen func(i int) string) {
	t.Helper()
	must(t, os.MkdirAll(dir, 0o755))
	for i := range n {
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.yaml", i)), []byte(gen(i)), 0o644))
	}
}

func TestMemoryTargets(t *testing.T) {
	slow(t)
	dir := t.TempDir()
	peak := func(code int, args ...string) int64 {
		t.Helper()
		r := runHostile(t, dir, nil, args...)
		checkHostile(t, r, code)
		return r.rss
	}

	// The 20,000-item list.
	var list strings.Builder
	list.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range 20000 {
		fmt.Fprintf(&list, "- metadata:\n    name: it-%d\n  spec:\n    nodeSelector:\n      pool: pool-%d\n    resources:\n      requests: {cpu: \"%dm\", memory: \"%dMi\"}\n      limits: {cpu: \"%d\", memory: \"%dGi\", nvidia.com/gpu: %d}\n",
			i, i%7, 100+i%900, 256+i%1024, 1+i%8, 2+i%16, i%2)
	}
	must(t, os.WriteFile(filepath.Join(dir, "list.yaml"), []byte(list.String()), 0o644))
	if rss := peak(cli.ExitOK, "validate", "list.yaml"); rss > 189<<20 {
		t.Errorf("20,000-item list: peak RSS %d MB; want under 189 MB", rss>>20)
	}

	// Many files in about the memory of one.
	writeFiles(t, filepath.Join(dir, "one"), 1, func(i int) string { return renderedManifests(1<<20, i) })
	writeFiles(t, filepath.Join(dir, "many"), 100, func(i int) string { return renderedManifests(1<<20, i) })
	// Rendered manifests hold nothing the tool checks: a directory of them is a usage error
	// that says so (exit 2), once every file has been read.
	one := peak(cli.ExitUsage, "validate", "one")
	many := peak(cli.ExitUsage, "validate", "many")
	ten := peak(cli.ExitOK, "validate", "many/f00"+"0.yaml", "many/f001.yaml", "many/f002.yaml", "many/f003.yaml", "many/f004.yaml",
		"many/f005.yaml", "many/f006.yaml", "many/f007.yaml", "many/f008.yaml", "many/f009.yaml")
	t.Logf("one file of 1 MB: %d MB; 10 such files: %d MB; 100: %d MB", one>>20, ten>>20, many>>20)
	// The report lists every skipped document (100,000 here, about 80 bytes each), and the
	// heap's slack grows with it: hence the room above twice the peak of 10 files.
	if many > 96<<20 || many > 5*ten/2 {
		t.Errorf("100 files of 1 MB peak at %d MB (10 at %d MB, one at %d MB): memory grows with the number of files", many>>20, ten>>20, one>>20)
	}

	// Files of workloads, checked in a second reading: their documents are not kept.
	must(t, os.WriteFile(filepath.Join(dir, "types.yaml"), []byte(typesFile()), 0o644))
	writeFiles(t, filepath.Join(dir, "w1"), 1, func(i int) string { return workloads(1<<20, i) })
	writeFiles(t, filepath.Join(dir, "w100"), 100, func(i int) string { return workloads(1<<20, i) })
	w1 := peak(cli.ExitOK, "validate", "types.yaml", "w1")
	w100 := peak(cli.ExitOK, "validate", "types.yaml", "w100")
	t.Logf("one file of 1 MB of deployments: %d MB; 100 such files (600,000 deployments): %d MB", w1>>20, w100>>20)
	// The run keeps at most maxPending (32 MiB) of workload records, about 55,000, and
	// reads the files of the rest again: the heap holds that budget and, under the
	// command's GOGC=150, up to one and a half times as much again as garbage (127 MB
	// measured). Unbounded, 600,000 records would take about 360 MB alone.
	if w100 > 160<<20 {
		t.Errorf("100 files of deployments peak at %d MB (one at %d MB): memory grows with the number of workloads", w100>>20, w1>>20)
	}
}

// TestManyTinyDocuments: 240,000 documents of 23 bytes (5.5 MB), each an instance type
// with six findings, once gave 1.44 million findings, 160 MB of output and 1.35 GB of RSS.
// Findings are capped per file, so output and memory stay small.
func TestManyTinyDocuments(t *testing.T) {
	slow(t)
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "tiny.yaml"), []byte(strings.Repeat("---\nkind: InstanceType\n", 240_000)), 0o644))
	r := runHostile(t, dir, nil, "validate", "tiny.yaml")
	if r.code != cli.ExitFindings {
		t.Errorf("exit %d; want %d", r.code, cli.ExitFindings)
	}
	if n := strings.Count(r.stdout, "\n"); n > 1001 || !strings.Contains(r.stdout, "more findings in this file are not shown") {
		t.Errorf("%d lines of output, no count of the rest:\n%.500s", n, r.stdout)
	}
	if r.rss > hostileMaxRSS {
		t.Errorf("peak RSS %d MB", r.rss>>20)
	}
}

// TestMemoryManyInstanceTypes: 303,009 instance types in one 59 MB file once took 166 s and
// 795 MB, every one kept whole to the end, past the command's soft memory limit, so that
// the collector ran without end (48,000 took 4.5 s, 96,000 30.5 s). A run keeps at most
// lint.MaxInstanceTypes of them for its catalog, each as its name and spec: memory is
// bounded (about 170 MB, most of it the file), and the cost linear: ten times the instance
// types take about ten times the processor time (at most twenty allowed: a ratio within
// one run, which a busy machine cannot fail).
func TestMemoryManyInstanceTypes(t *testing.T) {
	slow(t)
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "small.yaml"), fixtures.InstanceTypes(30_300), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "large.yaml"), fixtures.InstanceTypes(303_009), 0o644))
	small := runHostile(t, dir, nil, "validate", "small.yaml")
	checkHostile(t, small, cli.ExitFindings) // past lint.MaxInstanceTypes
	large := runHostile(t, dir, nil, "validate", "large.yaml")
	checkHostile(t, large, cli.ExitFindings)
	if want := "more than 25000 instance types in all"; !strings.Contains(large.stdout, want) {
		t.Errorf("no finding saying %q:\n%.1000s", want, large.stdout)
	}
	if large.rss > 256<<20 {
		t.Errorf("303,009 instance types: peak RSS %d MB; want under 256 MB", large.rss>>20)
	}
	if large.cpu > 20*small.cpu {
		t.Errorf("processor time: 303,009 instance types %v, 30,300 %v: more than twenty times", large.cpu, small.cpu)
	}
}

// TestMemoryRealNodeList: a real cluster's node list, 3,000 distinct nodes listing 50
// images each (51 MB, 1.85 million YAML nodes), was refused unread as "about 2.87M nodes",
// more than source.MaxNodes; read item by item, it is read in about 160 MB.
func TestMemoryRealNodeList(t *testing.T) {
	slow(t)
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "nodes.yaml"), fixtures.NodeList(3000, 50), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "types.yaml"), []byte(typesFile()), 0o644))
	r := runHostile(t, dir, nil, "validate", "--nodes", "nodes.yaml", "types.yaml")
	checkHostile(t, r, cli.ExitOK)
	if !strings.Contains(r.stderr, "against 3000 nodes") {
		t.Errorf("the nodes were not read: %.1000s%.1000s", r.stdout, r.stderr)
	}
	if r.rss > 256<<20 {
		t.Errorf("peak RSS %d MB; want under 256 MB", r.rss>>20)
	}
}

// TestMemoryManyWorkloads: what a run finds of its workloads is held in memory bounded by
// the findings it reports, and it lists at most lint.MaxPlacements placements. 430,000
// deployments naming missing instance types (16 MiB) once took 248 MB to validate and 416
// MB to resolve, a finding or a placement each kept to the end (1.7 million: 738 MB and
// 262 s, resolve 1.14 GB and 336 s); now about 110 and 130 MB.
func TestMemoryManyWorkloads(t *testing.T) {
	slow(t)
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "w.yaml"), fixtures.Deployments(16<<20), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "types.yaml"), []byte(typesFile()), 0o644)) // type-0 to type-49: none named
	for _, cmd := range []string{"validate", "resolve"} {
		r := runHostile(t, dir, nil, cmd, "types.yaml", "w.yaml")
		if cmd == "validate" {
			checkHostile(t, r, cli.ExitFindings)
		} else if r.code != cli.ExitFindings || strings.Contains(r.stderr, "panic:") {
			// resolve prints a line for each placement listed: output as large as the input.
			t.Errorf("resolve: exit %d; want %d\n%.1000s", r.code, cli.ExitFindings, r.stderr)
		}
		if r.rss > 160<<20 {
			t.Errorf("%s: peak RSS %d MB; want under 160 MB", cmd, r.rss>>20)
		}
	}
}
