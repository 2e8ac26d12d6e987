package fit

import (
	"strconv"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/internal/clip"
)

// maxTextLen is the longest user-supplied text (a label, a node name, a taint) a message
// repeats as it is: 256 bytes. Longer text is cut to this many bytes, at a UTF-8 boundary,
// and marked with the length it had, so that a hostile label cannot make a huge message.
// It is the limit every package of the SDK applies (validate.MaxValueLen).
const maxTextLen = clip.MaxLen

// maxPairs is how many pairs of a selector a message lists before "and N more".
const maxPairs = 10

// plain reports whether s can be printed bare: at most maxTextLen bytes, all of them
// letters, digits or one of "._-/", the characters of label keys, label values and node
// names. Anything else is quoted, so that no text can pass for the punctuation of a
// message (",", "=", ":", spaces, newlines).
func plain(s string, emptyOK bool) bool {
	if len(s) > maxTextLen || s == "" && !emptyOK {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '.', c == '_', c == '-', c == '/':
		default:
			return false
		}
	}
	return true
}

// appendText appends s bare when plain, else quoted (with strconv.Quote) and clipped.
func appendText(b []byte, s string, emptyOK bool) []byte {
	if plain(s, emptyOK) {
		return append(b, s...)
	}
	return strconv.AppendQuote(b, clip.String(s))
}

func appendPair(b []byte, p Pair) []byte {
	b = appendText(b, p.Key, false)
	b = append(b, '=')
	return appendText(b, p.Value, true)
}

// appendTaint appends t as kubectl prints it: key=value:Effect, or key:Effect.
func appendTaint(b []byte, t cluster.Taint) []byte {
	b = appendText(b, t.Key, false)
	if t.Value != "" {
		b = append(b, '=')
		b = appendText(b, t.Value, true)
	}
	b = append(b, ':')
	return appendText(b, t.Effect, false)
}

// appendSelector appends the pairs as k=v,k=v, at most maxPairs of them.
func appendSelector(b []byte, ps []Pair) []byte {
	for i, p := range ps {
		if i == maxPairs {
			b = append(b, ",... ("...)
			b = strconv.AppendInt(b, int64(len(ps)), 10)
			return append(b, " pairs)"...)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPair(b, p)
	}
	return b
}

// appendCount appends "1 node" or "3 nodes".
func appendCount(b []byte, n int, one, many string) []byte {
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ' ')
	if n == 1 {
		return append(b, one...)
	}
	return append(b, many...)
}

// appendList appends items rendered by f, joined with ", " and the last with last (" and "
// or " or "), followed by more as "and N more" when more > 0.
func appendList[T any](b []byte, items []T, more int, last string, f func([]byte, T) []byte) []byte {
	for i, x := range items {
		switch {
		case i == 0:
		case i == len(items)-1 && more == 0:
			b = append(b, last...)
		default:
			b = append(b, ", "...)
		}
		b = f(b, x)
	}
	if more > 0 {
		b = append(b, last...)
		b = strconv.AppendInt(b, int64(more), 10)
		b = append(b, " more"...)
	}
	return b
}

func isAre(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}
