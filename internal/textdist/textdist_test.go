package textdist

import (
	"math/rand/v2"
	"testing"
)

// osaReference is the optimal string alignment distance, ignoring ASCII case, by the
// full dynamic programme: the slow, obviously correct reference for Distance.
func osaReference(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if lowerASCII(a[i-1]) == lowerASCII(b[j-1]) {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && lowerASCII(a[i-1]) == lowerASCII(b[j-2]) && lowerASCII(a[i-2]) == lowerASCII(b[j-1]) {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// TestEditDistanceBandAgreesWithFullTable compares the banded distance with the full one
// on random near-equal names over a small alphabet, where edits collide often.
func TestEditDistanceBandAgreesWithFullTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const alphabet = "abAB-1"
	word := func(n int) []byte {
		w := make([]byte, n)
		for i := range w {
			w[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return w
	}
	for range 20000 {
		a := word(rng.IntN(12))
		b := append([]byte(nil), a...)
		for range rng.IntN(5) { // a few random edits
			switch p := rng.IntN(len(b) + 1); rng.IntN(3) {
			case 0:
				b = append(b[:p], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[p:]...)...)
			case 1:
				if p < len(b) {
					b = append(b[:p], b[p+1:]...)
				}
			case 2:
				if p+1 < len(b) {
					b[p], b[p+1] = b[p+1], b[p]
				}
			}
		}
		limit := rng.IntN(4)
		want := min(osaReference(string(a), string(b)), limit+1)
		if got := Distance(string(a), string(b), limit); got != want {
			t.Fatalf("Distance(%q, %q, %d) = %d; want %d", a, b, limit, got, want)
		}
	}
}

func TestEditDistanceFold(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", 3, 0},
		{"abc", "", 3, 3},
		{"", "abc", 2, 3},
		{"abc", "ABC", 3, 0},
		{"abc", "acb", 3, 1},
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 2, 3},
		{"ca", "abc", 3, 3}, // OSA, not Damerau: no edit of a transposed pair
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d; want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}
