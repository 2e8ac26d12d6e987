package notebook

import (
	"strings"
	"testing"
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
			for _, l := range c.Lines {
				if l < 1 || l > lines {
					t.Fatalf("cell %d: line %d of %d", c.Number, l, lines)
				}
			}
			c.Python()
		}
	})
}
