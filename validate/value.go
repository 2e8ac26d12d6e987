package validate

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxValueLen is the longest user-supplied text a finding repeats, as its bad value or in
// a detail this package writes. Longer text is cut to this many bytes (at a UTF-8
// boundary) and marked with the length it had, so that a 1 MB value cannot make a 1 MB
// message. Field paths are never cut: they must still lead to the offending line.
const MaxValueLen = 256

// clip returns s, or for text longer than MaxValueLen its first MaxValueLen bytes
// followed by "... (N bytes)". It allocates only when it cuts.
func clip(s string) string {
	if len(s) <= MaxValueLen {
		return s
	}
	n := MaxValueLen
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// quote returns clip(s) in double quotes, for use inside a detail.
func quote(s string) string { return strconv.Quote(clip(s)) }

// join joins the messages apimachinery's validation functions return.
func join(msgs []string) string { return strings.Join(msgs, "; ") }
