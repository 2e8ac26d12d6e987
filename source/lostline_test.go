package source

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// kubectl's line reader loses a last line without a line break whose length, in the text
// it decodes, is a multiple of its buffer's (4,096 bytes): File.LostLine says which, and
// Scan reads the rest as kubectl does.
func TestLostLastLine(t *testing.T) {
	head := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: a\n"
	label := func(n int) string { return "  x: " + strings.Repeat("v", n-len("  x: ")) } // n bytes
	tests := []struct {
		name string
		data string
		lost int // the line lost, or 0
	}{
		{"4,095 bytes", head + label(4095), 0},
		{"4,096 bytes", head + label(4096), 5},
		{"4,097 bytes", head + label(4097), 0},
		{"8,192 bytes", head + label(8192), 5},
		{"4,096 bytes and a line break", head + label(4096) + "\n", 0},
		{"4,096 bytes after CRLF lines", strings.ReplaceAll(head, "\n", "\r\n") + label(4096), 5},
		// A piece that would end in a carriage return ends before it.
		{"a carriage return at 4,096", head + label(4095) + "\r", 0},
		{"a carriage return at 4,096 of 4,097", head + label(4095) + "\rv", 0},
		{"a carriage return at 4,096 of 8,191", head + label(4095) + "\r" + strings.Repeat("v", 4095), 5},
		// Invalid UTF-8 is U+FFFD, three bytes, to kubectl's decoder; behind a UTF-8 mark it
		// is kept.
		{"invalid UTF-8 making 4,096", head + "#" + strings.Repeat("\xc5", 1365), 5},
		{"invalid UTF-8 behind a mark", "\xef\xbb\xbf" + head + "#" + strings.Repeat("\xc5", 1365), 0},
		{"bytes behind a mark", "\xef\xbb\xbf" + head + label(4096), 5},
		{"a line alone", strings.Repeat("#", 4096), 1},
		// After a JSON value kubectl reads YAML from where the value ends (past white
		// space, up to and including a line break): its line reader counts from there.
		{"YAML after JSON on its line", `{"kind": "InstanceType"} ` + "x: " + strings.Repeat("v", 4093), 1},
		{"YAML after JSON, one line of it", `{"kind": "InstanceType"}` + "\n" + "x: " + strings.Repeat("v", 4093), 2},
		{"YAML after JSON, 4,096 bytes of the line", `{"kind": "InstanceType"} ` + "x: " + strings.Repeat("v", 4093-26), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Scan([]byte(tt.data), Options{}, func(*Document) bool { return true })
			if f.LostLine != tt.lost {
				t.Errorf("LostLine = %d; want %d", f.LostLine, tt.lost)
			}
			if err := agree([]byte(tt.data)); err != nil {
				t.Error(err)
			}
		})
	}
}

// Around multiples of the buffer, with carriage returns, invalid and multi-byte UTF-8 and
// a byte order mark, the last line is read as kubectl's reader reads it.
func TestLostLastLineProperty(t *testing.T) {
	// Each piece with its length to kubectl's reader, without a mark (invalid UTF-8 is
	// U+FFFD, three bytes) and behind one (the bytes as they are).
	pieces := []struct {
		text          string
		plain, marked int
	}{
		{"v", 1, 1}, {"v", 1, 1}, {"v", 1, 1}, {"\r", 1, 1}, {"\xc5", 3, 1}, {"\xe7\xb7", 3, 2}, {"é", 2, 2},
		{"\ufffd", 3, 3}, {": ", 2, 2}, {"#", 1, 1},
	}
	lost := 0
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		marked := rapid.Bool().Draw(t, "mark")
		if marked {
			b.WriteString("\xef\xbb\xbf")
		}
		b.WriteString("a: 1\n")
		// The last line, to within a few bytes of a multiple of the buffer, as kubectl
		// counts them.
		target := 4096*rapid.IntRange(1, 2).Draw(t, "buffers") - rapid.IntRange(0, 2).Draw(t, "short")
		for n := 0; n < target; {
			p := rapid.SampledFrom(pieces).Draw(t, "piece")
			b.WriteString(p.text)
			if marked {
				n += p.marked
			} else {
				n += p.plain
			}
		}
		data := []byte(b.String())
		if Scan(data, Options{}, func(*Document) bool { return true }).LostLine > 0 {
			lost++
		}
		if err := agree(data); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
	})
	if lost == 0 {
		t.Errorf("no input drawn had its last line lost")
	}
}
