package webhook

import (
	"bytes"
	"context"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"strconv"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"

	"github.com/amlarc-go/instancetypes/resolve"
)

// ratchet splits errs, the findings of the new object newRaw of an UPDATE, into those that
// deny it and those kept as warnings because the old object oldRaw has the same finding
// (field path, type, detail) and the same JSON value at its path (see the package
// documentation). Order is kept in both. An old object that is missing, or no
// InstanceType, ratchets nothing. It returns ctx's error if ctx ends on the way.
//
// Its cost is linear: in the findings of both objects, and in the length of both texts,
// each of which is scanned once more, without decoding, for the places of the values the
// findings it may keep are about (valuesAt); only two such values that differ as text are
// decoded to be compared.
func ratchet(ctx context.Context, errs field.ErrorList, newRaw, oldRaw []byte, opts resolve.Options) (deny, kept field.ErrorList, err error) {
	if len(oldRaw) == 0 {
		return errs, nil, nil
	}
	old, bad := decodeObject(oldRaw, "oldObject")
	if bad != nil {
		return errs, nil, nil
	}
	// The paths of the old object's findings, each in a slot, with the old findings at
	// each path: first[slot], then next[i] after oldErrs[i].
	oldErrs := findings(old, opts)
	var paths pathSet
	first, next := []int(nil), make([]int, len(oldErrs))
	for i, e := range oldErrs {
		s := paths.add(e.Field)
		if s == len(first) {
			first = append(first, -1)
		}
		next[i], first[s] = first[s], i
	}
	if err := checkpoint(ctx, stageOldObject); err != nil {
		return nil, nil, err
	}
	// slots[i] is the slot of errs[i]'s path when the old object has the same finding
	// (field path, type and detail), else -1.
	slots := make([]int, len(errs))
	some := false
	for i, e := range errs {
		slots[i] = -1
		s := paths.slot(e.Field)
		if s < 0 {
			continue
		}
		for j := first[s]; j >= 0; j = next[j] {
			if o := oldErrs[j]; o.Type == e.Type && o.Detail == e.Detail {
				slots[i], some = s, true
				break
			}
		}
	}
	if !some {
		return errs, nil, nil
	}
	newVals, okNew := paths.valuesAt(newRaw)
	oldVals, okOld := paths.valuesAt(oldRaw)
	if !okNew || !okOld {
		return errs, nil, nil
	}
	if err := checkpoint(ctx, stageCompared); err != nil {
		return nil, nil, err
	}
	same := make([]int8, len(paths.paths)) // by slot: 0 not compared yet, 1 unchanged, -1 changed
	for i, e := range errs {
		s := slots[i]
		if s >= 0 && same[s] == 0 {
			same[s] = -1
			if unchanged(newRaw, oldRaw, newVals[s], oldVals[s]) {
				same[s] = 1
			}
		}
		if s >= 0 && same[s] == 1 {
			kept = append(kept, e)
		} else {
			deny = append(deny, e)
		}
	}
	return deny, kept, nil
}

// span is what an object holds at a path: the text of its value, data[start:end], and the
// number of places the path names: 0 (absent), 1, or more (a key written twice, or a path
// that names two places, such as spec.a.b for the field "a.b" of spec and the field b of
// spec.a), which is never unchanged.
type span struct {
	start, end int
	count      int
}

// unchanged reports whether the values n of newRaw and o of oldRaw at one path are the
// same: absent from both, or one equal JSON value in each. Equal text is an equal value;
// two texts that differ are decoded, and compared as JSON values (key order, spaces and
// escapes do not count; 1 and 1.0 differ, as encoding/json's values do).
func unchanged(newRaw, oldRaw []byte, n, o span) bool {
	switch {
	case n.count == 0 && o.count == 0:
		return true
	case n.count != 1 || o.count != 1:
		return false
	}
	a, b := newRaw[n.start:n.end], oldRaw[o.start:o.end]
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if sigsjson.UnmarshalCaseSensitivePreserveInts(a, &x) != nil || sigsjson.UnmarshalCaseSensitivePreserveInts(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// mapFields are the paths of the InstanceType's fields that are maps: their keys are
// rendered in brackets.
var mapFields = map[string]bool{
	"metadata.labels":         true,
	"metadata.annotations":    true,
	"spec.nodeSelector":       true,
	"spec.resources.limits":   true,
	"spec.resources.requests": true,
}

// maxMapFieldLen is the length of the longest path in mapFields: no longer path is looked
// up there.
const maxMapFieldLen = len("spec.resources.requests")

// maxDepth is how deeply a value valuesAt reads may nest: encoding/json's limit.
const maxDepth = 10000

// pathSet is a set of field paths, as field.Path.String renders them, each in a slot
// numbered in the order they were added. A path is found by its hash, which a walk over an
// object extends by the bytes of each segment it appends to the path of a node, so that
// the cost of finding a node's path does not grow with its depth.
type pathSet struct {
	paths []string
	first map[uint64]int // by hash: the first slot
	next  []int          // by slot: the next slot of the same hash, or -1
	// collided is set when two paths of the set have the same hash, which is improbable.
	collided bool
}

// add adds p to the set if it is not there, and returns its slot.
func (s *pathSet) add(p string) int {
	if s.first == nil {
		s.first = make(map[uint64]int)
	}
	h := hashOf(p)
	i, ok := s.first[h]
	if ok {
		for ; i >= 0; i = s.next[i] {
			if s.paths[i] == p {
				return i
			}
		}
		s.collided = true
	}
	slot := len(s.paths)
	s.paths = append(s.paths, p)
	s.next = append(s.next, -1)
	if ok {
		s.next[slot] = s.first[h]
	}
	s.first[h] = slot
	return slot
}

// slot returns the slot of p, or -1 when it is not in the set.
func (s *pathSet) slot(p string) int {
	i, ok := s.first[hashOf(p)]
	for ; ok && i >= 0; i = s.next[i] {
		if s.paths[i] == p {
			return i
		}
	}
	return -1
}

// find returns the slot of path, whose hash is h, or -1 when it is not in the set; found
// are the spans the walk has recorded. A path found twice already is not compared again
// when no two paths of the set share a hash: it is never unchanged whatever the node is,
// and comparing every copy of a long path written many times would take time that grows
// with the product of the two.
func (s *pathSet) find(h uint64, path []byte, found []span) int {
	for i, ok := s.first[h]; ok && i >= 0; i = s.next[i] {
		if (found[i].count >= 2 && !s.collided) || string(path) == s.paths[i] {
			return i
		}
	}
	return -1
}

// valuesAt scans raw, a JSON value, and returns by slot where each path of s lies in it.
// It reports false if raw is not JSON.
//
// The scan renders the path of each node it meets as field.Path does: a field of an
// object as .name, a key of a map as [key], an item of a list as [i]. Which objects are
// maps is known from the InstanceType's schema (mapFields); every other object is a
// struct. Keys are read as encoding/json reads them (escapes decoded, invalid UTF-8 as
// U+FFFD). Nothing is decoded but keys that hold an escape or invalid UTF-8, and the path
// is found by its hash, extended segment by segment: the cost is linear in raw.
func (s *pathSet) valuesAt(raw []byte) ([]span, bool) {
	w := walker{set: s, data: raw, found: make([]span, len(s.paths))}
	if !w.value(0, false) {
		return nil, false
	}
	w.space()
	if w.off != len(raw) {
		return nil, false
	}
	return w.found, true
}

// walker is the state of valuesAt: a JSON scanner that keeps the path of the node it is
// in (one buffer, reused for every node) and records the spans of the paths of set.
type walker struct {
	set   *pathSet
	data  []byte
	off   int
	path  []byte
	found []span
	depth int
}

// hashBase is the base of the paths' polynomial hash, random so that no object can be
// written to make paths collide (which would cost comparisons, never a wrong answer).
var hashBase = 1<<16 + rand.Uint64N(mersenne61-1<<17)

// mersenne61 is the prime 2^61-1, the modulus of the hash.
const mersenne61 = 1<<61 - 1

// hashOf returns the hash of p.
func hashOf(p string) uint64 {
	var h uint64
	for i := range len(p) {
		h = roll(h, p[i])
	}
	return h
}

// roll extends h, the hash of a text, by its next byte c.
func roll(h uint64, c byte) uint64 {
	hi, lo := bits.Mul64(h, hashBase)
	// h*hashBase = hi*2^64 + lo, and 2^61 = 1 modulo 2^61-1.
	r := (hi<<3 | lo>>61) + lo&mersenne61 + uint64(c) + 1
	for r >= mersenne61 {
		r -= mersenne61
	}
	return r
}

func (w *walker) space() {
	for w.off < len(w.data) {
		switch w.data[w.off] {
		case ' ', '\t', '\r', '\n':
			w.off++
		default:
			return
		}
	}
}

// peek returns the byte at the scan's offset, or 0 at the end.
func (w *walker) peek() byte {
	if w.off < len(w.data) {
		return w.data[w.off]
	}
	return 0
}

// value scans the value at the offset, whose path is w.path with hash h, recording its
// span if its path is one of the set's. isMap says whether it is one of mapFields.
func (w *walker) value(h uint64, isMap bool) bool {
	w.space()
	start := w.off
	slot := w.set.find(h, w.path, w.found)
	var ok bool
	switch w.peek() {
	case '{':
		ok = w.object(h, isMap)
	case '[':
		ok = w.array(h)
	case '"':
		_, _, ok = w.str()
	default:
		ok = w.literal()
	}
	if !ok {
		return false
	}
	if slot >= 0 {
		f := &w.found[slot]
		f.start, f.end, f.count = start, w.off, f.count+1
	}
	return true
}

// enter counts one more level of nesting, and reports whether it is within maxDepth.
func (w *walker) enter() bool {
	w.depth++
	return w.depth <= maxDepth
}

// object scans the object at the offset, whose path is w.path with hash h.
func (w *walker) object(h uint64, isMap bool) bool {
	if !w.enter() {
		return false
	}
	w.off++ // {
	w.space()
	if w.peek() == '}' {
		w.off++
		w.depth--
		return true
	}
	for {
		w.space()
		if w.peek() != '"' {
			return false
		}
		start, end, ok := w.str()
		if !ok {
			return false
		}
		key := w.data[start+1 : end-1]
		if !plain(key) {
			var k string
			if sigsjson.UnmarshalCaseSensitivePreserveInts(w.data[start:end], &k) != nil {
				return false
			}
			key = []byte(k)
		}
		w.space()
		if w.peek() != ':' {
			return false
		}
		w.off++
		n := len(w.path)
		switch {
		case isMap:
			w.path = append(append(append(w.path, '['), key...), ']')
		case n > 0:
			w.path = append(append(w.path, '.'), key...)
		default:
			w.path = append(w.path, key...)
		}
		ch := h
		for _, c := range w.path[n:] {
			ch = roll(ch, c)
		}
		childMap := !isMap && len(w.path) <= maxMapFieldLen && mapFields[string(w.path)]
		if !w.value(ch, childMap) {
			return false
		}
		w.path = w.path[:n]
		w.space()
		switch w.peek() {
		case ',':
			w.off++
		case '}':
			w.off++
			w.depth--
			return true
		default:
			return false
		}
	}
}

// array scans the array at the offset, whose path is w.path with hash h.
func (w *walker) array(h uint64) bool {
	if !w.enter() {
		return false
	}
	w.off++ // [
	w.space()
	if w.peek() == ']' {
		w.off++
		w.depth--
		return true
	}
	for i := int64(0); ; i++ {
		n := len(w.path)
		w.path = append(strconv.AppendInt(append(w.path, '['), i, 10), ']')
		ch := h
		for _, c := range w.path[n:] {
			ch = roll(ch, c)
		}
		if !w.value(ch, false) {
			return false
		}
		w.path = w.path[:n]
		w.space()
		switch w.peek() {
		case ',':
			w.off++
		case ']':
			w.off++
			w.depth--
			return true
		default:
			return false
		}
	}
}

// str scans the string at the offset and returns where it lies, quotes included.
func (w *walker) str() (start, end int, ok bool) {
	start = w.off
	w.off++ // "
	for w.off < len(w.data) {
		switch c := w.data[w.off]; {
		case c == '"':
			w.off++
			return start, w.off, true
		case c == '\\':
			if w.off+1 >= len(w.data) {
				return 0, 0, false
			}
			switch w.data[w.off+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				w.off += 2
			case 'u':
				if w.off+6 > len(w.data) {
					return 0, 0, false
				}
				for _, d := range w.data[w.off+2 : w.off+6] {
					if !isHex(d) {
						return 0, 0, false
					}
				}
				w.off += 6
			default:
				return 0, 0, false
			}
		case c < 0x20:
			return 0, 0, false
		default:
			w.off++
		}
	}
	return 0, 0, false
}

// plain reports whether the text of a JSON string is its value: it has no escape and is
// valid UTF-8.
func plain(s []byte) bool {
	for _, c := range s {
		if c == '\\' || c >= utf8.RuneSelf {
			return bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s)
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// literal scans the number, true, false or null at the offset.
func (w *walker) literal() bool {
	lit := ""
	switch w.peek() {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	case 'n':
		lit = "null"
	}
	if lit != "" {
		if len(w.data)-w.off < len(lit) || string(w.data[w.off:w.off+len(lit)]) != lit {
			return false
		}
		w.off += len(lit)
		return true
	}
	// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
	if w.peek() == '-' {
		w.off++
	}
	switch c := w.peek(); {
	case c == '0':
		w.off++
	case '1' <= c && c <= '9':
		w.digits()
	default:
		return false
	}
	if w.peek() == '.' {
		w.off++
		if !w.digits() {
			return false
		}
	}
	if c := w.peek(); c == 'e' || c == 'E' {
		w.off++
		if c := w.peek(); c == '+' || c == '-' {
			w.off++
		}
		if !w.digits() {
			return false
		}
	}
	return true
}

// digits scans one or more digits, and reports whether there was one.
func (w *walker) digits() bool {
	start := w.off
	for isDigit(w.peek()) {
		w.off++
	}
	return w.off > start
}
