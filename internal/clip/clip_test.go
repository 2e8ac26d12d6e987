package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	short := strings.Repeat("a", MaxLen)
	if got := String(short); got != short {
		t.Errorf("String(%d bytes) cut it to %q", len(short), got)
	}
	long := strings.Repeat("a", 1<<20)
	got := String(long)
	if want := strings.Repeat("a", MaxLen) + "... (1048576 bytes)"; got != want {
		t.Errorf("String(1 MiB) = %q; want %q", got, want)
	}
	// A cut never splits a rune.
	runes := strings.Repeat("é", MaxLen)
	if got := String(runes); !utf8.ValidString(got) || len(got) > MaxLen+len("... (512 bytes)") {
		t.Errorf("String(%d bytes of é) = %q: invalid UTF-8 or too long", len(runes), got)
	}
}

func TestQuote(t *testing.T) {
	if got, want := Quote("a\nb"), `"a\nb"`; got != want {
		t.Errorf("Quote(%q) = %s; want %s", "a\nb", got, want)
	}
	if got := Quote(strings.Repeat("x", 10000)); len(got) > MaxLen+40 {
		t.Errorf("Quote(10000 bytes) has %d bytes", len(got))
	}
}

var sink string

func TestStringDoesNotAllocateShortText(t *testing.T) {
	s := strings.Repeat("a", MaxLen)
	if n := testing.AllocsPerRun(100, func() { sink = String(s) }); n != 0 {
		t.Errorf("String(short) allocates %v times", n)
	}
}
