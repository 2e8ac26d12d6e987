package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"short", "short"},
		{strings.Repeat("a", MaxLen), strings.Repeat("a", MaxLen)},
		{strings.Repeat("a", MaxLen+1), strings.Repeat("a", MaxLen) + "... (257 bytes)"},
		// A character across the cut is left out whole.
		{strings.Repeat("a", MaxLen-1) + "é", strings.Repeat("a", MaxLen-1) + "... (257 bytes)"},
	} {
		if got := String(tt.in); got != tt.want || !utf8.ValidString(got) {
			t.Errorf("String(%d bytes) = %q; want %q", len(tt.in), got, tt.want)
		}
	}
}

func TestTo(t *testing.T) {
	for _, tt := range []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc... (4 bytes)"},
		{"aé", 2, "a... (3 bytes)"}, // é is not cut
	} {
		if got := To(tt.in, tt.max); got != tt.want {
			t.Errorf("To(%q, %d) = %q; want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
