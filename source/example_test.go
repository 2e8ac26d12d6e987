package source_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/source"
)

// Scan reads a file's documents as kubectl reads them: each value is what kubectl sends
// (yes is true, 010 is 8), a document kubectl refuses is a problem at its line, and the
// reading goes on with the next.
func ExampleScan() {
	data := []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: small}
spec:
  nodeSelector: {spot: yes, gen: 010}
---
limits: {cpu: .inf}
---
a: b
`)
	f := source.Scan(data, source.Options{}, func(d *source.Document) bool {
		if d.Problem != nil {
			fmt.Printf("line %d: %s\n", d.Problem.Line, d.Problem.Message)
			return true
		}
		m := d.Value.(map[string]any)
		fmt.Printf("line %d: %v\n", d.Line, m["spec"])
		return true
	})
	fmt.Println(f.Documents, "documents")
	// Output:
	// line 1: map[nodeSelector:map[gen:8 spot:true]]
	// line 7: kubectl cannot send this document, and refuses it: .inf has no JSON form; write a finite number
	// line 9: <nil>
	// 3 documents
}

// PositionOf maps a field path back to its line and column, or to the nearest node on the
// way for a field that is missing; yaml.v3 parses the document only when it is first
// asked.
func ExampleDocument_PositionOf() {
	var d *source.Document
	source.Scan([]byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
items:
  - metadata: {name: small}
    spec:
      resources:
        limits:
          nvidia.com/gpu: 1
`), source.Options{}, func(x *source.Document) bool { d = x; return false })
	fmt.Println(d.PositionOf("items[0].spec.resources.limits[nvidia.com/gpu]"))
	fmt.Println(d.PositionOf("items[0].spec.resources.requests[cpu]"))
	// Output:
	// {8 11}
	// {6 7}
}

// Marked comments, as suppression comments are written, come with the document they
// apply to: a comment after content applies to its line, one above the content to the
// whole document; a "#" in a string is text.
func ExampleComment() {
	data := []byte(`# instancetype:ignore R10
name: blue
description: "a # instancetype:ignore R1 in a string is text"
instance_type: gpu   # instancetype:ignore R9, R6 -- until the pool grows
`)
	source.Scan(data, source.Options{Marker: "instancetype:ignore"}, func(d *source.Document) bool {
		for _, c := range d.Comments {
			fmt.Printf("line %d:%q, for lines %d to %d\n", c.Line, c.Text, c.From, c.To)
		}
		return true
	})
	// Output:
	// line 1:" R10", for lines 2 to 4
	// line 4:" R9, R6 -- until the pool grows", for lines 4 to 4
}
