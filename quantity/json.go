package quantity

import "bytes"

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

// UnmarshalJSON sets q from a JSON string ("2Gi") or number (2, 0.5, 1e3), as
// resource.Quantity does: null sets q to zero; otherwise the surrounding quotes, if any,
// are removed, then surrounding white space, and the rest is parsed. JSON escapes are
// not decoded, so "\u0031" is refused, as Kubernetes refuses it. On failure q is
// unchanged and the error is a *ParseError. It allocates only on failure.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*q = Quantity{}
		return nil
	}
	if len(data) >= 2 && data[0] == '"' && data[len(data)-1] == '"' {
		data = data[1 : len(data)-1]
	}
	return q.UnmarshalText(bytes.TrimSpace(data))
}
