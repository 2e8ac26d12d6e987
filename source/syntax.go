package source

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A YAML syntax error's message names a line, but not always the offending token's: the
// YAML parsers (yaml.v2, which kubectl's converter calls, and yaml.v3) name the line where
// the construct they were reading began, the "context" (the start of the mapping a
// mis-indented key breaks, the opening quote of an unclosed string), and count it from 0
// or 1 depending on the kind of problem. Neither gives the offending token's position. So it
// is asked of yaml.v3 itself: its parser reads a text from its start and stops at the
// first problem, so a prefix of the text that holds the offending token fails with the same
// problem, and a shorter one, which ends before that token, does not (it ends cleanly, or
// at the end of the text with another problem). The line is found by bisection over the
// lines, the token in it by the longest prefix that does not fail so, in a few parses of
// the document. Where the two parsers do not report the same problem, nothing is claimed,
// and the finding stays at the line the message names.

// maxSyntaxSearch is the most bytes that the searches for the positions of the syntax
// errors of one file parse in all (each parses prefixes of its document): past it, a
// syntax error is placed at the line its message names, so that a file of many broken or
// large documents costs a bounded time more than reading it.
const maxSyntaxSearch = 4 << 20

// yamlProblem returns the problem yaml.v3 reports for text without its line, the line
// its message names (0 for none), and whether it reports one.
func yamlProblem(text []byte) (string, int, bool) {
	var n yaml.Node
	err := yaml.Unmarshal(text, &n)
	if err == nil {
		return "", 0, false
	}
	msg, line := strings.TrimPrefix(err.Error(), "yaml: "), 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				msg, line = strings.TrimSpace(rest[i+1:]), n
			}
		}
	}
	return msg, line, true
}

// syntaxOffset returns the offset in text of the token where the YAML parser stops with
// problem (kubectl's message, without its line), and whether it was found: yaml.v3 must
// report the same problem for the whole text. The line is found by bisection over the
// lines; in it, the token is the character after the longest prefix that does not fail so
// (a prefix that ends inside an unclosed quote fails at its end as the whole text does, so
// such a problem is placed at the opening quote; an unclosed flow collection at its last
// entry, and one closed by the wrong bracket at that bracket: afterEntry).
// It parses about *budget bytes at most in all, takes what it parses off *budget, and
// returns false once none is left.
func syntaxOffset(text []byte, problem string, budget *int) (int, bool) {
	got, named, ok := yamlProblem(text)
	if !ok || got != problem {
		return 0, false
	}
	*budget -= len(text)
	fails := func(n int) bool {
		*budget -= n
		got, _, ok := yamlProblem(text[:n])
		return ok && got == problem
	}
	if fails(0) {
		return 0, true
	}
	// ends[i] is the offset after the i-th line (from 0), line break included.
	var ends []int
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			ends = append(ends, len(text))
			break
		}
		i += j + 1
		ends = append(ends, i)
	}
	// The first line whose end fails so: lines[:lo] do not, lines[:hi] do. The token is
	// not above the line the message names: that of the context (counted from 1 for a
	// scanner's problem, from 0 for a parser's), else of the token. Above it, a prefix may
	// fail so at its end (inside a quote closed on a later line).
	// A message names the token's own line (its context was on the first line) when the
	// lines above it fail so already: then the search starts at the first line.
	lo, hi := max(min(named, len(ends))-1, 0), len(ends)
	if lo > 0 && fails(ends[lo-1]) {
		lo = 0
	}
	for hi-lo > 1 {
		if *budget < 0 {
			return 0, false
		}
		mid := lo + (hi-lo)/2
		if fails(ends[mid-1]) {
			hi = mid
		} else {
			lo = mid
		}
	}
	start, end := 0, ends[hi-1]
	if hi > 1 {
		start = ends[hi-2]
	}
	// In the line: the longest prefix that does not fail so, with its next character.
	if end-start <= maxLineScan && (end-start)*end <= *budget {
		for p := end - 1; p > start; p-- {
			if utf8.RuneStart(text[p]) && !fails(p) {
				return afterEntry(text, p, problem), true
			}
		}
		return start, true
	}
	// A long line: bisection, as for the lines.
	for end-start > 1 {
		if *budget < 0 {
			return 0, false
		}
		mid := start + (end-start)/2
		for mid > start && !utf8.RuneStart(text[mid]) {
			mid--
		}
		if mid == start {
			break
		}
		if fails(mid) {
			end = mid
		} else {
			start = mid
		}
	}
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	return start, true
}

// afterEntry returns, for a flow collection's "did not find expected ',' or ']'" at the
// entry at p, the token that follows that entry on its line, which the parser stopped at
// (the } that closes a [); p when the entry ends its line (the collection is not closed),
// or for any other problem. A prefix that ends after the entry fails at its end as the
// whole text fails at the token, so the search finds the entry.
func afterEntry(text []byte, p int, problem string) int {
	if !strings.HasPrefix(problem, "did not find expected ',' or ") {
		return p
	}
	// The search ends on a quoted entry's closing quote (a shorter prefix is an unclosed
	// quote, another problem), on a plain one's first character.
	i := p
	if q := text[i]; q == '"' || q == '\'' {
		i++
	} else {
		for i < len(text) && !bytes.ContainsRune([]byte(" \t\r\n,[]{}"), rune(text[i])) {
			i++
		}
	}
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i >= len(text) || text[i] == '\n' || text[i] == '\r' || text[i] == '#' {
		return p
	}
	return i
}

// maxLineScan is the longest line in which a syntax error is looked for character by
// character; a longer one is bisected.
const maxLineScan = 256

// syntaxPosition returns the position in the file of the token where the YAML parser stops
// with problem, a syntax error of the document, and whether it was found. It spends the
// scanner's budget of bytes searched.
func (s *scanner) syntaxPosition(d *Document, problem string) (Position, bool) {
	budget := maxSyntaxSearch - s.syntaxSearched
	if d.JSON || len(d.text) > budget {
		return Position{}, false
	}
	off, ok := syntaxOffset(d.text, problem, &budget)
	s.syntaxSearched = maxSyntaxSearch - max(budget, 0)
	if !ok {
		return Position{}, false
	}
	lc := lineCursor{text: d.text, line: 1}
	p := lc.position(off)
	at := d.textAt()
	if p.Line == 1 {
		p.Column += at.Column - 1
	}
	p.Line += at.Line - 1
	return p, true
}
