package selector_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/selector"
)

// labelSeeds is the seed corpus of the differential fuzz targets: each entry
// sits on or next to an edge of the grammar.
var labelSeeds = []string{
	"",                                 // empty: a valid value, not a valid key
	"a",                                // shortest name
	strings.Repeat("a", 63),            // longest name and value
	strings.Repeat("a", 64),            // one byte too long
	prefix253 + "/a",                   // longest prefix
	prefix254 + "/a",                   // prefix one byte too long
	strings.Repeat("a", 254) + "/a",    // one-label prefix, too long
	strings.Repeat("a", 64) + ".io/a",  // a prefix label over DNS's 63, still accepted
	"a/",                               // empty name
	"/a",                               // empty prefix
	"/",                                // both empty
	"a/b/c",                            // two slashes
	"Example.com/a",                    // uppercase prefix
	"example.com/A",                    // uppercase name is fine
	"pööl",                             // non-ASCII (valid UTF-8)
	"p\xffl",                           // invalid UTF-8
	"é.com/a",                          // non-ASCII prefix
	"-a",                               // leading '-'
	"a-",                               // trailing '-'
	"a.b",                              // '.' inside a name
	"_a",                               // leading '_'
	"a_b",                              // '_' inside a name
	"a b",                              // space
	"a\n",                              // trailing newline: regexp's $ must not let it through
	"a..b.com/c",                       // empty prefix label
	"a-.b/c",                           // prefix label ending in '-'
	"a.-b/c",                           // prefix label starting with '-'
	"a_b.com/c",                        // '_' in a prefix
	"kubernetes.io/os",                 // typical
	"node.kubernetes.io/instance-type", // typical
}

// FuzzLabelKey checks ValidLabelKey against content.IsLabelKey.
func FuzzLabelKey(f *testing.F) {
	for _, s := range labelSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := selector.ValidLabelKey(s), refKey(s); got != want {
			t.Errorf("ValidLabelKey(%q) = %v; content.IsLabelKey says %v", s, got, want)
		}
		checkKeyDetail(t, s)
	})
}

// FuzzLabelValue checks ValidLabelValue against content.IsLabelValue.
func FuzzLabelValue(f *testing.F) {
	for _, s := range labelSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := selector.ValidLabelValue(s), refValue(s); got != want {
			t.Errorf("ValidLabelValue(%q) = %v; content.IsLabelValue says %v", s, got, want)
		}
		checkValueDetail(t, s)
	})
}

// Generators of near-valid label keys: valid pieces whose lengths cluster on
// the limits, then a few single-byte mutations, so that about half of the
// keys drawn are valid and the rest fail in one place.

const (
	lowerAlnum  = "abcdefghijklmnopqrstuvwxyz0123456789"
	alnum       = lowerAlnum + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	trickyBytes = "-_./aZ0 \x00\xc3\xa9\xff"
)

// pieceLen draws a length that is either short or on the edge of limit.
func pieceLen(t *rapid.T, label string, limit int) int {
	return rapid.OneOf(
		rapid.IntRange(1, 4),
		rapid.IntRange(limit-1, limit+1),
	).Draw(t, label)
}

// word draws n bytes that start and end in ends and hold inner inside.
func word(t *rapid.T, label string, n int, ends, inner string) []byte {
	b := make([]byte, n)
	for i := range b {
		set := inner
		if i == 0 || i == n-1 {
			set = ends
		}
		b[i] = set[rapid.IntRange(0, len(set)-1).Draw(t, label)]
	}
	return b
}

var genName = rapid.Custom(func(t *rapid.T) []byte {
	return word(t, "name", pieceLen(t, "nameLen", 63), alnum, alnum+"-_.")
})

var genPrefix = rapid.Custom(func(t *rapid.T) []byte {
	if rapid.Bool().Draw(t, "longPrefix") {
		// Dotted labels totalling 252, 253 or 254 bytes.
		total := rapid.IntRange(252, 254).Draw(t, "prefixLen")
		var b []byte
		for len(b) < total {
			if len(b) > 0 {
				b = append(b, '.')
			}
			n := min(rapid.IntRange(1, 70).Draw(t, "labelLen"), max(total-len(b), 1))
			b = append(b, word(t, "label", n, lowerAlnum, lowerAlnum+"-")...)
		}
		return b
	}
	var b []byte
	for i := range rapid.IntRange(1, 3).Draw(t, "labels") {
		if i > 0 {
			b = append(b, '.')
		}
		b = append(b, word(t, "label", pieceLen(t, "labelLen", 63), lowerAlnum, lowerAlnum+"-")...)
	}
	return b
})

var genNearValidKey = rapid.Custom(func(t *rapid.T) string {
	var b []byte
	if rapid.Bool().Draw(t, "hasPrefix") {
		b = append(genPrefix.Draw(t, "prefix"), '/')
	}
	b = append(b, genName.Draw(t, "name")...)
	for range rapid.IntRange(0, 2).Draw(t, "mutations") {
		i := rapid.IntRange(0, len(b)-1).Draw(t, "at")
		c := trickyBytes[rapid.IntRange(0, len(trickyBytes)-1).Draw(t, "byte")]
		switch rapid.IntRange(0, 2).Draw(t, "op") {
		case 0: // replace
			b[i] = c
		case 1: // insert
			b = append(b[:i], append([]byte{c}, b[i:]...)...)
		case 2: // delete
			b = append(b[:i], b[i+1:]...)
		}
		if len(b) == 0 {
			break
		}
	}
	return string(b)
})

func checkNearValidKey(t *rapid.T) {
	s := genNearValidKey.Draw(t, "key")
	if got, want := selector.ValidLabelKey(s), refKey(s); got != want {
		t.Fatalf("ValidLabelKey(%q) = %v; content.IsLabelKey says %v", s, got, want)
	}
	if got, want := selector.ValidLabelValue(s), refValue(s); got != want {
		t.Fatalf("ValidLabelValue(%q) = %v; content.IsLabelValue says %v", s, got, want)
	}
}

func TestNearValidKeys(t *testing.T) { rapid.Check(t, checkNearValidKey) }

// FuzzNearValidKeys runs the same property under go test -fuzz.
func FuzzNearValidKeys(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkNearValidKey)) }

// TestNearValidKeysMix guards the generator itself: it must yield both
// valid and invalid keys, or the differential property above proves little.
func TestNearValidKeysMix(t *testing.T) {
	valid, invalid := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		if refKey(genNearValidKey.Draw(t, "key")) {
			valid++
		} else {
			invalid++
		}
	})
	if valid < 10 || invalid < 10 {
		t.Errorf("near-valid key generator drew %d valid and %d invalid keys; want a mix", valid, invalid)
	}
}
