package manifest

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// decodeRune replaces invalid UTF-8 as kubectl's reader does (golang.org/x/text's UTF-8
// decoder, kubectlText): text decoded rune by rune with it equals kubectlText of the bytes,
// for bytes drawn mostly from the edges of UTF-8's ranges.
func TestDecodeRuneAgreesWithKubectl(t *testing.T) {
	edges := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
		0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff}
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom(edges), rapid.Byte()), 0, 12).Draw(t, "bytes")
		var ours []byte
		for rest := b; len(rest) > 0; {
			r, size := decodeRune(rest)
			if size < 1 || size > len(rest) {
				t.Fatalf("decodeRune(%q) size %d", rest, size)
			}
			ours = utf8.AppendRune(ours, r)
			rest = rest[size:]
		}
		if want := kubectlText(b); !bytes.Equal(ours, want) && !bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}) && !bytes.HasPrefix(b, []byte{0xfe, 0xff}) && !bytes.HasPrefix(b, []byte{0xff, 0xfe}) {
			t.Fatalf("%q: we read %q, kubectl %q", b, ours, want)
		}
	})
}

// fromUTF16 converts as kubectl's decoder (golang.org/x/text's, behind its byte order mark)
// does, for code units drawn mostly from the edges of the surrogate ranges: a low surrogate
// followed by another is one U+FFFD, as it is to kubectl (FuzzOracle found "\xff\xfe"
// followed by two low surrogates read as two).
func TestFromUTF16AgreesWithKubectl(t *testing.T) {
	edges := []uint16{0x0000, 0x000a, 0x0041, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfeff, 0xfffe, 0xffff}
	rapid.Check(t, func(t *rapid.T) {
		units := rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom(edges), rapid.Uint16()), 0, 8).Draw(t, "units")
		big := rapid.Bool().Draw(t, "bigEndian")
		data := []byte{0xff, 0xfe}
		if big {
			data = []byte{0xfe, 0xff}
		}
		for _, u := range units {
			if big {
				data = append(data, byte(u>>8), byte(u))
			} else {
				data = append(data, byte(u), byte(u>>8))
			}
		}
		ours, problem := fromUTF16(data[2:], big)
		if want := kubectlText(data); problem != nil || !bytes.Equal(ours, want) {
			t.Fatalf("% x: we read %q (%v), kubectl %q", data, ours, problem, want)
		}
	})
}
