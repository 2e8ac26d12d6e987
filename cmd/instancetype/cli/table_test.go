package cli

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// wrap leaves nothing out, makes no line longer than asked, and keeps a text that fits.
func TestWrap(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		at   breaks
		want []string
	}{
		{"cpu=1,memory=2Gi", 20, cellBreaks, []string{"cpu=1,memory=2Gi"}},
		{"cpu=1,memory=2Gi,nvidia.com/gpu=1", 17, cellBreaks, []string{"cpu=1,memory=2Gi,", "nvidia.com/gpu=1"}},
		{"arc-typo (type unknown)", 14, cellBreaks, []string{"arc-typo", "(type unknown)"}},
		{"examples/manifests/deployment.yaml:1", 20, pathBreaks, []string{"examples/manifests/", "deployment.yaml:1"}},
		{"deployment/the-blue-deployment", 20, cellBreaks, []string{"deployment/the-blue-", "deployment"}},
		{"abcdefghij", 4, cellBreaks, []string{"abcd", "efgh", "ij"}},
		{"node selector a=b; requests cpu=1", 16, noteBreaks, []string{"node selector", "a=b; requests", "cpu=1"}},
	} {
		if got := wrap(tt.s, tt.n, tt.at); !equal(got, tt.want) {
			t.Errorf("wrap(%q, %d) = %q; want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// wrap leaves nothing out and makes no line longer than asked, whatever the text.
func TestWrapProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[a-zé0-9=,/ ().-]{0,80}`).Draw(t, "s")
		n := rapid.IntRange(1, 40).Draw(t, "n")
		at := breaks(rapid.IntRange(0, 2).Draw(t, "breaks"))
		lines := wrap(s, n, at)
		for _, l := range lines {
			if width(l) > n {
				t.Fatalf("wrap(%q, %d): line %q longer than %d", s, n, l, n)
			}
		}
		if got, want := strings.ReplaceAll(strings.Join(lines, ""), " ", ""), strings.ReplaceAll(s, " ", ""); got != want {
			t.Fatalf("wrap(%q, %d) = %q: left out or changed text", s, n, lines)
		}
		if width(s) <= n && (len(lines) != 1 || lines[0] != s) {
			t.Fatalf("wrap(%q, %d) = %q; want it whole", s, n, lines)
		}
	})
}

// A table fits 120 columns whatever its cells, with each row's cells starting in their
// columns.
func TestTableFits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tb := table{header: []string{"WORKLOAD", "NAME", "COMPUTE", "INSTANCE TYPE", "STATUS", "NODES"}, last: []bool{true}}
		cell := rapid.StringMatching(`[a-z0-9=,/ ().:-]{1,90}`)
		rows := rapid.IntRange(0, 5).Draw(t, "rows")
		for range rows {
			var row []string
			for range tb.header {
				row = append(row, strings.TrimSpace(cell.Draw(t, "cell")+"x"))
			}
			tb.rows = append(tb.rows, row)
			tb.notes = append(tb.notes, cell.Draw(t, "note"))
		}
		var b strings.Builder
		if err := tb.write(&b); err != nil {
			t.Fatal(err)
		}
		out := strings.TrimSuffix(b.String(), "\n")
		for _, l := range strings.Split(out, "\n") {
			if width(l) > tableWidth || strings.HasSuffix(l, " ") || l == "" {
				t.Fatalf("line %q: %d characters, trailing blanks, or empty; want at most %d\n%s", l, width(l), tableWidth, out)
			}
		}
		if !strings.HasPrefix(out, "WORKLOAD") {
			t.Fatalf("no header:\n%s", out)
		}
	})
}

func equal(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n") && len(a) == len(b)
}
