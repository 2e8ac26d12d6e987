package safetext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/printers"
)

func TestLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"gpu-pool", "gpu-pool"},
		{"caf\u00e9 ✓", "caf\u00e9 ✓"},
		{"a\x1b]0;title\ab", `a\x1b]0;title\ab`},
		{"\x1b[2Jcleared", `\x1b[2Jcleared`},
		{"one\n::warning::forged", `one\n::warning::forged`},
		{"cr\rover", `cr\rover`},
		{"tab\there", `tab\there`},
		{"del\x7f", `del\x7f`},
		{"csi\u009b2J", `csi\u009b2J`},
		{"rtl\u202eoverride", `rtl\u202eoverride`},
		{"bad\xffutf8", `bad\xffutf8`},
	} {
		got := Line(tt.in)
		if got != tt.want {
			t.Errorf("Line(%q) = %q; want %q", tt.in, got, tt.want)
		}
		// kubectl's fix of CVE-2021-25743 finds nothing left to escape.
		if printers.EscapeTerminal(got) != got {
			t.Errorf("Line(%q) = %q: kubectl's EscapeTerminal would change it", tt.in, got)
		}
	}
}

var sink string

func TestLineCleanDoesNotAllocate(t *testing.T) {
	s := "instance type gpu-large on pool gpupool"
	if n := testing.AllocsPerRun(100, func() { sink = Line(s) }); n != 0 {
		t.Errorf("Line(clean text) allocates %v times", n)
	}
}

func TestMessage(t *testing.T) {
	got := Message(strings.Repeat("\x1b", 5000))
	if len(got) > 4*MaxMessage+40 || strings.ContainsRune(got, 0x1b) || !strings.HasSuffix(got, "... (5000 bytes)") {
		t.Errorf("Message(5000 ESC) = %d bytes ending %q", len(got), got[max(0, len(got)-30):])
	}
}

// JSON escapes what encoding/json leaves, and decodes to the same values.
func TestJSON(t *testing.T) {
	values := []string{"plain", "del\x7f", "csi\u009b[2J", "rtl\u202e", "tag\U000E0041", "esc\x1b]0;t\a", "ok é ✓"}
	b, err := json.Marshal(values)
	if err != nil {
		t.Fatal(err)
	}
	got := JSON(b)
	for _, c := range []string{"\x7f", "\u009b", "\u202e", "\U000E0041", "\x1b", "\a"} {
		if bytes.Contains(got, []byte(c)) {
			t.Errorf("JSON(%s) = %s: holds %q", b, got, c)
		}
	}
	var back []string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("JSON(%s) = %s: %v", b, got, err)
	}
	for i := range values {
		if back[i] != values[i] {
			t.Errorf("JSON round trip of %q gives %q", values[i], back[i])
		}
	}
	clean := []byte(`{"a":"é"}`)
	if got := JSON(clean); &got[0] != &clean[0] {
		t.Errorf("JSON(clean) copied it")
	}
}

func TestGuard(t *testing.T) {
	for _, tt := range []struct {
		in   string
		text string
		json string
	}{
		{"plain\n", "plain\n", "plain\n"},
		{"::warning::forged\n", `\x3a:warning::forged` + "\n", `\u003a:warning::forged` + "\n"},
		{"  ::error file=x::y\n", `  \x3a:error file=x::y` + "\n", `  \u003a:error file=x::y` + "\n"},
		{"pool ##[error]x\n", `pool ##\x5berror]x` + "\n", `pool ##\u005berror]x` + "\n"},
		{"a ##vso[task.setvariable]x\n", `a ##vso\x5btask.setvariable]x` + "\n", `a ##vso\u005btask.setvariable]x` + "\n"},
		{"::x ##[y\n", `\x3a:x ##\x5by` + "\n", `\u003a:x ##\u005by` + "\n"},
		{"a::b ## [c\n", "a::b ## [c\n", "a::b ## [c\n"},
		{"no break ::x", "no break ::x", "no break ::x"},
		{"x\n::y", "x\n" + `\x3a:y`, "x\n" + `\u003a:y`},
	} {
		for _, style := range []struct {
			s    Style
			want string
		}{{Text, tt.text}, {JSONText, tt.json}} {
			var b bytes.Buffer
			g := NewGuard(&b, style.s)
			// Written a byte at a time: lines are guarded whole.
			for i := range len(tt.in) {
				if _, err := g.Write([]byte{tt.in[i]}); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.Flush(); err != nil {
				t.Fatal(err)
			}
			if b.String() != style.want {
				t.Errorf("guard(%q) = %q; want %q", tt.in, b.String(), style.want)
			}
		}
	}
	// The JSON style keeps JSON's values.
	var b bytes.Buffer
	g := NewGuard(&b, JSONText)
	json.NewEncoder(g).Encode([]string{"::a", "##[b"})
	g.Flush()
	var back []string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back[0] != "::a" || back[1] != "##[b" {
		t.Errorf("guarded JSON %s decodes to %q, %v", b.String(), back, err)
	}
}
