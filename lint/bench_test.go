package lint_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/source"
)

// genList is the InstanceTypeList of n valid, distinct instance types that
// scripts/genlist -n n writes (the list scripts/e2e.sh and scripts/kubeconform.sh time),
// byte for byte. With typo set, item n/2 has one unknown field (nodeSelectr): one finding,
// whose position lint looks up.
func genList(n int, typo bool) []byte {
	var b bytes.Buffer
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range n {
		selector := "nodeSelector"
		if typo && i == n/2 {
			selector = "nodeSelectr"
		}
		fmt.Fprintf(&b, `  - metadata:
      name: it-%d
    spec:
      %s:
        pool: pool-%d
      resources:
        requests:
          cpu: "%dm"
          memory: "%dMi"
        limits:
          cpu: "%d"
          memory: "%dGi"
          nvidia.com/gpu: %d
`, i, selector, i%7, 100+i%900, 256+i%1024, 1+i%8, 2+i%16, i%2)
	}
	return b.Bytes()
}

// oneType is a file of one InstanceType in block style, as kept one object a file: one of
// the 2,000 files scripts/kubeconform.sh times.
var oneType = []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: it-1
spec:
  nodeSelector:
    pool: pool-1
  resources:
    requests:
      cpu: "101m"
      memory: "257Mi"
    limits:
      cpu: "2"
      memory: "3Gi"
      nvidia.com/gpu: 1
`)

// longList is the size past which lint reads a list item by item, its runs of items
// converted on every processor (lint's own longList, which it does not export).
const longList = 1 << 20

// readDecode reads data as lint reads an input (package source, as kubectl reads it, with
// suppression comments, a list over longList item by item) and decodes each document
// strictly (package decode): the reading of instancetype validate, without its rules,
// catalog and report. It returns the number of instance types and of findings of decoding.
func readDecode(data []byte) (types, errs int) {
	opts := source.Options{Reader: source.Kubectl, Marker: lint.IgnoreMarker, LongList: longList}
	f := source.Scan(data, opts, func(d *source.Document) bool {
		if d.Problem != nil {
			errs++
			return true
		}
		kind, _, problem, ok := decode.Recognise(d.Value)
		if !ok || kind == "" || problem != nil {
			errs++
			return true
		}
		r := decode.Document(d, kind)
		types += len(r.InstanceTypes)
		errs += len(r.Errors)
		for _, o := range r.InstanceTypes {
			errs += len(o.Errors)
		}
		return true
	})
	return types, errs + len(f.Problems)
}

// BenchmarkDecodeList compares reading an InstanceTypeList as instancetype validate reads
// it with the bare decode a Go program would otherwise do: sigs.k8s.io/yaml.Unmarshal of the
// same bytes into the API types (YAML to JSON, then encoding/json; no strictness, no
// positions, no rules), the reference of DESIGN.md §4's target (at most 1.2× its time).
//
//   - impl=ours: source.Scan and decode.Document (kubectl's values, strict decoding).
//   - impl=ours-1cpu: the same on one processor (GOMAXPROCS=1: a long list's runs of items
//     converted one after the other, no garbage collection on the other core).
//   - impl=lint: lint.Run of the same bytes, what the command runs (reading, every rule,
//     the catalog, the report, positions of findings).
//   - impl=sigsyaml: sigs.k8s.io/yaml.Unmarshal into instancetype.InstanceTypeList (or
//     InstanceType for file=one-type).
//   - impl=yamlv3node: a bare go.yaml.in/yaml/v3 parse into nodes, what looking up the
//     position of a finding parses a document with, on demand.
//
// The rows: file=one-type is one of the 2,000 small files of scripts/kubeconform.sh;
// items=N the list of scripts/genlist -n N; items=20k-one-finding the same 20,000 items with
// one unknown field in the middle item, so that lint looks up one position (the text is
// then parsed by yaml.v3).
//
// Each sub-benchmark reads its input once before it is timed: a read of the 20,000 items
// takes about a second, so that a -benchtime of 1s times one or two reads, and without it
// the first sub-benchmark to need a heap of some hundred megabytes would pay for growing
// it (the runtime asking the system for fresh pages), and the others would not.
func BenchmarkDecodeList(b *testing.B) {
	type input struct {
		row   string
		data  []byte
		types int // instance types in it
		errs  int // findings of decoding
		one   bool
	}
	inputs := []input{
		{row: "file=one-type", data: oneType, types: 1, one: true},
		{row: "items=100", data: genList(100, false), types: 100},
		{row: "items=20k", data: genList(20000, false), types: 20000},
		{row: "items=20k-one-finding", data: genList(20000, true), types: 20000, errs: 1},
	}
	ours := func(in input) error {
		if types, errs := readDecode(in.data); types != in.types || errs != in.errs {
			return fmt.Errorf("read %d instance types, %d findings; want %d, %d", types, errs, in.types, in.errs)
		}
		return nil
	}
	impls := []struct {
		name  string
		procs int // GOMAXPROCS, when set
		read  func(input) error
	}{
		{name: "ours", read: ours},
		{name: "ours-1cpu", procs: 1, read: ours},
		{name: "lint", read: func(in input) error {
			r, err := lint.Run([]lint.Input{lint.Bytes("list.yaml", in.data)}, lint.Options{})
			switch {
			case err != nil:
				return err
			case len(r.Findings) != in.errs || r.Documents != 1:
				return fmt.Errorf("%d findings, %d documents; want %d, 1", len(r.Findings), r.Documents, in.errs)
			case in.errs == 1 && (r.Findings[0].Line <= 1 || !strings.Contains(r.Findings[0].Err.Field, "nodeSelectr")):
				return fmt.Errorf("finding at line %d, %s; want the unknown field, placed", r.Findings[0].Line, r.Findings[0].Err.Field)
			}
			return nil
		}},
		{name: "sigsyaml", read: func(in input) error {
			if in.one {
				var it instancetype.InstanceType
				if err := yaml.Unmarshal(in.data, &it); err != nil || it.Name != "it-1" {
					return fmt.Errorf("%v, name %q", err, it.Name)
				}
				return nil
			}
			var l instancetype.InstanceTypeList
			if err := yaml.Unmarshal(in.data, &l); err != nil || len(l.Items) != in.types {
				return fmt.Errorf("%v, %d items", err, len(l.Items))
			}
			return nil
		}},
		{name: "yamlv3node", read: func(in input) error {
			var node yamlv3.Node
			return yamlv3.Unmarshal(in.data, &node)
		}},
	}
	for _, in := range inputs {
		for _, im := range impls {
			if im.procs == 1 && in.one {
				continue // one small file: nothing runs on another processor
			}
			b.Run("impl="+im.name+"/"+in.row, func(b *testing.B) {
				if im.procs > 0 {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(im.procs))
				}
				b.ReportAllocs()
				b.SetBytes(int64(len(in.data)))
				if err := im.read(in); err != nil { // not timed: b.Loop resets the timer
					b.Fatal(err)
				}
				for b.Loop() {
					if err := im.read(in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
