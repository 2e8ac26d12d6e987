package manifest

import (
	"cmp"
	"hash/maphash"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// positions is the one table of a document's positions, filled as the document is decoded
// and read by every later question: Position, Refused and Locate. It holds
//
//   - for the path of each field, map entry and list item the decoder decodes, the position
//     of its key (of the item, for a list item), and whether decoding refused its value;
//   - for each finding the decoder made itself, its position (or that it is placed at its
//     path) and its type.
//
// Paths are keyed by a seeded hash of their text (as field.Path.String renders them), so
// that the table holds no strings and a lookup builds none: the decoder hashes the text of
// its path stack as it records; a question hashes the text it is asked about, every prefix
// that ends a segment in one pass, to find the nearest recorded parent of a path that leads
// nowhere. Recording appends to a list, in the order of decoding, which is sorted by hash
// once, when the document is decoded; a question is then a look into a bucket of the sorted
// list per prefix. Its cost is that of the path's text, whatever the size of the document.
type positions struct {
	entries []entry // as recorded; sorted by hash once indexed
	// indexing indexes the entries when the first question comes, once (a document read
	// without a finding is never asked): a Document may be asked from several goroutines.
	indexing sync.Once
	// buckets index the sorted entries of a large table by the top bits of their hashes
	// (shift is 64 less those bits): the entries whose hashes start with b are
	// entries[buckets[b]:buckets[b+1]], a few.
	buckets []int32
	shift   uint8
	own     map[*field.Error]ownFinding
	start   Position // the document's first line, for a path nothing recorded is above
}

// entry is one record of a path: its position, or that its value was refused; 16 bytes.
type entry struct {
	hash   uint64
	line   int32  // 0 for a refusal alone
	column uint32 // the refused bit, and the column
}

// refusedBit marks, in entry.column, a path whose value was refused.
const refusedBit = 1 << 31

func (e entry) refused() bool { return e.column&refusedBit != 0 }

func (e entry) pos() Position {
	return Position{Line: int(e.line), Column: int(e.column &^ refusedBit)}
}

// ownFinding is where a finding of the decoder's own is, and its type ("" for a finding
// about a field's value). A finding with no position is placed at its path.
type ownFinding struct {
	pos Position
	typ FindingType
}

// pathSeed seeds the hashes of paths: a key of a document cannot be chosen to make its path
// collide with another's.
var pathSeed = maphash.MakeSeed()

func hashPath(text []byte) uint64 { return maphash.Bytes(pathSeed, text) }

func hashPathString(text string) uint64 { return maphash.String(pathSeed, text) }

// newPositions returns a table for about n records.
func newPositions(n int) *positions {
	return &positions{entries: make([]entry, 0, n)}
}

// set records pos as the position of the path whose text is given, and whether its value,
// or the value of a path above it, was refused.
func (t *positions) set(text []byte, pos Position, refused bool) {
	column := uint32(min(pos.Column, refusedBit-1))
	if refused {
		column |= refusedBit
	}
	t.entries = append(t.entries, entry{hash: hashPath(text), line: int32(pos.Line), column: column})
}

// grow makes room for about n records in all.
func (t *positions) grow(n int) {
	if n > len(t.entries) {
		t.entries = slices.Grow(t.entries, n-len(t.entries))
	}
}

// refuse records that decoding refused the value of the path whose text is given.
func (t *positions) refuse(text []byte) {
	t.entries = append(t.entries, entry{hash: hashPath(text), column: refusedBit})
}

// addOwn records a finding of the decoder's own, at pos (or, with the zero pos, at its
// path).
func (t *positions) addOwn(e *field.Error, pos Position, typ FindingType) {
	if t.own == nil {
		t.own = make(map[*field.Error]ownFinding)
	}
	t.own[e] = ownFinding{pos, typ}
}

// index sorts the entries by hash, and merges those of one path: refused if any record
// refuses it, at the first position in the file recorded for it. (Two keys can make one
// path's text, "a.b" and b inside a, as they make one field.Path text.)
func (t *positions) index() { t.indexing.Do(t.sortEntries) }

// sortEntries is index, done once.
func (t *positions) sortEntries() {
	if len(t.entries) == 0 {
		return
	}
	sortByHash(t.entries)
	out := t.entries[:1]
	for _, e := range t.entries[1:] {
		last := &out[len(out)-1]
		if e.hash != last.hash {
			out = append(out, e)
			continue
		}
		refused := (last.column | e.column) & refusedBit
		if e.line != 0 && (last.line == 0 || e.line < last.line || e.line == last.line && e.pos().Column < last.pos().Column) {
			last.line, last.column = e.line, e.column
		}
		last.column |= refused
	}
	t.entries = slices.Clip(out)
	t.bucket()
}

// bucket indexes a table of more than a thousand entries by the top bits of the hashes,
// about eight entries a bucket: a look for a hash is then one step into the index and a
// short scan, where a binary search of a large table takes many steps to memory.
func (t *positions) bucket() {
	n := len(t.entries)
	if n < 1024 {
		return
	}
	bits := uint8(64) // 64 less log2 of the buckets: n/8 of them, a power of two not over it
	for b := n >> 3; b > 1; b >>= 1 {
		bits--
	}
	t.shift = bits
	t.buckets = make([]int32, (1<<(64-bits))+1)
	b := 0
	for i, e := range t.entries {
		for top := int(e.hash >> bits); b <= top; b++ {
			t.buckets[b] = int32(i)
		}
	}
	for ; b < len(t.buckets); b++ {
		t.buckets[b] = int32(n)
	}
}

// find returns the entry of the path whose hash is h.
func (t *positions) find(h uint64) (entry, bool) {
	if t.buckets == nil {
		return find(t.entries, h)
	}
	b := h >> t.shift
	return find(t.entries[t.buckets[b]:t.buckets[b+1]], h)
}

// sortByHash sorts entries by hash: a comparison sort for a few, a radix sort of the
// hash's bytes, least significant first, for many (a long list records hundreds of
// thousands of paths, and its hashes are uniformly spread).
func sortByHash(entries []entry) {
	if len(entries) < 256 {
		slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.hash, b.hash) })
		return
	}
	from, to := entries, make([]entry, len(entries))
	for shift := uint(0); shift < 64; shift += 8 {
		var count [257]int
		for i := range from {
			count[int(byte(from[i].hash>>shift))+1]++
		}
		for b := 1; b < len(count); b++ {
			count[b] += count[b-1]
		}
		for i := range from {
			b := byte(from[i].hash >> shift)
			to[count[b]] = from[i]
			count[b]++
		}
		from, to = to, from
	}
	// Eight passes: the sorted entries are back in entries.
}

// find returns the entry of the path whose hash is h among entries sorted by hash.
func find(entries []entry, h uint64) (entry, bool) {
	i, ok := slices.BinarySearchFunc(entries, h, func(e entry, h uint64) int { return cmp.Compare(e.hash, h) })
	if !ok {
		return entry{}, false
	}
	return entries[i], true
}

// lookup answers for path: its position, and whether its value or one above it was
// refused (see lookupEntries).
func (t *positions) lookup(path string) (pos Position, refused bool) {
	t.index()
	return lookupEntries(t.find, t.start, path)
}

// lookupEntries is positions.lookup over the entries find finds, with start for a path
// nothing recorded is above.
//
// A path the decoder recorded is answered by its own entry, which holds whether a path
// above it was refused: its text is hashed, not parsed (a map key may hold "." "[" and
// "]", so the text alone does not say where the path's parents end). A path it did not
// record, one that leads nowhere (a required field that is missing), is at its nearest
// recorded parent: the longest prefix of its text that ends where a segment can end
// (before a "." or a "[") and that was recorded.
func lookupEntries(find func(uint64) (entry, bool), start Position, path string) (pos Position, refused bool) {
	pos = start
	if path == "<nil>" { // a nil *field.Path: the document itself
		path = ""
	}
	if e, ok := find(hashPathString(path)); ok && e.line != 0 {
		return e.pos(), e.refused()
	}
	var h maphash.Hash
	h.SetSeed(pathSeed)
	from := 0
	for i := 0; i <= len(path); i++ {
		if i < len(path) && path[i] != '.' && path[i] != '[' {
			continue
		}
		h.WriteString(path[from:i])
		from = i
		if e, ok := find(h.Sum64()); ok {
			if e.line != 0 {
				pos = e.pos()
			}
			refused = e.refused() // the longest recorded prefix holds those above it
		}
	}
	return pos, refused
}

// place returns the position of a finding of the decoder's own, and its type.
func (t *positions) place(e *field.Error) (Position, FindingType, bool) {
	own, ok := t.own[e]
	if !ok {
		return Position{}, "", false
	}
	if own.pos.Line == 0 {
		own.pos, _ = t.lookup(e.Field)
	}
	return own.pos, own.typ, true
}
