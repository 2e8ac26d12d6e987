// Package python parses Python 3.11 source into a small syntax tree with
// CPython's positions, in pure Go.
//
// The tokenizer follows CPython's tokenize rules: INDENT and DEDENT from the
// indentation of logical lines (tabs to multiples of 8, checked against tabs
// counted as 1: a TabError otherwise), lines joined inside brackets and after
// a backslash, string prefixes r, u, b, br, rb, f, fr, rf in any case, triple
// quotes, numbers with underscores, hexadecimal, octal, binary and imaginary
// forms, and every operator (:=, ->, **=, //=, @=, ...). An f-string is one
// token, as before Python 3.12; the expressions of its replacement fields are
// then parsed at their own positions, under Python 3.11's rules (no
// backslash, no comment and not the f-string's own quote inside them).
//
// The parser covers Python 3.11's statements and expressions: assignments of
// all kinds, imports, def and async def with decorators, class, if, for,
// while, try with except or except*, with (parenthesized items included),
// match (its patterns are checked and dropped: they hold no calls), return,
// pass, break, continue, raise, global, nonlocal, del, assert, lambda,
// comprehensions, yield, await, starred expressions, slices, conditional
// expressions and assignment expressions. Positions are CPython's: a 1-based
// line and a 0-based column in bytes of UTF-8 (lineno and col_offset).
//
// It refuses what CPython's parser refuses (ast.parse), which is more than the
// grammar: invalid assignment and deletion targets, a positional argument
// after a keyword one, an unparenthesized generator expression beside other
// arguments, a parameter without a default after one with a default,
// mixed bytes and str literals, malformed numbers. What only the compiler
// refuses (return outside a function, a repeated keyword argument) is
// accepted, as ast.parse accepts it. Known differences are listed in
// docs/python.md; the tests compare this package with CPython's ast.
//
// Nesting is bounded: brackets at 200 levels and indentation at 100, as in
// CPython, and the parser's recursion at 3000 levels; deeper input is a
// SyntaxError, never a crash. Parse never panics.
package python
