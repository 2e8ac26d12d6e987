package manifest

import (
	"encoding/base64"
	"encoding/json"
	"hash/maphash"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
)

// decoder walks the node tree of one document, collecting findings and filling the
// document's table of positions. Every mapping is walked by walk, which alone reads it as
// kubectl reads it (duplicate keys, merge keys, keys that are not strings: see pairs),
// follows aliases and charges each node against a budget (visit), so that an alias bomb ends
// in one finding rather than an exponential walk, bounds the depth (descend), and records
// each entry's position under its path; every list is walked by items, which does the same
// for its items. The decoders of the kinds keep only their switch over field names.
//
// The path of the node being decoded is the decoder's path stack, entered and left by the
// walks; a finding builds a *field.Path from it only when it is made.
type decoder struct {
	errs     field.ErrorList
	path     pathStack
	at       *positions // the document's table
	limit    int        // the node budget at the start
	budget   int
	overflow bool       // the node budget is spent
	depth    int        // how deep the walk is, aliases followed
	tooDeep  *yaml.Node // where the walk passed MaxDepth, which ends it
	json     bool       // the document was read as JSON: numbers keep their text
	aliases  bool       // the document holds an alias
	lines    int        // the document's first line in the file, less one
	columns  int        // the columns of the file before the document's first line (see chunk)
	quiet    int        // > 0: pairs reports nothing
	// merged > 0: pairs reads a merged mapping, and reports what kubectl refuses in it (a
	// key it cannot make a string of) but not its duplicates, which are no finding there.
	merged  int
	merging bool // visiting the value of a merge key: a scalar there is refused by merge
	// unrecorded > 0: the walks record no positions (a subtree that is only checked, such
	// as a workload's environment, or read through encoding/json).
	unrecorded int

	// refusedNodes are the nodes kubectl's reading refuses (from retype); refusal is set
	// once one of them, or another problem kubectl refuses a document for, is met.
	refusedNodes map[*yaml.Node]string
	reported     map[*yaml.Node]bool
	keyReported  map[*yaml.Node]bool // keys with a finding about the key itself (see once)
	// lastRefused is the node of the last refusal reported, lastRefusal its finding: a
	// decoder of the value may restate it (str says "must be a string") rather than add
	// a second finding for one mistake.
	lastRefused *yaml.Node
	lastRefusal *field.Error
	// dropped are the nodes of the entries kubectl refuses, replaced the values later
	// keys replaced, noted while a document holds nodes kubectl refuses (see unreported).
	dropped  []*yaml.Node
	replaced []replacedValue
	refusal  bool
	refusals int // values refused so far, for a decoder to tell whether it refused one
	// collision is set when two keys of one mapping that kubectl reads as different
	// values (1 and "1") make the same JSON key, of which kubectl keeps one at random.
	collision bool

	// long is the long list of a document read in parts, whose node items reads part by
	// part, retyping each with retype; nil for a document read whole. itemBase is the
	// index in the list of the first item the list's node holds. partFailed reports a part
	// that does not read alone, and tooLong a scalar of a part over MaxScalarSize: either
	// ends the walk, and the document is read whole, or ignored.
	long       *longList
	retype     *retyper
	itemBase   int
	partFailed bool
	tooLong    *yaml.Node
	// tooMany is the line in the document of the first item past MaxItems, which ends
	// the walk; 0 before.
	tooMany int
}

// newDecoder returns a decoder of a document of the given number of nodes (as written),
// on the given line offset, with a budget of nodes.
func newDecoder(nodes, budget, lines int) *decoder {
	return &decoder{limit: budget, budget: budget, lines: lines, at: newPositions(min(nodes, MaxNodes)*5/8 + 1)}
}

// cycleNode stands for a node the walk cannot enter, an alias into itself: it reads as
// unset, without a finding of its own (the alias has one).
var cycleNode = &yaml.Node{Kind: yaml.ScalarNode, Tag: tagNull, Value: "null"}

// visit dereferences aliases and charges one node against the budget, reporting at the
// current path the problems of the node kubectl would refuse. It returns nil, ending the
// walk, once the budget is spent.
func (d *decoder) visit(n *yaml.Node) *yaml.Node {
	if d.budget <= 0 {
		d.overflow = true
		return nil
	}
	d.budget--
	for n != nil && n.Kind == yaml.AliasNode {
		if why, bad := d.refusedNodes[n]; bad {
			if !d.reported[n] {
				d.refuse(n, field.Invalid(d.path.build(), field.OmitValueType{}, why).WithOrigin(rules.KubectlRefuses))
			}
			return cycleNode
		}
		n = n.Alias
	}
	if why, bad := d.refusedNodes[n]; bad && !d.reported[n] {
		if d.merging && n.Kind == yaml.ScalarNode {
			d.markReported(n) // merge refuses the scalar merged, which is finding enough
		} else {
			d.refuse(n, field.Invalid(d.path.build(), badValue(n), why).WithOrigin(rules.KubectlRefuses))
		}
	}
	return n
}

// walk calls f with each entry in effect of the mapping n (see pairs), its key's text, key
// node and value, aliases followed, while the path stack holds the entry's path and the
// table the position of its key: a field of the path below when keyed is false, a map key
// (labels, resource names: p[key]) when it is set. An entry whose key kubectl cannot make a
// string of is reported and not given to f. The walk ends early once the node budget is
// spent or the walk is too deep.
func (d *decoder) walk(n *yaml.Node, keyed bool, f func(key string, k, v *yaml.Node)) {
	if !d.descend(n) {
		return
	}
	defer d.ascend()
	c := d.pairs(n, keyed)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i])
		d.path.entry(key, keyed)
		v := d.visit(c[i+1])
		if v == nil {
			d.path.pop()
			return
		}
		if ok {
			d.record(c[i])
			f(key, c[i], v)
		}
		d.path.pop()
	}
}

// object walks the fields of n when it is a mapping, and reports it otherwise; null is an
// empty mapping.
func (d *decoder) object(n *yaml.Node, f func(key string, k, v *yaml.Node)) {
	if d.mapping(n) {
		d.walk(n, false, f)
	}
}

// items calls f with each item of the list n, as written (an alias) and as read, while the
// path stack holds the item's path and the table the position of the item as written. The
// walk ends early once the node budget is spent or the walk is too deep.
func (d *decoder) items(n *yaml.Node, f func(i int, written, e *yaml.Node)) {
	if !d.descend(n) {
		return
	}
	defer d.ascend()
	if d.long != nil && n == d.long.seq {
		d.listItems(f)
		return
	}
	for i, w := range n.Content {
		d.path.index(i)
		e := d.visit(w)
		if e == nil {
			d.path.pop()
			return
		}
		d.record(w)
		f(i, w, e)
		d.path.pop()
	}
}

// listItems is items for the long list read in parts: the list's node holds the items of
// one part at a time, parsed as the walk comes to them and retyped before they are walked.
func (d *decoder) listItems(f func(i int, written, e *yaml.Node)) {
	seq, i := d.long.seq, 0
	d.long.parts(partsAhead(), func(items []*yaml.Node, t *retyper, ok bool) bool {
		if !ok {
			d.partFailed = true
			return false
		}
		d.retype.add(t)
		switch {
		case d.retype.tooLong != nil:
			d.tooLong = d.retype.tooLong
			return false
		case d.retype.nodes > MaxListNodes:
			d.overflow = true
			return false
		}
		d.refusedNodes, d.refusal = d.retype.refused, d.refusal || refusedWherever(d.retype.refused)
		seq.Content, d.itemBase = items, i
		defer func() { seq.Content = nil }()
		for _, w := range items {
			d.path.index(i)
			e := d.visit(w)
			if e == nil {
				d.path.pop()
				return false
			}
			d.record(w)
			f(i, w, e)
			d.path.pop()
			i++
		}
		if i == len(items) {
			// The first part tells how many positions an item records: make room for the
			// parts to come at once, rather than copying a growing table again and again.
			d.at.grow(len(d.at.entries) / len(items) * (len(d.long.cuts) - 1) * len(items))
		}
		return true
	})
}

// record records the position of n as that of the current path.
func (d *decoder) record(n *yaml.Node) {
	if d.unrecorded == 0 {
		d.at.set(d.path.text, d.pos(n), d.path.inRefused())
	}
}

// pos returns the position of n in the file.
func (d *decoder) pos(n *yaml.Node) Position {
	p := Position{Line: n.Line + d.lines, Column: n.Column}
	if n.Line == 1 {
		p.Column += d.columns
	}
	return p
}

// unreported reports the nodes kubectl refuses that the walk did not meet. Those of an
// entry kubectl refuses (its key, or a merge key's value) are not: kubectl stops there,
// and that is the finding. In a value a later key replaced, kubectl's YAML reader refuses
// a tag that does not fit, or an alias into itself, all the same: those are reported at
// the replaced entry's path; but a number with no JSON form is not read past the reader,
// which dropped it. Anything else the walk did not reach (in a value of the wrong type,
// say) is reported at the path where it is written, found from root, the document's node.
func (d *decoder) unreported(root *yaml.Node) {
	var seen, read map[*yaml.Node]bool // the collections markBelow and unreadable have met
	for _, n := range d.dropped {
		seen = d.markBelow(n, seen, nil)
	}
	for _, r := range d.replaced {
		seen = d.markBelow(r.value, seen, func(n *yaml.Node, why string) {
			if unsendable(why) {
				d.markReported(n)
				return
			}
			d.refuseElsewhere(n, field.Invalid(r.path, badValue(n), why+" (in a value a later key replaces, which kubectl reads all the same)").WithOrigin(rules.KubectlRefuses))
		})
		if r.value.Kind == yaml.MappingNode || r.value.Kind == yaml.SequenceNode {
			read = d.unreadable(r.value, read, func(n *yaml.Node, why string) {
				if d.once(n) {
					d.refuseElsewhere(n, field.Invalid(r.path, field.OmitValueType{}, why+" (in a value a later key replaces, which kubectl reads all the same)").WithOrigin(rules.KubectlRefuses))
				}
			})
		}
	}
	var paths map[*yaml.Node]*field.Path
	for n, why := range d.refusedNodes {
		if d.reported[n] {
			continue
		}
		if paths == nil {
			paths = d.writtenPaths(root)
		}
		if p := paths[n]; p != nil {
			d.refuseElsewhere(n, field.Invalid(p, badValue(n), why).WithOrigin(rules.KubectlRefuses))
			continue
		}
		e := &field.Error{Type: field.ErrorTypeInvalid, BadValue: field.OmitValueType{}, Detail: why, Origin: rules.KubectlRefuses}
		d.refusal = true
		d.addTyped(n, e, SyntaxError)
	}
}

// refusedWherever reports whether kubectl refuses a document holding the refused nodes
// whatever becomes of them: any but a number with no JSON form, which its reader refuses
// only in a value it sends (not in one a later key replaced), and which therefore makes
// the document refused only when the walk meets it (refuse) or unreported reports it.
func refusedWherever(refused map[*yaml.Node]string) bool {
	for _, why := range refused {
		if !unsendable(why) {
			return true
		}
	}
	return false
}

// unsendable reports the refusal of a number with no JSON form (an infinity, NaN): kubectl's
// YAML reader reads it, and only the conversion to JSON of the value read refuses it.
func unsendable(why string) bool { return strings.HasPrefix(why, notFinite) }

// unreadable calls f with each node in the tree of n (aliases not followed, collections in
// seen skipped) that kubectl's YAML reader refuses as it reads, and returns seen with the
// collections of n's tree: a key that is a collection, and a merge key whose value is not
// a mapping or a list of mappings. The walk finds them in the values in effect (pairs,
// merge); kubectl's reader refuses them in a value a later key replaces too.
func (d *decoder) unreadable(n *yaml.Node, seen map[*yaml.Node]bool, f func(n *yaml.Node, why string)) map[*yaml.Node]bool {
	if seen == nil {
		seen = make(map[*yaml.Node]bool)
	}
	isMap := func(n *yaml.Node) bool { return deref(n).Kind == yaml.MappingNode }
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n, stack = stack[len(stack)-1], stack[:len(stack)-1]
		if len(n.Content) == 0 || seen[n] {
			continue
		}
		seen[n] = true
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if key := deref(k); key.Kind == yaml.MappingNode || key.Kind == yaml.SequenceNode {
					f(key, "mapping keys must be strings, not "+kindName(key)+" (kubectl refuses such a key)")
					continue
				}
				if k.Kind == yaml.AliasNode || k.Tag != tagMerge {
					continue
				}
				ok := isMap(v)
				if v.Kind == yaml.SequenceNode {
					ok = true
					for _, e := range v.Content {
						ok = ok && isMap(e)
					}
				}
				if !ok {
					f(v, "a merge key (<<) must refer to a mapping, or be a list of mappings (kubectl refuses anything else)")
				}
			}
		}
		stack = append(stack, n.Content...)
	}
	return seen
}

// refuseElsewhere reports at n a problem for which kubectl refuses the whole document,
// found after the walk: unlike refuse, it marks no path refused (a replaced value's path
// holds the value in effect).
func (d *decoder) refuseElsewhere(n *yaml.Node, e *field.Error) {
	d.markReported(n)
	d.refusal = true
	d.addAt(n, e)
}

// writtenPaths returns the path of each node kubectl refuses and the walk did not report
// in the tree of root as written (an anchored node at its anchor, mapping keys read as
// fields; a key at its mapping's path), or none for one at the document itself, or in a
// part of a long list, which root no longer holds.
func (d *decoder) writtenPaths(root *yaml.Node) map[*yaml.Node]*field.Path {
	paths := make(map[*yaml.Node]*field.Path)
	if root == nil {
		return paths
	}
	type at struct {
		n *yaml.Node
		p *field.Path
	}
	child := func(p *field.Path, name string) *field.Path {
		if p == nil {
			return field.NewPath(name)
		}
		return p.Child(name)
	}
	index := func(p *field.Path, i int) *field.Path {
		if p == nil {
			return field.NewPath("").Index(i)
		}
		return p.Index(i)
	}
	stack := []at{{root, nil}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, bad := d.refusedNodes[x.n]; bad && !d.reported[x.n] && x.p != nil {
			paths[x.n] = x.p
		}
		c := x.n.Content
		switch x.n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(c); i += 2 {
				vp := x.p
				if c[i].Kind == yaml.ScalarNode {
					vp = child(x.p, c[i].Value)
				}
				stack = append(stack, at{c[i], x.p}, at{c[i+1], vp})
			}
		case yaml.SequenceNode:
			for i, e := range c {
				stack = append(stack, at{e, index(x.p, i)})
			}
		case yaml.DocumentNode:
			for _, e := range c {
				stack = append(stack, at{e, x.p})
			}
		}
	}
	return paths
}

// refuse reports at node n a problem for which kubectl refuses the whole document, once
// per node, and records that the value at the current path was refused.
func (d *decoder) refuse(n *yaml.Node, e *field.Error) {
	d.markReported(n)
	d.refusal = true
	d.refused()
	d.addAt(n, e)
	d.lastRefused, d.lastRefusal = n, e
}

// markReported marks n as reported, so that neither the walk nor unreported reports it.
func (d *decoder) markReported(n *yaml.Node) {
	if d.reported == nil {
		d.reported = make(map[*yaml.Node]bool)
	}
	d.reported[n] = true
}

// descend enters the collection n, or ends the walk if that passes MaxDepth. Every
// recursive walk goes through it, so a cycle of aliases cannot overflow the stack. A
// successful descend is paired with ascend.
func (d *decoder) descend(n *yaml.Node) bool {
	if d.depth >= MaxDepth {
		if d.tooDeep == nil {
			d.tooDeep = n
		}
		d.budget = 0
		return false
	}
	d.depth++
	return true
}

func (d *decoder) ascend() { d.depth-- }

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// add adds a finding placed at its path. One about the document itself (its own keys) is
// at the empty path, where a nil *field.Path would print "<nil>".
func (d *decoder) add(e *field.Error) {
	if e.Field == "<nil>" {
		e.Field = ""
	}
	d.at.addOwn(e, Position{}, "")
	d.errs = append(d.errs, e)
}

// addAt adds a finding placed at node n rather than at its path.
func (d *decoder) addAt(n *yaml.Node, e *field.Error) { d.addTyped(n, e, "") }

// addTyped adds a finding placed at node n, of type t when it is not about a field's value.
func (d *decoder) addTyped(n *yaml.Node, e *field.Error, t FindingType) {
	if e.Field == "<nil>" {
		e.Field = ""
	}
	d.at.addOwn(e, d.pos(n), t)
	d.errs = append(d.errs, e)
}

// since returns the findings added since there were from.
func (d *decoder) since(from int) field.ErrorList { return d.errs[from:len(d.errs):len(d.errs)] }

// refused records that the value at the current path was refused.
func (d *decoder) refused() {
	d.refusals++
	d.path.refuse()
	d.at.refuse(d.path.text)
}

// isNull reports a node that means "no value": null, ~, or nothing at all.
func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == tagNull)
}

// kindName names the kind of a node for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case tagInt, tagFloat:
		return "a number"
	case tagBool:
		return "a boolean"
	case tagNull:
		return "null"
	}
	return "a string"
}

// badValue is what a finding shows of a node: a scalar's text, clipped, nothing of a
// collection.
func badValue(n *yaml.Node) any {
	if n.Kind == yaml.ScalarNode {
		return clip.String(n.Value)
	}
	return field.OmitValueType{}
}

// wrongType reports a node of the wrong kind at the current path, whose value is then
// refused.
func (d *decoder) wrongType(n *yaml.Node, want string) {
	d.refused()
	d.add(field.TypeInvalid(d.path.build(), badValue(n), "must be "+want+", not "+kindName(n)).WithOrigin(rules.WrongType))
}

// mapping checks that n is a mapping, reporting it otherwise. null is an empty mapping.
func (d *decoder) mapping(n *yaml.Node) bool {
	if n.Kind == yaml.MappingNode {
		return true
	}
	if !isNull(n) {
		d.wrongType(n, "a mapping")
	}
	return false
}

// str decodes a string field. A number or boolean where a string belongs is a finding, as
// the API server's schema check would make it; quoting fixes it. null is "", or, with
// nullIsWrong, a finding too.
func (d *decoder) str(n *yaml.Node, nullIsWrong bool) string {
	if n.Kind == yaml.ScalarNode {
		switch n.Tag {
		case tagStr, tagMerge:
			return n.Value
		case tagBinary:
			return binary(n.Value)
		case tagNull:
			if !nullIsWrong || n == cycleNode {
				return ""
			}
		}
		d.refused()
		detail := "must be a string, not " + kindName(n) + d.sends(n) + "; quote it: " + clip.Quote(n.Value)
		if n.Tag == tagNull {
			detail = "must be a string, not null; write a value, or remove the key"
			if n.Value != "" && n.Value != "null" {
				detail = "must be a string, not null (kubectl sends " + n.Value + " as null); quote it, " + strconv.Quote(n.Value) + ", or remove the key"
			} else if n.Value == "null" {
				detail = "must be a string, not null; quote it, \"null\", or remove the key"
			}
		}
		if d.lastRefused == n {
			// visit has just reported that kubectl refuses the node (.inf): one finding
			// for one mistake, saying how to fix it here.
			d.lastRefusal.Type, d.lastRefusal.Detail, d.lastRefusal.Origin = field.ErrorTypeTypeInvalid, detail, rules.WrongType
			return ""
		}
		d.add(field.TypeInvalid(d.path.build(), clip.String(n.Value), detail).WithOrigin(rules.WrongType))
		return ""
	}
	d.wrongType(n, "a string")
	return ""
}

// sends says what kubectl sends for a scalar that is not a string, when that differs from
// its text: ", which kubectl sends as true".
func (d *decoder) sends(n *yaml.Node) string {
	var j string
	switch n.Tag {
	case tagBool:
		j = strconv.FormatBool(boolValue(n.Value))
	case tagNull:
		j = "null"
	case tagInt, tagFloat:
		if !finite(n.Tag, n.Value) {
			return ""
		}
		j = d.jsonText(n)
	default:
		return ""
	}
	if j == n.Value {
		return ""
	}
	return ", which kubectl sends as " + j
}

// binary is the string a !!binary scalar holds, as kubectl sends it: JSON strings are
// UTF-8, so each byte that is not is replaced by U+FFFD, as encoding/json replaces it.
func binary(s string) string {
	b, _ := base64.StdEncoding.DecodeString(s)
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		out = utf8.AppendRune(out, r) // RuneError for an invalid byte
		b = b[size:]
	}
	return string(out)
}

// boolValue is the value of a scalar retype tagged !!bool.
func boolValue(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true
	}
	return false
}

// jsonText is the JSON text kubectl sends for a number scalar.
func (d *decoder) jsonText(n *yaml.Node) string {
	if d.json {
		return n.Value
	}
	i, u, f, kind := number(n.Tag, n.Value)
	switch kind {
	case 'i':
		return strconv.FormatInt(i, 10)
	case 'u':
		return strconv.FormatUint(u, 10)
	}
	return jsonNumber(f)
}

// smallMapping is the most keys a mapping may have for pairs to look for duplicates by
// scanning rather than with a set.
const smallMapping = 16

// pairs returns the key/value pairs of the mapping n as kubectl reads it, keys and values
// alternating: a key written twice has the last value (and is a finding at the second);
// a merge key (<<) adds the pairs of the mapping it refers to, or of each mapping of the
// list it refers to, the earlier mapping of the list winning, and keys written after it
// win over what it adds, as keys written before it lose. Keys must be scalars; other
// keys, and null keys, which kubectl refuses, are findings at the current path (the
// mapping's). The values may be aliases (visit them); the keys are dereferenced. keyed
// says the keys are map keys: a duplicate is reported at p[key], where it is p.key else.
//
// For the common mapping, of string keys without duplicates or merges, pairs returns
// n.Content itself.
func (d *decoder) pairs(n *yaml.Node, keyed bool) []*yaml.Node {
	c := n.Content
	if plainMapping(c) {
		return c
	}
	var m merged
	first := make(map[string]*yaml.Node) // the first explicit key of each name
	merges, zeros := 0, 0
	for i := 0; i+1 < len(c); i += 2 {
		k := d.visit(c[i])
		if k == nil {
			break
		}
		if k.Kind != yaml.ScalarNode {
			d.refusal = true
			d.drop(k, c[i+1])
			if d.quiet == 0 && d.once(k) {
				d.addAt(k, field.TypeInvalid(d.path.build(), field.OmitValueType{}, "mapping keys must be strings, not "+kindName(k)+" (kubectl refuses such a key)").WithOrigin(rules.KubectlRefuses))
			}
			continue
		}
		// An alias to a "<<" is no merge key to kubectl's reading, only the string "<<".
		if k.Tag == tagMerge && c[i].Kind != yaml.AliasNode {
			merges++
			if merges == 2 && d.quiet == 0 && d.merged == 0 && d.once(k) {
				e := field.Duplicate(d.path.build(), "<<").WithOrigin(rules.DuplicateKey)
				e.Detail = "a merge key (<<) set twice in this mapping, first on line " + strconv.Itoa(first["<<"].Line+d.lines) +
					"; both apply, the later one winning: write one, <<: [*a, *b], where the earlier wins"
				d.addAt(k, e)
			}
			if merges == 1 {
				first["<<"] = k
			}
			d.merge(&m, c[i+1], keyed)
			continue
		}
		key, ok := d.keyString(k)
		if !ok {
			d.drop(c[i+1])
			continue
		}
		if k.Tag == tagFloat && (key == "0" || key == "-0") {
			// kubectl's reading holds float keys in a Go map, where 0.0 and -0.0 are one
			// key, printed as the last: a mapping with both is read unlike here.
			if zeros++; zeros > 1 {
				d.collision = true
			}
		}
		if prev, dup := first[key]; dup {
			if d.quiet == 0 && d.merged == 0 && d.once(k) {
				d.path.entry(key, keyed)
				e := field.Duplicate(d.path.build(), clip.String(key)).WithOrigin(rules.DuplicateKey)
				d.path.pop()
				e.Detail = "key set twice in this mapping, first on line " + strconv.Itoa(prev.Line+d.lines) + "; the last one is in effect"
				d.addAt(k, e)
			}
		} else {
			first[key] = k
		}
		d.set(&m, key, keyed, k, c[i+1])
	}
	d.collision = d.collision || m.collision
	return m.flat
}

// once reports whether the key node k has not had a finding yet, and marks it as having
// one. A mapping reached through several aliases is read once per alias, and the same
// mistake in its keys must not be reported once per alias.
func (d *decoder) once(k *yaml.Node) bool {
	if d.keyReported[k] {
		return false
	}
	if d.keyReported == nil {
		d.keyReported = make(map[*yaml.Node]bool)
	}
	d.keyReported[k] = true
	return true
}

// plainMapping reports whether the content c of a mapping has only string keys (no merge
// key, nothing kubectl would make a string of), none of them twice: the common mapping,
// which pairs returns as it is.
func plainMapping(c []*yaml.Node) bool {
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Kind != yaml.ScalarNode || c[i].Tag != tagStr {
			return false
		}
	}
	if len(c) <= 2*smallMapping {
		for i := 2; i+1 < len(c); i += 2 {
			for j := 0; j < i; j += 2 {
				if c[j].Value == c[i].Value {
					return false
				}
			}
		}
		return true
	}
	// Many keys: sort their hashes, a radix sort that passes over memory in order, and look
	// for two alike side by side, where a set of the keys would look at a random place of
	// a large table for each (a mapping of 30,000 keys: a cache miss a key). The entries of
	// the table of positions serve, line holding the key's index in c.
	hashes := make([]entry, 0, len(c)/2)
	for i := 0; i+1 < len(c); i += 2 {
		hashes = append(hashes, entry{hash: maphash.String(pathSeed, c[i].Value), line: int32(i)})
	}
	sortByHash(hashes)
	for i := 0; i < len(hashes); {
		j := i + 1
		for j < len(hashes) && hashes[j].hash == hashes[i].hash {
			j++
		}
		// Keys of one hash: alike, or (all but never) a collision of different keys.
		for a := i; a < j; a++ {
			for b := a + 1; b < j; b++ {
				if c[hashes[a].line].Value == c[hashes[b].line].Value {
					return false
				}
			}
		}
		i = j
	}
	return true
}

// merged collects the pairs of a mapping read with duplicates and merges.
type merged struct {
	flat      []*yaml.Node
	index     map[string]int // key -> index of its key node in flat
	collision bool           // two keys of different types made one key
}

// set sets key to v, and returns the value it replaces, if any.
func (m *merged) set(key string, k, v *yaml.Node) (replaced *yaml.Node) {
	if m.index == nil {
		m.index = make(map[string]int)
	}
	if i, ok := m.index[key]; ok {
		if m.flat[i].Tag != k.Tag {
			// kubectl's reading holds both keys (the integer 9 and the float 9.0, say)
			// until it makes strings of them, then keeps one at random.
			m.collision = true
		}
		replaced = m.flat[i+1]
		m.flat[i], m.flat[i+1] = k, v
		return replaced
	}
	m.index[key] = len(m.flat)
	m.flat = append(m.flat, k, v)
	return nil
}

// merge adds to m what the value v of a merge key adds.
func (d *decoder) merge(m *merged, v *yaml.Node, keyed bool) {
	alias := v.Kind == yaml.AliasNode
	// A scalar merged is refused as such (badMerge): kubectl's reader stops there, so what
	// it would refuse in the scalar itself (an infinity, a bad tag) is not a finding too.
	d.merging = true
	t := d.visit(v)
	d.merging = false
	if t == nil {
		return
	}
	if !d.descend(t) {
		return
	}
	defer d.ascend()
	switch {
	case t.Kind == yaml.MappingNode:
		d.mergeMapping(m, t, keyed)
		return
	case t.Kind == yaml.SequenceNode && !alias:
		// Applied last to first, so that the earlier mapping wins.
		ms := t.Content
		for i := len(ms) - 1; i >= 0; i-- {
			d.merging = true
			e := d.visit(ms[i])
			d.merging = false
			if e == nil {
				return
			}
			if e.Kind != yaml.MappingNode {
				d.badMerge(v)
				return
			}
			d.mergeMapping(m, e, keyed)
		}
		return
	}
	d.badMerge(v)
}

func (d *decoder) mergeMapping(m *merged, t *yaml.Node, keyed bool) {
	d.merged++
	c := d.pairs(t, false)
	d.merged--
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i])
		if ok {
			d.set(m, key, keyed, c[i], c[i+1])
		} else {
			d.drop(c[i+1])
		}
	}
}

// markBelow calls f (or marks as reported, when f is nil) with every node kubectl
// refuses in the tree of n (aliases not followed) not yet reported, skipping the
// collections in seen, and returns seen with those of n's tree.
func (d *decoder) markBelow(n *yaml.Node, seen map[*yaml.Node]bool, f func(n *yaml.Node, why string)) map[*yaml.Node]bool {
	if seen == nil {
		seen = make(map[*yaml.Node]bool)
	}
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n, stack = stack[len(stack)-1], stack[:len(stack)-1]
		if why, bad := d.refusedNodes[n]; bad && !d.reported[n] {
			if f == nil {
				d.markReported(n)
			} else {
				f(n, why)
			}
		}
		if len(n.Content) > 0 && !seen[n] {
			seen[n] = true
			stack = append(stack, n.Content...)
		}
	}
	return seen
}

// drop notes the nodes of an entry kubectl refuses (a key, or a merge key's value): what
// they hold is not reported (see unreported).
func (d *decoder) drop(n ...*yaml.Node) {
	if len(d.refusedNodes) > 0 {
		d.dropped = append(d.dropped, n...)
	}
}

// set sets key to v in m; a value it replaces is noted (see unreported).
func (d *decoder) set(m *merged, key string, keyed bool, k, v *yaml.Node) {
	old := m.set(key, k, v)
	// A replaced collection may hold what kubectl's YAML reader refuses as it reads (see
	// unreadable); a replaced scalar only what the retyper found.
	if old != nil && old != v && (len(d.refusedNodes) > 0 || old.Kind == yaml.MappingNode || old.Kind == yaml.SequenceNode) {
		d.path.entry(key, keyed)
		d.replaced = append(d.replaced, replacedValue{old, d.path.build()})
		d.path.pop()
	}
}

// replacedValue is a value a later key replaced, and the path of its entry.
type replacedValue struct {
	value *yaml.Node
	path  *field.Path
}

func (d *decoder) badMerge(v *yaml.Node) {
	d.drop(v)
	d.refusal = true
	d.refused()
	if !d.once(v) {
		return
	}
	d.addAt(v, field.Invalid(d.path.build(), field.OmitValueType{},
		"a merge key (<<) must refer to a mapping, or be a list of mappings (kubectl refuses anything else)").WithOrigin(rules.KubectlRefuses))
}

// keyOf returns the key string of a key node that pairs returned.
func (d *decoder) keyOf(k *yaml.Node) (string, bool) {
	if k.Tag == tagStr {
		return k.Value, true
	}
	d.quiet++
	defer func() { d.quiet-- }()
	return d.keyString(k)
}

// keyString returns the string kubectl makes of the scalar key k: the text of a string, the
// decimal form of an integer, a float as a float32 prints ("1.2345679e+08"), true or
// false. A null key, or an integer beyond int64, is refused: a finding at the current path.
func (d *decoder) keyString(k *yaml.Node) (string, bool) {
	switch k.Tag {
	case tagStr, tagMerge:
		return k.Value, true
	case tagBinary:
		return binary(k.Value), true
	case tagBool:
		return strconv.FormatBool(boolValue(k.Value)), true
	case tagInt, tagFloat:
		if d.json {
			return k.Value, true
		}
		i, _, f, kind := number(k.Tag, k.Value)
		switch kind {
		case 'i':
			return strconv.FormatInt(i, 10), true
		case 'f':
			// As a float32 prints, so 1e70 is +Inf, which kubectl names as YAML does.
			switch s := strconv.FormatFloat(f, 'g', -1, 32); s {
			case "+Inf":
				return ".inf", true
			case "-Inf":
				return "-.inf", true
			case "NaN":
				return ".nan", true
			default:
				return s, true
			}
		}
	}
	d.refusal = true // also for a key merged in, which kubectl's reading keeps
	if d.quiet == 0 && d.once(k) {
		what := "a null key"
		if k.Tag != tagNull {
			what = "a key beyond the range of a 64-bit integer"
		}
		d.addAt(k, field.Invalid(d.path.build(), clip.String(k.Value), what+": kubectl cannot make a JSON key of it").WithOrigin(rules.KubectlRefuses))
	}
	return "", false
}

// lookup returns the key and value nodes of key in the mapping n as pairs reads it, or
// nils. budget bounds the work. It records and reports nothing: recognition reads a few
// keys of a document before it is decoded.
func lookup(n *yaml.Node, key string, budget *int) (k, v *yaml.Node) {
	// The common mapping, of string keys without merges: a scan, as pairs would return
	// its content (the last of equal keys in effect).
	plain := true
	c := n.Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Kind != yaml.ScalarNode || c[i].Tag != tagStr {
			plain = false
			break
		}
		if c[i].Value == key {
			k, v = c[i], c[i+1]
		}
	}
	if plain {
		*budget -= len(c) / 2
		return k, deref(v)
	}
	d := &decoder{limit: *budget, budget: *budget, quiet: 1, at: newPositions(0)}
	c = d.pairs(n, false)
	for i := 0; i+1 < len(c); i += 2 {
		if s, ok := d.keyOf(c[i]); ok && s == key {
			*budget = d.budget
			return c[i], deref(c[i+1])
		}
	}
	*budget = d.budget
	return nil, nil
}

// checkTree walks a subtree this package does not decode, to report duplicate keys and
// what kubectl would refuse. It records no positions.
func (d *decoder) checkTree(n *yaml.Node) {
	d.unrecorded++
	d.check(n)
	d.unrecorded--
}

func (d *decoder) check(n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		d.walk(n, false, func(_ string, _, v *yaml.Node) { d.check(v) })
	case yaml.SequenceNode:
		d.items(n, func(_ int, _, e *yaml.Node) { d.check(e) })
	}
}

// value returns the JSON value kubectl reads for n: a map[string]any, a []any, a string, a
// json.Number, a bool or nil. Problems are reported as everywhere else; no positions are
// recorded.
func (d *decoder) value(n *yaml.Node) any {
	d.unrecorded++
	defer func() { d.unrecorded-- }()
	return d.jsonValue(n)
}

func (d *decoder) jsonValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		d.walk(n, false, func(key string, _, v *yaml.Node) { m[key] = d.jsonValue(v) })
		return m
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		d.items(n, func(_ int, _, e *yaml.Node) { l = append(l, d.jsonValue(e)) })
		return l
	}
	switch n.Tag {
	case tagNull:
		return nil
	case tagBool:
		return boolValue(n.Value)
	case tagInt, tagFloat:
		if !finite(n.Tag, n.Value) {
			return nil // refused: see newDecoder's caller
		}
		return json.Number(d.jsonText(n))
	case tagBinary:
		return binary(n.Value)
	}
	return n.Value
}

// resourceList decodes requests or limits: resource names to amounts. Names are kept as
// written; package validate judges them.
func (d *decoder) resourceList(n *yaml.Node) instancetype.ResourceList {
	if !d.mapping(n) {
		return nil
	}
	l := make(instancetype.ResourceList, len(n.Content)/2)
	d.walk(n, true, func(key string, _, v *yaml.Node) {
		l[instancetype.ResourceName(key)] = d.amount(v)
	})
	return l
}

// amount decodes one resource value. Strings are kept as written. Numbers are accepted as
// Kubernetes accepts them: as the JSON number kubectl sends.
func (d *decoder) amount(n *yaml.Node) instancetype.Amount {
	if n.Kind != yaml.ScalarNode {
		d.wrongType(n, "a quantity such as \"500m\" or \"2Gi\"")
		return instancetype.Amount{}
	}
	switch n.Tag {
	case tagNull:
		return instancetype.Amount{}
	case tagStr, tagMerge:
		return instancetype.AmountFromString(n.Value)
	case tagBinary:
		return instancetype.AmountFromString(binary(n.Value))
	case tagInt, tagFloat:
		if !finite(n.Tag, n.Value) {
			d.refused() // visit reported it
			return instancetype.Amount{}
		}
		return instancetype.ParseAmount(d.jsonText(n))
	}
	d.wrongType(n, "a quantity such as \"500m\" or \"2Gi\"")
	return instancetype.Amount{}
}
