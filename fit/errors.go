package fit

import (
	"math/bits"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Errors renders r as findings: none when the demand fits some node, else one of
//
//   - no node matches the selector: a field.Invalid at selectorPath (the path of the
//     selector map, spec.nodeSelector of the instance type, or the extension's) whose bad
//     value is the effective selector and whose detail gives the nearest miss;
//   - every matching node is excluded: a field.Invalid at selectorPath naming the taints
//     and the cordoned nodes;
//   - candidates exist but none fits: a field.Invalid at requestPath(name) for each
//     resource no candidate has enough of, with the request as the bad value and the
//     largest amount a candidate has; or, when each request is covered by some candidate
//     but none covers all, one at the request the fewest candidates cover.
//
// The messages name the excluded matching nodes (MaxNamed of each kind, with the counts),
// so that a reader sees why a node that looks right is not used. User text is printed bare
// when it has the characters of labels and names only, quoted otherwise, and cut at 256
// bytes. A nil requestPath reports shortfalls at selectorPath.
func (r Result) Errors(selectorPath *field.Path, requestPath func(instancetype.ResourceName) *field.Path) field.ErrorList {
	if r.Fits > 0 {
		return nil
	}
	at := func(name instancetype.ResourceName) *field.Path {
		if requestPath == nil {
			return selectorPath
		}
		return requestPath(name)
	}
	switch {
	case r.Matching == 0:
		b := append([]byte(nil), "no node matches: "...)
		b = r.appendMiss(b)
		return field.ErrorList{field.Invalid(selectorPath, r.selectorValue(), string(b)).WithOrigin(rules.Fit)}
	case r.Candidates == 0:
		var b []byte
		switch r.Matching {
		case 1:
			b = append(b, "the only matching node"...)
		case 2:
			b = append(b, "both matching nodes"...)
		default:
			b = append(b, "all "...)
			b = appendCount(b, r.Matching, "matching node", "matching nodes")
		}
		b = r.appendWhy(b)
		switch {
		case r.Matching == 1 && r.WouldFit == 1:
			b = append(b, "; it would fit"...)
		case r.Matching == 1:
			b = append(b, "; it would not fit either"...)
		case r.WouldFit == r.Matching && r.Matching == 2:
			b = append(b, "; both would fit"...)
		case r.WouldFit == r.Matching:
			b = append(b, "; all of them would fit"...)
		case r.WouldFit > 0:
			b = append(b, "; "...)
			b = strconv.AppendInt(b, int64(r.WouldFit), 10)
			b = append(b, " of them would fit"...)
		default:
			b = append(b, "; none of them would fit either"...)
		}
		return field.ErrorList{field.Invalid(selectorPath, r.selectorValue(), string(b)).WithOrigin(rules.Fit)}
	}
	var errs field.ErrorList
	tightest := -1
	for i, s := range r.Shortfalls {
		if tightest < 0 || s.Covering < r.Shortfalls[tightest].Covering {
			tightest = i
		}
		if s.Covering > 0 {
			continue
		}
		var b []byte
		if s.Largest.Sign() > 0 {
			b = append(b, "no candidate node has that much "...)
			b = appendText(b, string(s.Resource), false)
			b = append(b, " allocatable: the largest is "...)
			b = appendAmount(b, s.Resource, s.Largest)
			if s.Node != "" {
				b = append(b, ", on "...)
				b = appendText(b, s.Node, false)
			}
		} else {
			b = append(b, "no candidate node has any "...)
			b = appendText(b, string(s.Resource), false)
			b = append(b, " allocatable"...)
		}
		b = r.appendExcludedSuffix(b)
		errs = append(errs, field.Invalid(at(s.Resource), s.Request.String(), string(b)).WithOrigin(rules.Fit))
	}
	if errs != nil || tightest < 0 {
		return errs
	}
	// Every request is covered by some candidate, none covers them all. Name those some
	// candidate lacks (at least two: were it one, a candidate covering it would fit).
	var apart []Shortfall
	for _, s := range r.Shortfalls {
		if s.Covering < r.Candidates {
			apart = append(apart, s)
		}
	}
	shown := apart[:min(len(apart), maxPairs)]
	b := append([]byte(nil), "no candidate node has "...)
	b = appendList(b, shown, len(apart)-len(shown), " and ", func(b []byte, s Shortfall) []byte {
		b = appendText(b, string(s.Resource), false)
		b = append(b, ' ')
		b, _ = s.Request.AppendText(b)
		return b
	})
	b = append(b, " allocatable at once, though each is on some"...)
	b = r.appendExcludedSuffix(b)
	s := r.Shortfalls[tightest]
	return field.ErrorList{field.Invalid(at(s.Resource), s.Request.String(), string(b)).WithOrigin(rules.Fit)}
}

// selectorValue is the bad value of a selector finding: the selector as k=v,k=v, cut at
// maxTextLen bytes; no value for an empty selector.
func (r Result) selectorValue() any {
	if len(r.Selector) == 0 {
		return field.OmitValueType{}
	}
	return clip.String(string(appendSelector(nil, r.Selector)))
}

// appendMiss explains why no node matches, from r.Miss.
func (r Result) appendMiss(b []byte) []byte {
	m := r.Miss
	if r.Nodes == 0 || m == nil {
		return append(b, "there are no nodes"...)
	}
	who := "they have "
	if len(m.Carried) == 0 {
		b = append(b, "no node carries "...)
		who = "nodes have "
	} else {
		b = appendCount(b, m.Nodes, "node carries ", "nodes carry ")
		b = appendSelector(b, m.Carried)
		b = append(b, " but not "...)
	}
	shown := m.Lacking[:min(len(m.Lacking), maxPairs)]
	i := 0
	return appendList(b, shown, len(m.Lacking)-len(shown), " or ", func(b []byte, l Lack) []byte {
		b = appendPair(b, l.Pair)
		if i < MaxNamed {
			b = append(b, " ("...)
			if len(l.Values) == 0 {
				if len(m.Carried) == 0 {
					b = append(b, "no node has the label "...)
				} else {
					b = append(b, "none has the label "...)
				}
				b = appendText(b, l.Pair.Key, false)
			} else {
				b = append(b, who...)
				b = appendList(b, l.Values, l.MoreValues, " or ", func(b []byte, v string) []byte {
					return appendPair(b, Pair{l.Pair.Key, v})
				})
			}
			b = append(b, ')')
		}
		i++
		return b
	})
}

// appendWhy appends why the excluded matching nodes are excluded, after their count:
// " are excluded by taints (n1 t1 and n2 t2)", " is cordoned (n3)", or " are excluded: 2
// by taints (n1 t1 and n2 t2) and 1 by cordoning (n3)".
func (r Result) appendWhy(b []byte) []byte {
	n := r.Tainted + r.Cordoned
	switch {
	case r.Cordoned == 0:
		b = append(b, isAre(n)...)
		b = append(b, " excluded by taints ("...)
		b = r.appendTaintedNodes(b)
	case r.Tainted == 0:
		b = append(b, isAre(n)...)
		b = append(b, " cordoned ("...)
		b = r.appendCordonedNodes(b)
	default:
		b = append(b, " are excluded: "...)
		b = strconv.AppendInt(b, int64(r.Tainted), 10)
		b = append(b, " by taints ("...)
		b = r.appendTaintedNodes(b)
		b = append(b, ") and "...)
		b = strconv.AppendInt(b, int64(r.Cordoned), 10)
		b = append(b, " by cordoning ("...)
		b = r.appendCordonedNodes(b)
	}
	return append(b, ')')
}

// appendTaintedNodes appends the taint groups: "sku=gpu:NoSchedule on n1, n2 and 5 more;
// a:NoExecute,b:NoSchedule on n3; 4 more with other taints".
func (r Result) appendTaintedNodes(b []byte) []byte {
	grouped := 0
	for i, g := range r.TaintGroups {
		if i > 0 {
			b = append(b, "; "...)
		}
		for j, t := range g.Taints {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendTaint(b, t)
		}
		if g.MoreTaints > 0 {
			b = append(b, ",+"...)
			b = strconv.AppendInt(b, int64(g.MoreTaints), 10)
		}
		b = append(b, " on "...)
		b = appendList(b, g.Names, g.Nodes-len(g.Names), " and ", func(b []byte, name string) []byte {
			return appendText(b, name, false)
		})
		grouped += g.Nodes
	}
	if rest := r.Tainted - grouped; rest > 0 {
		b = append(b, "; "...)
		b = strconv.AppendInt(b, int64(rest), 10)
		b = append(b, " more with other taints"...)
	}
	return b
}

// appendCordonedNodes appends "n1, n2 and 4 more".
func (r Result) appendCordonedNodes(b []byte) []byte {
	return appendList(b, r.CordonedNodes, r.Cordoned-len(r.CordonedNodes), " and ", func(b []byte, name string) []byte {
		return appendText(b, name, false)
	})
}

// appendExcludedSuffix appends, to a shortfall, the matching nodes that are no candidates:
// "; 1 more matching node is cordoned (n3), and it would fit".
func (r Result) appendExcludedSuffix(b []byte) []byte {
	n := r.Tainted + r.Cordoned
	if n == 0 {
		return b
	}
	b = append(b, "; "...)
	b = appendCount(b, n, "more matching node", "more matching nodes")
	b = r.appendWhy(b)
	switch {
	case r.WouldFit == 0:
	case n == 1:
		b = append(b, ", and it would fit"...)
	default:
		b = append(b, ", and "...)
		b = strconv.AppendInt(b, int64(r.WouldFit), 10)
		b = append(b, " of them would fit"...)
	}
	return b
}

// appendAmount appends q in canonical form and, for memory printed with more than four
// digits, its size in the largest binary unit it reaches, rounded down to a tenth so that a
// node is never said to have more than it has: "59364472Ki (about 56.6Gi)", "68719476736
// (64Gi)"; "1500Mi" as it is.
func appendAmount(b []byte, name instancetype.ResourceName, q quantity.Quantity) []byte {
	start := len(b)
	b, _ = q.AppendText(b)
	digits := 0
	for _, c := range b[start:] {
		if '0' <= c && c <= '9' {
			digits++
		}
	}
	v := q.Value()
	if name != instancetype.ResourceMemory || v < 1024 || digits <= 4 {
		return b
	}
	units := [...]string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	k := 0 // v ≥ 1024^(k+1)
	for k+1 < len(units) && v>>(10*(k+2)) > 0 {
		k++
	}
	unit := uint64(1) << (10 * (k + 1))
	whole, frac := uint64(v)/unit, uint64(v)%unit
	b = append(b, " ("...)
	if frac != 0 {
		b = append(b, "about "...)
	}
	b = strconv.AppendUint(b, whole, 10)
	hi, lo := bits.Mul64(frac, 10)
	if tenth, _ := bits.Div64(hi, lo, unit); tenth > 0 { // frac < unit, so no overflow
		b = append(b, '.')
		b = strconv.AppendUint(b, tenth, 10)
	}
	b = append(b, units[k]...)
	return append(b, ')')
}
