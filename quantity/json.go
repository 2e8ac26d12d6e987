package quantity

import (
	"bytes"
	"encoding/json"
	"strings"
)

// UnmarshalText sets q to the quantity text denotes, as Parse does; on failure it
// leaves q unchanged and returns a *ParseError. It implements encoding.TextUnmarshaler
// and allocates only on failure.
func (q *Quantity) UnmarshalText(text []byte) error {
	v, err := parse(text)
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// MarshalJSON returns q's text as a JSON string, "1500m", as Kubernetes writes
// quantities.
func (q Quantity) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, maxTextLen+2)
	b = append(b, '"')
	b = q.appendTo(b)
	return append(b, '"'), nil
}

// UnmarshalJSON sets q from a JSON string ("2Gi") or number (2, 0.5, 1e3), the forms
// Kubernetes accepts:
//
//   - null sets q to zero.
//   - a string is read by JSON's rules, its escapes decoded: "\u0031" is the string "1",
//     and invalid UTF-8 becomes U+FFFD, as encoding/json decodes it. Then, as
//     resource.Quantity.UnmarshalJSON does, white space around the text is trimmed
//     (" 1" is 1) and the rest parsed.
//   - anything else, a number among them, is trimmed and parsed as written.
//
// apimachinery differs only on strings with an escape or that are not valid JSON: it
// parses the bytes between the quotes as they are, so it refuses "\u0031", the same JSON
// value as "1", which we accept, and trims a raw tab from a string, which JSON does not
// allow and we refuse (encoding/json refuses it before calling UnmarshalJSON). On
// failure q is unchanged and the error is a *ParseError. It allocates only on failure,
// or for a string with an escape or a byte that is not printable ASCII.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*q = Quantity{}
		return nil
	}
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return q.UnmarshalText(bytes.TrimSpace(data))
	}
	body := data[1 : len(data)-1]
	if plainJSON(body) { // the common case: the body is the string, as written
		return q.UnmarshalText(bytes.TrimSpace(body))
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return syntaxError(body, 0)
	}
	v, err := parse(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// plainJSON reports whether the body of a JSON string holds only printable ASCII and no
// quote or backslash: then JSON decodes it to itself.
func plainJSON(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
