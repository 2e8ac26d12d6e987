// Package decode turns the documents kubectl reads (package source) into instance types
// and nodes, strictly, with a finding for each problem at its field path.
//
// The values decoded are kubectl's, as package source reads them; this package only
// judges them against the Go types, as the API server's strict decoding would:
//
//   - An InstanceType, an InstanceTypeList and a v1 List (kubectl get -o yaml) are
//     recognised by their apiVersion and kind (Recognise); any other Kubernetes object is
//     skipped with the reason, and a document of the instance types' API group with
//     another kind is a finding.
//   - Every field of an instance type is decoded by one walk over each mapping, driven by
//     the table of the Go type's fields (their JSON names, inlined structs included), so
//     that a field added to a type is known at once. A key the type lacks is an unknown
//     field (rule unknown-field: unknown field "status", with the field most likely meant,
//     or the known ones), as apimachinery's strict decoding reports it.
//   - A value of the wrong type is a finding at its path (rule wrong-type), and decoding
//     goes on with the zero value, so that every problem is reported at once. A number or
//     a boolean where a string belongs (a label's value, a name) says how kubectl reads
//     what is written, and how to quote it: spot: yes is the boolean true to kubectl. The
//     value is quoted as written, from the document's text (Written).
//   - Resource amounts are strings or numbers: a number is the JSON number kubectl sends
//     (010 is 8). Where the CRD types them int-or-string (an instance type's requests and
//     limits), a number must reach the API server as an integer of 64 bits: kubectl sends
//     a whole one written 1.0 or 1e3 as 1 or 1000, which is read so; any other (1.5, 1e-3,
//     beyond 2^63-1) is a finding of rule wrong-type that refuses the value (quote it). A
//     node's allocatable takes any number, as Kubernetes' quantities do.
//   - A key set twice in any mapping is a finding (rule duplicate-key) at the second, the
//     last value in effect, as kubectl keeps it (Duplicates).
//   - Of a Node, only what the fit check needs is decoded.
//
// Findings carry their rule id in the Origin of their field.Error. A finding that refuses
// a value (Refuses) makes a validator's finding at or below its path a restatement of the
// same mistake, which a caller leaves out.
package decode
