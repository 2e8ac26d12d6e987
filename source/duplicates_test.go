package source

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Keys kubectl reads as one are one key set twice, however they are written: the key is
// kubectl's (its JSON key), and the value in effect the last.
func TestDuplicatesAsKubectlReadsKeys(t *testing.T) {
	for _, tt := range []struct {
		data string
		want []string // PATH KEY LINE FIRST
	}{
		{"a:\n  1: x\n  0x1: y\n", []string{"a 1 3 2"}},
		{"a:\n  010: x\n  8: y\n", []string{"a 8 3 2"}},
		{"a:\n  yes: x\n  true: y\n  on: z\n", []string{"a true 3 2", "a true 4 2"}},
		{"a:\n  !!str 1: x\n  '1': y\n", []string{"a 1 3 2"}},
		{"a:\n  &k x: 1\n  *k : 2\n", []string{"a x 3 2"}},
		{"l:\n- {k: 1, k: 2}\n- {b: 1}\n", []string{"l[0] k 2 2"}},
		{"0x1:\n  a: 1\n  a: 2\n", []string{"1 a 3 2"}},
		// Keys of different text that kubectl reads as different keys are none.
		{"a:\n  \"1\": x\n  \"01\": y\n  k: 1\n  k: 2\n", []string{"a k 5 4"}},
	} {
		var d *Document
		Scan([]byte(tt.data), Options{}, func(x *Document) bool { d = x; return false })
		if d.Problem != nil || !d.HasDuplicates() {
			t.Errorf("Scan(%q): problem %v, HasDuplicates %v; want duplicates", tt.data, d.Problem, d.HasDuplicates())
			continue
		}
		var got []string
		for _, dup := range d.Duplicates() {
			var p []string
			for _, s := range dup.Path {
				if s.IsIndex {
					p[len(p)-1] += fmt.Sprintf("[%d]", s.Index)
				} else {
					p = append(p, s.Key)
				}
			}
			got = append(got, fmt.Sprintf("%s %s %d %d", strings.Join(p, "."), dup.Key, dup.At.Line, dup.First.Line))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Scan(%q).Duplicates() = %q; want %q", tt.data, got, tt.want)
		}
	}
}

// A key set twice is found in a mapping of any size, first, last or in the middle, and
// many distinct keys are none; the value in effect is the last.
func TestDuplicatesInLargeMappings(t *testing.T) {
	for _, n := range []int{3, 16, 17, 40, 4000} {
		for _, dup := range []int{-1, 0, n / 2, n - 1} {
			var b strings.Builder
			b.WriteString("labels:\n")
			for i := range n {
				fmt.Fprintf(&b, "  k%d: v\n", i)
			}
			if dup >= 0 {
				fmt.Fprintf(&b, "  k%d: again\n", dup)
			}
			var d *Document
			Scan([]byte(b.String()), Options{}, func(x *Document) bool { d = x; return false })
			var got []string
			for _, x := range d.Duplicates() {
				got = append(got, fmt.Sprintf("%s %d %d", x.Key, x.At.Line, x.First.Line))
			}
			var want []string
			if dup >= 0 {
				want = []string{fmt.Sprintf("k%d %d %d", dup, n+2, dup+2)}
			}
			if !slices.Equal(got, want) || d.HasDuplicates() != (dup >= 0) {
				t.Errorf("%d keys, k%d again: Duplicates() = %q, HasDuplicates %v; want %q", n, dup, got, d.HasDuplicates(), want)
			}
			labels := d.Value.(map[string]any)["labels"].(map[string]any)
			if len(labels) != n || dup >= 0 && labels[fmt.Sprintf("k%d", dup)] != "again" {
				t.Errorf("%d keys, k%d again: %d labels; want %d, the last value in effect", n, dup, len(labels), n)
			}
		}
	}
}
