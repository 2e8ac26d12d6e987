package validate

import (
	"github.com/amlarc-go/instancetypes/internal/clip"
)

// MaxValueLen is the longest user-supplied text a finding repeats, as its bad value or in
// a detail this package writes. Longer text is cut to this many bytes (at a UTF-8
// boundary) and marked with the length it had, so that a 1 MB value cannot make a 1 MB
// message. Field paths are never cut: they must still lead to the offending line. Packages
// resolve and fit cut their messages the same way, at the same length.
const MaxValueLen = clip.MaxLen
