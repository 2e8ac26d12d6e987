// Package textdist measures how far apart two short strings are, for "did you mean"
// suggestions.
package textdist

// MaxLen is the longest second argument Distance computes a distance for.
const MaxLen = 64

// Distance returns the optimal string alignment distance between a and b, ignoring
// ASCII case: the fewest insertions, deletions, substitutions and transpositions of two
// adjacent bytes that turn one into the other. Once the distance is sure to exceed limit
// it returns limit+1. Only the cells within limit of the diagonal are computed (the others
// exceed limit anyway), so the cost is len(a)×(2×limit+1), and it never allocates.
//
// Strings whose lengths differ by more than limit are limit+1 apart without a look. Other
// than that, b must be at most MaxLen bytes long, or Distance reports limit+1: it is
// meant for suggesting names, which are short.
func Distance(a, b string, limit int) int {
	over := limit + 1 // any value above limit
	if limit < 0 || abs(len(a)-len(b)) > limit || len(b) > MaxLen {
		return over
	}
	var rows [3][MaxLen + 1]int
	prev2, prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1], rows[2][:len(b)+1]
	for j := range prev {
		prev[j] = min(j, over)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		// The cell left of the band, and the one right of it that the next row reads.
		if lo == 1 {
			cur[0] = min(i, over)
		} else {
			cur[lo-1] = over
		}
		if hi < len(b) {
			cur[hi+1] = over
		}
		rowMin := cur[lo-1]
		ai := lowerASCII(a[i-1])
		for j := lo; j <= hi; j++ {
			bj := lowerASCII(b[j-1])
			cost := 1
			if ai == bj {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ai == lowerASCII(b[j-2]) && lowerASCII(a[i-2]) == bj {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = min(d, over)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return over
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], over)
}

// lowerASCII returns b lower-cased if it is an ASCII upper-case letter.
func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
