package manifest

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Files are read in the encodings kubectl reads: kubectl passes every file through a
// decoder that honours a byte order mark (golang.org/x/text's BOMOverride over UTF-8), so a
// file that starts with the UTF-16 mark FE FF (big-endian) or FF FE (little-endian, what
// PowerShell 5.1's > writes) is UTF-16, converted to UTF-8 before its documents are cut,
// unpaired surrogates becoming U+FFFD; a UTF-8 mark (EF BB BF) is dropped; anything else is
// UTF-8. UTF-32, with a mark or without one, and UTF-16 without a mark, kubectl reads as
// UTF-8 and refuses, for the NUL bytes: here each is one finding that names the encoding
// (the unmarked ones told by where the zero bytes of their first characters are).

// encodingProblem is a file kubectl cannot read for its encoding, or a flaw of its UTF-16.
type encodingProblem struct {
	line   int // where: the last line for a flaw at the end, else 1
	detail string
	fatal  bool // nothing of the file is read
}

// utf8Mark is the byte order mark of UTF-8.
var utf8Mark = []byte{0xef, 0xbb, 0xbf}

// decodeText returns data as UTF-8 text, as kubectl's reader has it, with the problem of
// its encoding, if any. A fatal problem leaves nothing to read.
func decodeText(data []byte) ([]byte, *encodingProblem) {
	switch {
	case bytes.HasPrefix(data, []byte{0x00, 0x00, 0xfe, 0xff}):
		return nil, &encodingProblem{line: 1, fatal: true, detail: "the file is UTF-32 (big-endian, by its byte order mark), which kubectl does not read: save it as UTF-8"}
	case bytes.HasPrefix(data, []byte{0xff, 0xfe, 0x00, 0x00}):
		return nil, &encodingProblem{line: 1, fatal: true, detail: "the file is UTF-32 (little-endian, by its byte order mark), which kubectl does not read: save it as UTF-8"}
	case bytes.HasPrefix(data, utf8Mark):
		return data[3:], nil
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return fromUTF16(data[2:], true)
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		return fromUTF16(data[2:], false)
	}
	if order, ok := unmarkedUTF32(data); ok {
		return nil, &encodingProblem{line: 1, fatal: true, detail: "the file looks like UTF-32 (" + order +
			") without a byte order mark: three bytes of every four are 0; kubectl reads it as UTF-8 and refuses it: save it as UTF-8"}
	}
	if order, ok := unmarkedUTF16(data); ok {
		return nil, &encodingProblem{line: 1, fatal: true, detail: "the file looks like UTF-16 (" + order +
			") without a byte order mark: every other byte is 0; kubectl reads it as UTF-8 and refuses it: save it as UTF-8"}
	}
	return data, nil
}

// fromUTF16 converts UTF-16 text, big- or little-endian, to UTF-8, as kubectl's decoder
// (golang.org/x/text's) does: a surrogate followed by a low surrogate is one character, or
// one U+FFFD when the first is not a high surrogate; any other surrogate is U+FFFD. A last
// byte that makes no code unit is a problem, and dropped (kubectl's decoder makes it
// U+FFFD, which then breaks the YAML: one finding here says what is wrong).
func fromUTF16(data []byte, bigEndian bool) ([]byte, *encodingProblem) {
	out := make([]byte, 0, len(data)+len(data)/2)
	units := len(data) / 2
	for i := 0; i < units; i++ {
		u := rune(unit(data, i, bigEndian))
		if utf16.IsSurrogate(u) && i+1 < units {
			if next := rune(unit(data, i+1, bigEndian)); next >= 0xdc00 && next < 0xe000 {
				out = utf8.AppendRune(out, utf16.DecodeRune(u, next)) // U+FFFD for two low ones
				i++
				continue
			}
		}
		out = utf8.AppendRune(out, u) // U+FFFD for a surrogate
	}
	if len(data)%2 == 1 {
		return out, &encodingProblem{line: lineCount(out), detail: "an incomplete UTF-16 character at the end of the file: it has an odd number of bytes"}
	}
	return out, nil
}

func unit(data []byte, i int, bigEndian bool) uint16 {
	if bigEndian {
		return uint16(data[2*i])<<8 | uint16(data[2*i+1])
	}
	return uint16(data[2*i+1])<<8 | uint16(data[2*i])
}

// unmarkedUTF16 reports text that reads as UTF-16 without a byte order mark: of its first
// (up to) 64 byte pairs, every one holds a 0 on the same side and a non-zero byte on the
// other, as ASCII text in UTF-16 does. It names the byte order.
func unmarkedUTF16(data []byte) (string, bool) {
	pairs := min(len(data)/2, 64)
	if pairs < 2 {
		return "", false
	}
	le, be := true, true
	for i := range pairs {
		a, b := data[2*i], data[2*i+1]
		le = le && a != 0 && b == 0
		be = be && a == 0 && b != 0
	}
	switch {
	case le:
		return "little-endian", true
	case be:
		return "big-endian", true
	}
	return "", false
}

// unmarkedUTF32 reports text that reads as UTF-32 without a byte order mark: each of its
// first (up to) 64 groups of four bytes is a character other than NUL, with the zero bytes
// of a code point below U+10000 all on the same side, as text in UTF-32 has them. It names
// the byte order. (UTF-16 text fails it: one of each two bytes is a character's.)
func unmarkedUTF32(data []byte) (string, bool) {
	quads := min(len(data)/4, 64)
	if quads < 1 {
		return "", false
	}
	le, be := true, true
	for i := range quads {
		q := data[4*i : 4*i+4]
		le = le && q[3] == 0 && q[2] == 0 && (q[0] != 0 || q[1] != 0)
		be = be && q[0] == 0 && q[1] == 0 && (q[2] != 0 || q[3] != 0)
	}
	switch {
	case le:
		return "little-endian", true
	case be:
		return "big-endian", true
	}
	return "", false
}

// decodeRune decodes the first UTF-8 character of b as kubectl's reader does (it reads
// every file through a UTF-8 decoder of golang.org/x/text): an invalid sequence is one
// U+FFFD for each maximal subpart, as Unicode recommends. A start of a valid sequence cut
// short ("\xe7\xb7", then not a continuation byte) is one U+FFFD for all its bytes, where
// utf8.DecodeRune gives one for each byte. size is at least 1 for a non-empty b.
func decodeRune(b []byte) (r rune, size int) {
	r, size = utf8.DecodeRune(b)
	if r != utf8.RuneError || size != 1 {
		return r, size
	}
	lo, hi, more := byte(0x80), byte(0xbf), 0 // the second byte's range, continuation bytes
	switch c := b[0]; {
	case c >= 0xc2 && c <= 0xdf:
		more = 1
	case c == 0xe0:
		lo, more = 0xa0, 2
	case c == 0xed:
		hi, more = 0x9f, 2
	case c >= 0xe1 && c <= 0xef:
		more = 2
	case c == 0xf0:
		lo, more = 0x90, 3
	case c >= 0xf1 && c <= 0xf3:
		more = 3
	case c == 0xf4:
		hi, more = 0x8f, 3
	}
	n := 1
	for ; n <= more && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xbf
	}
	return utf8.RuneError, n
}
