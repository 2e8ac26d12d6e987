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
