package manifest

import (
	"hash/maphash"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// positions is the one table of a document's positions, filled as the document is decoded
// and read by every later question: Position, Refused and Locate. It holds
//
//   - for the path of each field, map entry and list item the decoder decodes, the position
//     of its key (of the item, for a list item), and whether decoding refused its value;
//   - for each finding the decoder made itself, its position and type.
//
// Paths are keyed by a seeded hash of their text (as field.Path.String renders them), so
// that the table holds no strings and a lookup builds none: the decoder hashes the text of
// its path stack; a question hashes the text it is asked about, every prefix that ends a
// segment in one pass, to find the nearest recorded parent of a path that leads nowhere.
// Its cost is that of the path's text, whatever the size of the document.
type positions struct {
	byPath map[uint64]place
	own    map[*field.Error]ownFinding
	start  Position // the document's first line, for a path nothing recorded is above
}

// place is what is recorded of one path.
type place struct {
	line, column int32
	refused      bool // decoding refused the value there (a value of the wrong type)
	set          bool // line and column are set (a refusal may be recorded first)
}

// ownFinding is where a finding of the decoder's own is, and its type ("" for a finding
// about a field's value).
type ownFinding struct {
	pos Position
	typ FindingType
}

// pathSeed seeds the hashes of paths: a key of a document cannot be chosen to make its path
// collide with another's.
var pathSeed = maphash.MakeSeed()

func hashPath(text []byte) uint64 { return maphash.Bytes(pathSeed, text) }

func newPositions(start Position) *positions {
	return &positions{byPath: make(map[uint64]place), start: start}
}

// set records pos as the position of the path whose text is given, unless one is recorded.
func (t *positions) set(text []byte, pos Position) {
	h := hashPath(text)
	p := t.byPath[h]
	if !p.set {
		p.line, p.column, p.set = int32(pos.Line), int32(pos.Column), true
		t.byPath[h] = p
	}
}

// refuse records that decoding refused the value of the path whose text is given.
func (t *positions) refuse(text []byte) {
	h := hashPath(text)
	p := t.byPath[h]
	p.refused = true
	t.byPath[h] = p
}

// addOwn records a finding of the decoder's own, at pos.
func (t *positions) addOwn(e *field.Error, pos Position, typ FindingType) {
	if t.own == nil {
		t.own = make(map[*field.Error]ownFinding)
	}
	t.own[e] = ownFinding{pos, typ}
}

// lookup answers for path: the position of the longest recorded path that is path or a
// parent of it (one that ends where a segment of path ends: before a "." or a "["), or
// the document's start; and whether path or a parent of it was refused.
func (t *positions) lookup(path string) (pos Position, refused bool) {
	pos = t.start
	if path == "<nil>" { // a nil *field.Path: the document itself
		path = ""
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
		if p, ok := t.byPath[h.Sum64()]; ok {
			if p.set {
				pos = Position{Line: int(p.line), Column: int(p.column)}
			}
			refused = refused || p.refused
		}
	}
	return pos, refused
}
