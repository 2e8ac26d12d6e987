package notebook

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds arbitrary bytes to Parse: it must return a notebook or an
// error, never panic, and every line it maps must be a line of the input.
func FuzzParse(f *testing.F) {
	f.Add([]byte(jupyter))
	f.Add([]byte(`{"cells": [{"cell_type": "code", "source": "a\nb"}]}`))
	f.Add([]byte(`{"cells": [{"source": ["a\n", "", "b"]}], "metadata": {"language_info": {"name": "python"}}}`))
	f.Add([]byte(`{"cells": [{"source": [`))
	f.Fuzz(func(t *testing.T, data []byte) {
		nb, err := Parse(data)
		if err != nil {
			if nb != nil {
				t.Fatal("a notebook with an error")
			}
			return
		}
		lines := strings.Count(string(data), "\n") + 1
		for _, c := range nb.Cells {
			fileLines := strings.Split(string(data), "\n")
			for n, l := range c.Lines {
				if l < 1 || l > lines {
					t.Fatalf("cell %d: line %d of %d", c.Number, l, lines)
				}
				// Every column FileColumn gives is one of that file line.
				for col := 1; col <= len(c.Source)+1 && col <= 256; col++ {
					if fc := c.FileColumn(n+1, col); fc < 0 || fc > utf8.RuneCountInString(fileLines[l-1]) {
						t.Fatalf("cell %d line %d: FileColumn(%d) = %d of %q", c.Number, n+1, col, fc, fileLines[l-1])
					}
				}
			}
			c.Python()
		}
	})
}
