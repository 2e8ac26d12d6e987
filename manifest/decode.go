package manifest

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
)

// decoder walks the node tree of one document, collecting findings. Every walk goes
// through visit, which follows aliases and counts nodes against a budget, so that an
// alias bomb ends in one finding rather than an exponential walk; and every mapping is
// read through pairs, which applies duplicate keys and merge keys as kubectl's reading
// does.
type decoder struct {
	errs     field.ErrorList
	limit    int // the node budget at the start
	budget   int
	overflow bool       // the node budget is spent
	depth    int        // how deep the walk is, aliases followed
	tooDeep  *yaml.Node // where the walk passed MaxDepth, which ends it
	json     bool       // the document was read as JSON: numbers keep their text
	lines    int        // the document's first line in the file, less one
	quiet    int        // > 0: pairs reports nothing (it reads a merged mapping)

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
	refusal     bool
	// collision is set when two keys of one mapping that kubectl reads as different
	// values (1 and "1") make the same JSON key, of which kubectl keeps one at random.
	collision bool

	pinned  map[*field.Error]Position // findings a path cannot place, such as the second of two equal keys
	typed   map[*field.Error]FindingType
	refused map[string]bool     // paths whose value was refused
	kept    map[string]Position // recorded positions; nil when not recording
	keepAll bool                // record every field decoded, not only names
	// itemDone, when set, is called after each item j of a list's items, seq, is decoded;
	// root is the document's root, whose items it may release.
	itemDone func(seq *yaml.Node, j int)
	root     *yaml.Node
	pinnedTo int // the errors before it are pinned
}

// pinErrors pins the position of each error not pinned yet, while the tree holds it, when
// list items are to be released (itemDone is set).
func (d *decoder) pinErrors() {
	if d.itemDone == nil {
		return
	}
	doc := Document{root: d.root, lines: d.lines}
	for _, e := range d.errs[d.pinnedTo:] {
		if _, ok := d.pinned[e]; !ok {
			if d.pinned == nil {
				d.pinned = make(map[*field.Error]Position)
			}
			d.pinned[e] = doc.Position(e.Field)
		}
	}
	d.pinnedTo = len(d.errs)
}

// recordNames has the decoder record the positions of metadata.name; keepAll, of every
// field it decodes.
func (d *decoder) recordNames() { d.kept = make(map[string]Position) }

func newDecoder(budget int) *decoder { return &decoder{limit: budget, budget: budget} }

// cycleNode stands for a node the walk cannot enter, an alias into itself: it reads as
// unset, without a finding of its own (the alias has one).
var cycleNode = &yaml.Node{Kind: yaml.ScalarNode, Tag: tagNull, Value: "null"}

// visit dereferences aliases and charges one node against the budget, reporting at p the
// problems of the node kubectl would refuse. It returns nil, ending the walk, once the
// budget is spent.
func (d *decoder) visit(n *yaml.Node, p *path) *yaml.Node { return d.visitKey(n, p) }

// visitKey is visit for a mapping key.
func (d *decoder) visitKey(n *yaml.Node, p *path) *yaml.Node {
	if d.budget <= 0 {
		d.overflow = true
		return nil
	}
	d.budget--
	for n != nil && n.Kind == yaml.AliasNode {
		if why, bad := d.refusedNodes[n]; bad {
			if !d.reported[n] {
				d.refuse(n, p, field.Invalid(p.build(), field.OmitValueType{}, why))
			}
			return cycleNode
		}
		n = n.Alias
	}
	if why, bad := d.refusedNodes[n]; bad && !d.reported[n] {
		d.refuse(n, p, field.Invalid(p.build(), badValue(n), why))
	}
	return n
}

// unreported adds a finding for each node kubectl refuses that the walk did not meet (a
// value a later duplicate key replaced: kubectl reads it all the same).
func (d *decoder) unreported() {
	for n, why := range d.refusedNodes {
		if !d.reported[n] {
			e := &field.Error{Type: field.ErrorTypeInvalid, BadValue: field.OmitValueType{}, Detail: why}
			d.addTyped(e, SyntaxError)
			d.addAt(n, e)
		}
	}
}

// refuse reports a problem for which kubectl refuses the whole document, once per node.
func (d *decoder) refuse(n *yaml.Node, p *path, e *field.Error) {
	if d.reported == nil {
		d.reported = make(map[*yaml.Node]bool)
	}
	d.reported[n] = true
	d.refusal = true
	d.refusePath(p)
	d.addAt(n, e)
	d.lastRefused, d.lastRefusal = n, e
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

// add adds a finding. One about the document itself (its own keys) is at the empty path,
// where a nil *field.Path would print "<nil>".
func (d *decoder) add(e *field.Error) {
	if e.Field == "<nil>" {
		e.Field = ""
	}
	d.errs = append(d.errs, e)
}

// addAt adds a finding placed at node n rather than at its path.
func (d *decoder) addAt(n *yaml.Node, e *field.Error) {
	if d.pinned == nil {
		d.pinned = make(map[*field.Error]Position)
	}
	d.pinned[e] = Position{Line: n.Line + d.lines, Column: n.Column}
	d.add(e)
}

// addTyped adds a finding that is not about a field's value.
func (d *decoder) addTyped(e *field.Error, t FindingType) {
	if d.typed == nil {
		d.typed = make(map[*field.Error]FindingType)
	}
	d.typed[e] = t
	d.add(e)
}

// refusePath records that the value at p was refused.
func (d *decoder) refusePath(p *path) {
	if d.refused == nil {
		d.refused = make(map[string]bool)
	}
	d.refused[p.String()] = true
}

// keep records the position of n as that of p, when recording every field.
func (d *decoder) keep(p *path, n *yaml.Node) {
	if d.keepAll {
		d.keepName(p, n)
	}
}

// keepName records the position of n as that of p, when recording (the tree is to be
// released).
func (d *decoder) keepName(p *path, n *yaml.Node) {
	if d.kept != nil && n != nil {
		d.kept[p.String()] = Position{Line: n.Line + d.lines, Column: n.Column}
	}
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

// wrongType reports a node of the wrong kind, whose value is then refused.
func (d *decoder) wrongType(n *yaml.Node, p *path, want string) {
	d.refusePath(p)
	d.add(field.TypeInvalid(p.build(), badValue(n), "must be "+want+", not "+kindName(n)))
}

// mapping checks that n is a mapping, reporting it otherwise. null is an empty mapping.
func (d *decoder) mapping(n *yaml.Node, p *path) bool {
	if n.Kind == yaml.MappingNode {
		return true
	}
	if !isNull(n) {
		d.wrongType(n, p, "a mapping")
	}
	return false
}

// str decodes a string field. A number or boolean where a string belongs is a finding, as
// the API server's schema check would make it; quoting fixes it. null is "", or, with
// nullIsWrong, a finding too.
func (d *decoder) str(n *yaml.Node, p *path, nullIsWrong bool) string {
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
		d.refusePath(p)
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
			d.lastRefusal.Type, d.lastRefusal.Detail = field.ErrorTypeTypeInvalid, detail
			return ""
		}
		d.add(field.TypeInvalid(p.build(), clip.String(n.Value), detail))
		return ""
	}
	d.wrongType(n, p, "a string")
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
// keys, and null keys, which kubectl refuses, are findings at p. The values may be
// aliases (visit them); the keys are dereferenced.
//
// For the common mapping, of string keys without duplicates or merges, pairs returns
// n.Content itself.
func (d *decoder) pairs(n *yaml.Node, p *path) []*yaml.Node { return d.mappingPairs(n, p, false) }

// keyed is pairs for a mapping whose keys are map keys, such as labels or resource names:
// a duplicate is reported at p[key], where pairs reports it at p.key.
func (d *decoder) keyed(n *yaml.Node, p *path) []*yaml.Node { return d.mappingPairs(n, p, true) }

func (d *decoder) mappingPairs(n *yaml.Node, p *path, keys bool) []*yaml.Node {
	c := n.Content
	if len(c) <= 2*smallMapping {
		plain := true
	scan:
		for i := 0; i+1 < len(c); i += 2 {
			if c[i].Kind != yaml.ScalarNode || c[i].Tag != tagStr {
				plain = false
				break
			}
			for j := 0; j < i; j += 2 {
				if c[j].Value == c[i].Value {
					plain = false
					break scan
				}
			}
		}
		if plain {
			return c
		}
	}
	var m merged
	first := make(map[string]*yaml.Node) // the first explicit key of each name
	merges, zeros := 0, 0
	for i := 0; i+1 < len(c); i += 2 {
		k := d.visitKey(c[i], p)
		if k == nil {
			break
		}
		if k.Kind != yaml.ScalarNode {
			d.refusal = true
			if d.quiet == 0 && d.once(k) {
				e := field.TypeInvalid(p.build(), field.OmitValueType{}, "mapping keys must be strings, not "+kindName(k)+" (kubectl refuses such a key)")
				d.addAt(k, e)
			}
			continue
		}
		if k.Tag == tagMerge {
			merges++
			if merges == 2 && d.quiet == 0 && d.once(k) {
				e := field.Duplicate(p.build(), "<<")
				e.Detail = "a merge key (<<) set twice in this mapping, first on line " + strconv.Itoa(first["<<"].Line+d.lines) +
					"; both apply, the later one winning: write one, <<: [*a, *b], where the earlier wins"
				d.addAt(k, e)
			}
			if merges == 1 {
				first["<<"] = k
			}
			d.merge(&m, c[i+1], p)
			continue
		}
		key, ok := d.keyString(k, p)
		if !ok {
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
			if d.quiet == 0 && d.once(k) {
				e := field.Duplicate(p.entryPath(key, keys), clip.String(key))
				e.Detail = "key set twice in this mapping, first on line " + strconv.Itoa(prev.Line+d.lines) + "; the last one is in effect"
				d.addAt(k, e)
			}
		} else {
			first[key] = k
		}
		m.set(key, k, c[i+1])
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

// entryPath is the path of the entry key below p: p[key] for a map key, p.key for a field.
func (p *path) entryPath(key string, isKey bool) *field.Path {
	if isKey {
		return p.build().Key(key)
	}
	return p.build().Child(key)
}

// merged collects the pairs of a mapping read with duplicates and merges.
type merged struct {
	flat      []*yaml.Node
	index     map[string]int // key -> index of its key node in flat
	collision bool           // two keys of different types made one key
}

func (m *merged) set(key string, k, v *yaml.Node) {
	if m.index == nil {
		m.index = make(map[string]int)
	}
	if i, ok := m.index[key]; ok {
		if m.flat[i].Tag != k.Tag {
			// kubectl's reading holds both keys (the integer 9 and the float 9.0, say)
			// until it makes strings of them, then keeps one at random.
			m.collision = true
		}
		m.flat[i], m.flat[i+1] = k, v
		return
	}
	m.index[key] = len(m.flat)
	m.flat = append(m.flat, k, v)
}

// merge adds to m what the value v of a merge key adds.
func (d *decoder) merge(m *merged, v *yaml.Node, p *path) {
	alias := v.Kind == yaml.AliasNode
	t := d.visit(v, p)
	if t == nil {
		return
	}
	if !d.descend(t) {
		return
	}
	defer d.ascend()
	switch {
	case t.Kind == yaml.MappingNode:
		d.mergeMapping(m, t, p)
		return
	case t.Kind == yaml.SequenceNode && !alias:
		// Applied last to first, so that the earlier mapping wins.
		ms := t.Content
		for i := len(ms) - 1; i >= 0; i-- {
			e := d.visit(ms[i], p)
			if e == nil {
				return
			}
			if e.Kind != yaml.MappingNode {
				d.badMerge(v, p)
				return
			}
			d.mergeMapping(m, e, p)
		}
		return
	}
	d.badMerge(v, p)
}

func (d *decoder) mergeMapping(m *merged, t *yaml.Node, p *path) {
	d.quiet++
	c := d.pairs(t, p)
	d.quiet--
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		if ok {
			m.set(key, c[i], c[i+1])
		}
	}
}

func (d *decoder) badMerge(v *yaml.Node, p *path) {
	d.refusal = true
	d.refusePath(p)
	if !d.once(v) {
		return
	}
	d.addAt(v, field.Invalid(p.build(), field.OmitValueType{},
		"a merge key (<<) must refer to a mapping, or be a list of mappings (kubectl refuses anything else)"))
}

// keyOf returns the key string of a key node that pairs returned.
func (d *decoder) keyOf(k *yaml.Node, p *path) (string, bool) {
	if k.Tag == tagStr {
		return k.Value, true
	}
	d.quiet++
	defer func() { d.quiet-- }()
	return d.keyString(k, p)
}

// keyString returns the string kubectl makes of the scalar key k: the text of a string, the
// decimal form of an integer, a float as a float32 prints ("1.2345679e+08"), true or
// false. A null key, or an integer beyond int64, is refused: a finding at p.
func (d *decoder) keyString(k *yaml.Node, p *path) (string, bool) {
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
		d.addAt(k, field.Invalid(p.build(), clip.String(k.Value), what+": kubectl cannot make a JSON key of it"))
	}
	return "", false
}

// lookup returns the key and value nodes of key in the mapping n as pairs reads it, or
// nils. budget bounds the work.
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
	k, v = nil, nil
	d := newDecoder(*budget)
	d.quiet = 1
	c = d.pairs(n, nil)
	for i := 0; i+1 < len(c); i += 2 {
		if s, ok := d.keyOf(c[i], nil); ok && s == key {
			*budget = d.budget
			return c[i], deref(c[i+1])
		}
	}
	*budget = d.budget
	return nil, nil
}

// checkTree walks a subtree this package does not decode, to report duplicate keys and
// what kubectl would refuse.
func (d *decoder) checkTree(n *yaml.Node, p *path) {
	switch n.Kind {
	case yaml.MappingNode:
		if !d.descend(n) {
			return
		}
		defer d.ascend()
		c := d.pairs(n, p)
		for i := 0; i+1 < len(c); i += 2 {
			key, _ := d.keyOf(c[i], p)
			fp := p.child(key)
			v := d.visit(c[i+1], &fp)
			if v == nil {
				return
			}
			d.checkTree(v, &fp)
		}
	case yaml.SequenceNode:
		if !d.descend(n) {
			return
		}
		defer d.ascend()
		for i, e := range n.Content {
			ip := p.index(i)
			if e = d.visit(e, &ip); e == nil {
				return
			}
			d.checkTree(e, &ip)
		}
	}
}

// value returns the JSON value kubectl reads for n: a map[string]any, a []any, a string, a
// json.Number, a bool or nil. Problems are reported as everywhere else.
func (d *decoder) value(n *yaml.Node, p *path) any {
	switch n.Kind {
	case yaml.MappingNode:
		if !d.descend(n) {
			return nil
		}
		defer d.ascend()
		c := d.pairs(n, p)
		m := make(map[string]any, len(c)/2)
		for i := 0; i+1 < len(c); i += 2 {
			key, ok := d.keyOf(c[i], p)
			fp := p.child(key)
			v := d.visit(c[i+1], &fp)
			if v == nil {
				return m
			}
			if ok {
				m[key] = d.value(v, &fp)
			}
		}
		return m
	case yaml.SequenceNode:
		if !d.descend(n) {
			return nil
		}
		defer d.ascend()
		l := make([]any, 0, len(n.Content))
		for i, e := range n.Content {
			ip := p.index(i)
			if e = d.visit(e, &ip); e == nil {
				return l
			}
			l = append(l, d.value(e, &ip))
		}
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
func (d *decoder) resourceList(n *yaml.Node, p *path) instancetype.ResourceList {
	if !d.mapping(n, p) {
		return nil
	}
	if !d.descend(n) {
		return nil
	}
	defer d.ascend()
	c := d.keyed(n, p)
	l := make(instancetype.ResourceList, len(c)/2)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		kp := p.key(key)
		v := d.visit(c[i+1], &kp)
		if v == nil {
			return l
		}
		if ok {
			d.keep(&kp, c[i])
			l[instancetype.ResourceName(key)] = d.amount(v, &kp)
		}
	}
	return l
}

// amount decodes one resource value. Strings are kept as written. Numbers are accepted as
// Kubernetes accepts them: as the JSON number kubectl sends.
func (d *decoder) amount(n *yaml.Node, p *path) instancetype.Amount {
	if n.Kind != yaml.ScalarNode {
		d.wrongType(n, p, "a quantity such as \"500m\" or \"2Gi\"")
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
			d.refusePath(p) // visit reported it
			return instancetype.Amount{}
		}
		return instancetype.ParseAmount(d.jsonText(n))
	}
	d.wrongType(n, p, "a quantity such as \"500m\" or \"2Gi\"")
	return instancetype.Amount{}
}
