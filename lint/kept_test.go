package lint_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// typeList is an InstanceTypeList of valid instance types named prefix0, prefix1, ...
func typeList(prefix string, n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, "- metadata: {name: %s%d}\n  spec: {resources: {requests: {cpu: 1, memory: 1Gi}, limits: {cpu: 1, memory: 1Gi}}}\n", prefix, i)
	}
	return b.String()
}

// A run keeps at most MaxInstanceTypes instance types for its catalog: the first, in the
// order of the inputs, whatever order the files are read in; each file holding some past
// the limit has one finding, at the first of them, which is still checked alone. 303,009
// instance types in one 60 MB file once took 166 s and 795 MB through the command, every
// one of them kept whole to the end (the command's peak memory on it is checked in
// cmd/instancetype).
func TestMaxInstanceTypes(t *testing.T) {
	defer lint.SetMaxInstanceTypes(10)()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // files read at once, finishing in any order
	cluster := lint.Bytes("cluster.yaml", []byte(typeList("c", 3)))
	small := typeList("a", 4)
	big := typeList("b", 6) + "---\n" + instanceType("broken", "    requests: {cpu: 0, memory: 1Gi}\n    limits: {cpu: 1, memory: 1Gi}\n")
	deployment := "endpoint_name: e\ninstance_type: b2\n"
	for range 5 {
		r, err := lint.Run([]lint.Input{lint.Bytes("small.yaml", []byte(small)), lint.Bytes("big.yaml", []byte(big)), lint.Bytes("big2.yaml", []byte(big)),
			lint.Bytes("d.yaml", []byte(deployment))}, lint.Options{Catalog: []lint.Input{cluster}})
		if err != nil {
			t.Fatal(err)
		}
		// 3 of the cluster, 4 of small.yaml, then 3 of big.yaml: b0, b1, b2.
		names := r.Catalog.Names()
		var limits []string
		for _, f := range r.Findings {
			if f.Type == lint.InputLimit {
				limits = append(limits, fmt.Sprintf("%s:%d", f.File, f.Line))
				if f.Rule() != "input-limit" || !strings.Contains(f.Message(), "more than 10 instance types") {
					t.Errorf("finding %s, rule %s", f, f.Rule())
				}
			}
		}
		if len(names) != 11 || names[len(names)-1] != "defaultinstancetype" || !r.NamesChecked ||
			strings.Join(limits, " ") != "big.yaml:10 big2.yaml:4" {
			t.Fatalf("catalog %v, limit findings %v; want the cluster's 3, small.yaml's 4, big.yaml's first 3 and the default, and one finding in each big file at its first left out", names, limits)
		}
		if got := findings(r); !strings.Contains(strings.Join(got, " "), "big.yaml:23: spec.resources.requests[cpu]: FieldValueInvalid") ||
			!strings.Contains(strings.Join(got, " "), "big2.yaml:23: spec.resources.requests[cpu]: FieldValueInvalid") {
			t.Errorf("findings %v; want the broken instance types past the limit still checked", got)
		}
		if len(r.Placements) != 1 || !r.Placements[0].Resolved {
			t.Errorf("the deployment on b2, in the catalog, is not resolved")
		}
	}
}

// What a run finds once every file is read (of workloads, of names), what it suppresses and
// the documents it skips are held in memory bounded by the limit of a file's findings, not
// by the number of workloads: 1.7 million deployments naming missing instance types (64 MiB)
// once took 262 s and 738 MB through the command, a finding each kept to the end, and
// resolve on them 336 s and 1.14 GB, a placement each; the report is the same, the first
// findings by line and a count of the rest, and at most MaxPlacements placements.
func TestManyWorkloadsBounded(t *testing.T) {
	defer lint.SetMaxPlacements(30)()
	var missing, skipped strings.Builder
	const n = 400
	for i := range n {
		fmt.Fprintf(&missing, "---\nendpoint_name: e\ninstance_type: missing%d\n", i)
		fmt.Fprintf(&skipped, "---\ncommand: python train.py\nresources: {instance_type: small}\ncompute: azureml:cpu-cluster\n")
	}
	for _, ignore := range []bool{false, true} {
		opts := lint.Options{MaxFindings: 10, Computes: []lint.Input{lint.Bytes("computes.json", []byte(computeList))}}
		if ignore {
			opts.Ignore = []lint.Ignore{{Rule: "R6", Glob: "suppressed.yaml"}}
		}
		r, err := lint.Run([]lint.Input{lint.Bytes("t.yaml", []byte(small)), lint.Bytes("missing.yaml", []byte(missing.String())),
			lint.Bytes("suppressed.yaml", []byte(missing.String())), lint.Bytes("skipped.yaml", []byte(skipped.String()))}, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range r.Findings {
			got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Rule()))
			if f.Type == lint.TooManyFindings {
				got[len(got)-1] += " " + f.Message()[:strings.Index(f.Message(), " more")]
			}
		}
		// missing.yaml: a finding for each workload, and one at the first left out of the
		// placements (line 93); of those, the first 10 by line, and a count of the other 391.
		var want []string
		for i := range 10 {
			want = append(want, fmt.Sprintf("missing.yaml:%d R6", 3*i+3))
		}
		want = append(want, "missing.yaml:30 too-many-findings 391")
		if !ignore {
			for i := range 10 {
				want = append(want, fmt.Sprintf("suppressed.yaml:%d R6", 3*i+3))
			}
			want = append(want, "suppressed.yaml:30 too-many-findings 390")
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("ignore %v: findings %q; want %q", ignore, got, want)
		}
		if ignore && (r.SuppressedCount != n || len(r.Suppressed) != 10 || r.Suppressed[9].Line != 30) {
			t.Errorf("%d suppressed, %d listed; want %d, the first 10", r.SuppressedCount, len(r.Suppressed), n)
		}
		var skips []string
		for _, s := range r.Skipped {
			if s.File == "skipped.yaml" && !strings.Contains(s.Reason, "not a Kubernetes compute") {
				skips = append(skips, fmt.Sprintf("%d %s", s.Line, s.Reason))
			}
		}
		if len(r.Placements) != 30 || r.Workloads != 2*n || strings.Join(skips, "") != "38 390 more documents of this file skipped" {
			t.Errorf("%d placements of %d workloads, skipped %q; want 30 of %d, and 390 skips counted", len(r.Placements), r.Workloads, skips, 2*n)
		}
	}
}
