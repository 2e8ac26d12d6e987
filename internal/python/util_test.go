package python

import "strconv"

func strconvQuote(s string) string { return strconv.Quote(s) }
