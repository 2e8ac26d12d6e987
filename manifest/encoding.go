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
// UTF-8. UTF-32, and UTF-16 without a mark, kubectl reads as UTF-8 and refuses, for the NUL
// bytes: here each is one finding that names the encoding.

// encodingProblem is a file kubectl cannot read for its encoding, or a flaw of its UTF-16.
type encodingProblem struct {
	line   int // where: the last line for a flaw at the end, else 1
	detail string
	fatal  bool // nothing of the file is read
}

// decodeText returns data as UTF-8 text, as kubectl's reader has it, with the problem of
// its encoding, if any. A fatal problem leaves nothing to read.
func decodeText(data []byte) ([]byte, *encodingProblem) {
	switch {
	case bytes.HasPrefix(data, []byte{0x00, 0x00, 0xfe, 0xff}):
		return nil, &encodingProblem{line: 1, fatal: true, detail: "the file is UTF-32 (big-endian, by its byte order mark), which kubectl does not read: save it as UTF-8"}
	case bytes.HasPrefix(data, []byte{0xff, 0xfe, 0x00, 0x00}):
		return nil, &encodingProblem{line: 1, fatal: true, detail: "the file is UTF-32 (little-endian, by its byte order mark), which kubectl does not read: save it as UTF-8"}
	case bytes.HasPrefix(data, []byte{0xef, 0xbb, 0xbf}):
		return data[3:], nil
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return fromUTF16(data[2:], true)
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		return fromUTF16(data[2:], false)
	}
	if order, ok := unmarkedUTF16(data); ok {
		return nil, &encodingProblem{line: 1, fatal: true, detail: "the file looks like UTF-16 (" + order +
			") without a byte order mark: every other byte is 0; kubectl reads it as UTF-8 and refuses it: save it as UTF-8"}
	}
	return data, nil
}

// fromUTF16 converts UTF-16 text, big- or little-endian, to UTF-8. A last byte that makes
// no code unit is a problem, and dropped (kubectl's decoder makes it U+FFFD, which then
// breaks the YAML: one finding here says what is wrong).
func fromUTF16(data []byte, bigEndian bool) ([]byte, *encodingProblem) {
	out := make([]byte, 0, len(data)+len(data)/2)
	units := len(data) / 2
	for i := 0; i < units; i++ {
		u := unit(data, i, bigEndian)
		switch {
		case utf16.IsSurrogate(rune(u)) && u < 0xdc00 && i+1 < units:
			if next := unit(data, i+1, bigEndian); next >= 0xdc00 && next < 0xe000 {
				out = utf8.AppendRune(out, utf16.DecodeRune(rune(u), rune(next)))
				i++
				continue
			}
			out = utf8.AppendRune(out, utf8.RuneError)
		case utf16.IsSurrogate(rune(u)):
			out = utf8.AppendRune(out, utf8.RuneError)
		default:
			out = utf8.AppendRune(out, rune(u))
		}
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
