// Package source reads files as kubectl reads them, with kubectl's own code, and answers
// where each value stands in the file.
//
// # Values: kubectl's, by construction
//
// Scan hands over each non-empty document of a file with the value kubectl sends for it
// (Document.Value), from the same code kubectl runs:
//
//   - The bytes are decoded by the decoder kubectl's file reader uses (golang.org/x/text's
//     BOMOverride over UTF-8): UTF-16 behind its byte order mark is converted, a UTF-8
//     mark dropped, invalid UTF-8 made U+FFFD. UTF-32, and UTF-16 without a mark, which
//     kubectl reads as UTF-8 and refuses for their NUL bytes, are one Problem that names
//     the encoding.
//   - A stream whose first non-blank character within its first 4,096 bytes is "{" is read
//     by apimachinery's YAMLOrJSONDecoder itself: JSON values, and YAML from where a value
//     that is not JSON comes first or second. Any other stream is cut by apimachinery's
//     YAML reader as kubectl's YAMLToJSONDecoder cuts it: at each line that starts with
//     "---", over a 4,096-byte line reader that loses a last line without a line break
//     whose length is a multiple of 4,096 (File.LostLine; Reader Plain, for the files of
//     programs other than kubectl, loses nothing). A line that starts with "---" followed
//     by anything but a comment is a Problem, and what came before it in its document is
//     lost, as kubectl loses it.
//   - Each YAML document's value is what sigs.k8s.io/yaml.YAMLToJSON makes of it (YAML
//     1.1: yes and on are true, 010 is 8, merge keys apply); a JSON document's is the value
//     as written. Both are decoded by encoding/json, numbers kept as written. Nothing here
//     types a YAML scalar.
//   - What kubectl refuses is the document's Problem (a syntax error, an alias to an
//     unknown anchor, a value JSON cannot carry such as .inf, a JSON number its decoder
//     cannot convert to a float), at the line the reader names, or where yaml.v3 finds
//     the problem. Unlike kubectl, which stops at the first,
//     Scan goes on with the next document, so that every problem is reported at once.
//   - A key set twice: the value is kubectl's (the last), and HasDuplicates reports it
//     (the strict conversion refuses it); Duplicates says where.
//
// A test holds all of this to kubectl's own reading: Scan's values equal what
// cli-runtime's StreamVisitor decodes, with apimachinery's YAMLOrJSONDecoder, for a corpus
// of YAML 1.1's corners, for streams drawn from a grammar (rapid), and under a fuzz target.
//
// # Long lists
//
// A list of many items (kubectl get nodes -o yaml of a large cluster: 51 MB for 3,000
// nodes) is read item by item (Document.Long, Document.Items), so that memory holds one
// run of items' values at a time, not the parse of the whole document. The text is cut at
// lines into a header, runs of items and a trailer, each converted by sigs.k8s.io/yaml
// alone; a part that does not read alone as what it is (a quoted scalar or a flow
// collection across items, an alias to another part's anchor) makes the document read
// whole. long.go says why each part's values are the whole's; a property test holds them
// equal. A JSON list is read item by item by encoding/json's decoder.
//
// # Positions and comments, on demand
//
// Where a value stands is a second question, asked only of a document with something to
// report: its text is parsed by go.yaml.in/yaml/v3 on the first question (PositionOf,
// Scalar, Duplicates), and a field path in apimachinery's notation is looked up in that
// tree. Where yaml.v3 reads a document otherwise than kubectl, or cannot parse it, the
// answer falls back to the nearest node found, or to the document's first line; a value
// never comes from yaml.v3. Marked comments (Options.Marker, such as
// "# instancetype:ignore R9") are read only from documents that hold the marker, with
// yaml.v3 telling a "#" in a string from a comment.
//
// # Limits
//
// A file may hold MaxFileSize bytes; a document converted whole MaxDocument bytes and
// about MaxNodes YAML nodes (counted before it is parsed), and the YAML reader's own
// limits on nesting and aliases apply; a list hands over MaxItems items. Past them, a
// Problem of kind Limit (Document.ItemsProblem for the items): never a panic, a hang or
// unbounded memory. A problem's message repeats little of the file.
package source
