package manifest

import (
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// YAML tags of the scalars the decoder tells apart.
const (
	tagNull  = "!!null"
	tagStr   = "!!str"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagBool  = "!!bool"
	tagMerge = "!!merge"
)

// decoder walks the node tree of one document, collecting findings. Every walk goes
// through visit, which follows aliases and counts nodes against a budget, so that an
// alias bomb ends in one finding rather than an exponential walk.
type decoder struct {
	errs     field.ErrorList
	limit    int // the node budget at the start
	budget   int
	overflow bool       // the node budget is spent
	tooLong  *yaml.Node // a scalar longer than MaxScalarSize, which ends the walk
	depth    int        // how deep the walk is, aliases followed
	tooDeep  *yaml.Node // where the walk passed MaxDepth, which ends it
	// pinned holds the positions of findings that a path cannot place, such as the second
	// of two equal keys.
	pinned map[*field.Error]Position
}

func newDecoder(budget int) *decoder { return &decoder{limit: budget, budget: budget} }

// visit dereferences aliases and charges one node against the budget. It returns nil,
// ending the walk, once the budget is spent or at a scalar longer than MaxScalarSize.
func (d *decoder) visit(n *yaml.Node) *yaml.Node {
	if d.budget <= 0 {
		d.overflow = true
		return nil
	}
	d.budget--
	n = deref(n)
	if n != nil && len(n.Value) > MaxScalarSize {
		d.tooLong, d.budget = n, 0
		return nil
	}
	return n
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

func (d *decoder) add(e *field.Error) { d.errs = append(d.errs, e) }

// addAt adds a finding placed at node n rather than at its path.
func (d *decoder) addAt(n *yaml.Node, e *field.Error) {
	if d.pinned == nil {
		d.pinned = make(map[*field.Error]Position)
	}
	d.pinned[e] = nodePos(n)
	d.add(e)
}

// isNull reports a node that means "no value": null, ~, or nothing at all.
func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == tagNull)
}

// kindName names the kind of a node for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch tag := n.ShortTag(); tag {
	case tagInt, tagFloat:
		return "a number"
	case tagBool:
		return "a boolean"
	case tagNull:
		return "null"
	case tagStr:
		return "a string"
	default:
		return "a value tagged " + tag
	}
}

// isString reports a string scalar.
func isString(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == tagStr }

// badValue is what a finding shows of a node: a scalar's text, nothing of a collection.
func badValue(n *yaml.Node) any {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return field.OmitValueType{}
}

// wrongType reports a node of the wrong kind.
func (d *decoder) wrongType(n *yaml.Node, p *field.Path, want string) {
	d.add(field.TypeInvalid(p, badValue(n), "must be "+want+", not "+kindName(n)))
}

// mapping checks that n is a mapping, reporting it otherwise. null is an empty mapping.
func (d *decoder) mapping(n *yaml.Node, p *field.Path) bool {
	if n.Kind == yaml.MappingNode {
		return true
	}
	if !isNull(n) {
		d.wrongType(n, p, "a mapping")
	}
	return false
}

// str decodes a string field. A number or boolean where a string belongs is a finding, as
// the API server's schema check would make it; quoting fixes it. null is "".
func (d *decoder) str(n *yaml.Node, p *field.Path) string {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case tagStr:
			return n.Value
		case tagNull:
			return ""
		}
		d.add(field.TypeInvalid(p, n.Value, "must be a string, not "+kindName(n)+"; quote it: \""+n.Value+"\""))
		return ""
	}
	d.wrongType(n, p, "a string")
	return ""
}

// entries calls fn for each key and value of the mapping n, aliases followed, in order:
// the keys written in n, then those merged in with "<<" that n does not set itself. A key
// written twice is a finding at p[key] (or p.key, when keysAreFields), reported at the
// second; fn sees only the first. Keys must be scalars.
func (d *decoder) entries(n *yaml.Node, p *field.Path, keysAreFields bool, fn func(key string, k, v *yaml.Node)) {
	if !d.descend(n) {
		return
	}
	defer d.ascend()
	var merges []*yaml.Node
	c := n.Content
	// Small mappings look for an earlier equal key by scanning; large ones keep a set, so
	// that the check stays linear.
	var seen map[string]int
	if len(c) > 2*smallMapping {
		seen = make(map[string]int, len(c)/2)
	}
	for i := 0; i+1 < len(c); i += 2 {
		k, v := d.visit(c[i]), d.visit(c[i+1])
		if k == nil || v == nil {
			return
		}
		if k.Kind != yaml.ScalarNode {
			d.add(field.TypeInvalid(p, field.OmitValueType{}, "mapping keys must be strings, not "+kindName(k)))
			continue
		}
		if k.ShortTag() == tagMerge {
			merges = append(merges, v)
			continue
		}
		dup := -1
		if seen != nil {
			if j, ok := seen[k.Value]; ok {
				dup = j
			} else {
				seen[k.Value] = i
			}
		} else {
			dup = firstKey(c[:i], k.Value)
		}
		if dup >= 0 {
			e := field.Duplicate(childPath(p, k.Value, keysAreFields), k.Value)
			e.Detail = "key set twice in this mapping, first on line " + strconv.Itoa(c[dup].Line)
			d.addAt(c[i], e)
			continue
		}
		fn(k.Value, k, v)
	}
	for _, m := range merges {
		d.merge(n, m, p, seen, fn)
	}
}

// smallMapping is the most keys a mapping may have for entries to find duplicates by
// scanning rather than with a set.
const smallMapping = 16

// merge applies one "<<" value: a mapping, or a list of mappings, each contributing the
// keys that target does not set itself.
func (d *decoder) merge(target, m *yaml.Node, p *field.Path, targetKeys map[string]int, fn func(key string, k, v *yaml.Node)) {
	if !d.descend(m) {
		return
	}
	defer d.ascend()
	switch m.Kind {
	case yaml.MappingNode:
		c := m.Content
		for i := 0; i+1 < len(c); i += 2 {
			k, v := d.visit(c[i]), d.visit(c[i+1])
			if k == nil || v == nil {
				return
			}
			if k.Kind != yaml.ScalarNode {
				continue
			}
			inTarget := false
			if targetKeys != nil {
				_, inTarget = targetKeys[k.Value]
			} else {
				inTarget = firstKey(target.Content, k.Value) >= 0
			}
			// A key merged in twice (in m itself) counts once. m is small or repeated
			// keys are rare; a large m is scanned only for keys it holds twice.
			if !inTarget && (len(c) > 2*smallMapping || firstKey(c[:i], k.Value) < 0) {
				fn(k.Value, k, v)
			}
		}
	case yaml.SequenceNode:
		for _, e := range m.Content {
			if e = d.visit(e); e == nil {
				return
			}
			if e.Kind == yaml.MappingNode {
				d.merge(target, e, p, targetKeys, fn)
			}
		}
	default:
		d.add(field.TypeInvalid(p, badValue(m), "a merge key (<<) must refer to a mapping"))
	}
}

// firstKey returns the index in the key/value list c of the first key equal to key, or -1.
func firstKey(c []*yaml.Node, key string) int {
	for i := 0; i+1 < len(c); i += 2 {
		if k := deref(c[i]); k != nil && k.Kind == yaml.ScalarNode && k.Value == key && k.ShortTag() != tagMerge {
			return i
		}
	}
	return -1
}

func childPath(p *field.Path, key string, isField bool) *field.Path {
	if isField {
		return p.Child(key)
	}
	return p.Key(key)
}

// lookup returns the key and value nodes of key in the mapping n, merges included, or
// nils. budget bounds the work over merged aliases, and the depth of merges in merges
// (a cycle of them included) is bounded by MaxDepth.
func lookup(n *yaml.Node, key string, budget *int) (k, v *yaml.Node) {
	return lookupDepth(n, key, budget, 0)
}

func lookupDepth(n *yaml.Node, key string, budget *int, depth int) (k, v *yaml.Node) {
	if depth >= MaxDepth {
		return nil, nil
	}
	c := n.Content
	var merges []*yaml.Node
	for i := 0; i+1 < len(c); i += 2 {
		if *budget--; *budget < 0 {
			return nil, nil
		}
		kn := deref(c[i])
		if kn == nil || kn.Kind != yaml.ScalarNode {
			continue
		}
		if kn.ShortTag() == tagMerge {
			merges = append(merges, deref(c[i+1]))
			continue
		}
		if kn.Value == key {
			return c[i], deref(c[i+1])
		}
	}
	for _, m := range merges {
		switch {
		case m == nil:
		case m.Kind == yaml.MappingNode:
			if k, v := lookupDepth(m, key, budget, depth+1); k != nil {
				return k, v
			}
		case m.Kind == yaml.SequenceNode:
			for _, e := range m.Content {
				if e = deref(e); e != nil && e.Kind == yaml.MappingNode {
					if k, v := lookupDepth(e, key, budget, depth+1); k != nil {
						return k, v
					}
				}
			}
		}
	}
	return nil, nil
}

// checkTree walks a subtree this package does not decode, only to report duplicate keys.
func (d *decoder) checkTree(n *yaml.Node, p *field.Path) {
	switch n.Kind {
	case yaml.MappingNode:
		d.entries(n, p, true, func(key string, _, v *yaml.Node) { d.checkTree(v, p.Child(key)) })
	case yaml.SequenceNode:
		if !d.descend(n) {
			return
		}
		defer d.ascend()
		for i, e := range n.Content {
			if e = d.visit(e); e == nil {
				return
			}
			d.checkTree(e, p.Index(i))
		}
	}
}

// resourceList decodes requests or limits: resource names to amounts. Names are kept as
// written; package validate judges them.
func (d *decoder) resourceList(n *yaml.Node, p *field.Path) instancetype.ResourceList {
	if !d.mapping(n, p) {
		return nil
	}
	l := make(instancetype.ResourceList, len(n.Content)/2)
	d.entries(n, p, false, func(key string, _, v *yaml.Node) {
		l[instancetype.ResourceName(key)] = d.amount(v, p.Key(key))
	})
	return l
}

// amount decodes one resource value. Strings are kept as written. YAML numbers are
// accepted as Kubernetes accepts them: as the JSON number the API server would receive.
func (d *decoder) amount(n *yaml.Node, p *field.Path) instancetype.Amount {
	if n.Kind != yaml.ScalarNode {
		d.wrongType(n, p, "a quantity such as \"500m\" or \"2Gi\"")
		return instancetype.Amount{}
	}
	switch n.ShortTag() {
	case tagNull:
		return instancetype.Amount{}
	case tagStr:
		return instancetype.ParseAmount(n.Value)
	case tagInt:
		if plainDecimal(n.Value) {
			return instancetype.ParseAmount(n.Value)
		}
		var i int64
		if err := n.Decode(&i); err == nil {
			return instancetype.ParseAmount(strconv.FormatInt(i, 10))
		}
		return instancetype.ParseAmount(n.Value)
	case tagFloat:
		var f float64
		if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			d.add(field.Invalid(p, n.Value, "must be a finite quantity"))
			return instancetype.Amount{}
		}
		return instancetype.ParseAmount(jsonNumber(f))
	}
	d.wrongType(n, p, "a quantity such as \"500m\" or \"2Gi\"")
	return instancetype.Amount{}
}

// plainDecimal reports digits with an optional leading minus: an integer whose YAML and
// JSON spellings agree.
func plainDecimal(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// jsonNumber formats f as encoding/json does.
func jsonNumber(f float64) string {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, 64)
	if format == 'e' {
		// encoding/json shortens a two-digit negative exponent: 1e-07 becomes 1e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b)
}
