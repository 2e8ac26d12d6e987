package instancetype

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/amlarc-go/instancetypes/quantity"
)

// ErrUnset is returned by [Amount.Quantity] for an amount that was missing or null.
var ErrUnset = errors.New("instancetype: resource value is not set")

// +k8s:deepcopy-gen=false
// +kubebuilder:validation:Type=string
// +kubebuilder:validation:XIntOrString
// +kubebuilder:validation:MaxLength=64
// +kubebuilder:validation:Pattern=`^[+-]?[0-9]*[.]?[0-9]*([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]{1,3})?$`

// Amount is one resource value as written in a manifest: its text, and the quantity that
// text denotes when it is one.
//
// An Amount is in one of three states, which validation tells apart:
//   - unset: the zero Amount, what a missing key or a null value decodes to;
//   - invalid: text that is not a quantity, such as "" or "2Gx";
//   - valid: text that parsed, such as "0", "700m" or "2Gi".
//
// Amounts are small comparable values, safe to copy. Two amounts are == only if their
// text is the same too ("1" != "1000m"); compare quantities with quantity.Quantity.Cmp.
type Amount struct {
	text  string
	q     quantity.Quantity
	state amountState
}

type amountState uint8

const (
	amountUnset amountState = iota
	amountInvalid
	amountValid
)

// ParseAmount returns the Amount written as s. It never fails: text that is not a quantity
// (including "") gives an invalid Amount that keeps s, whose [Amount.Quantity] reports why.
func ParseAmount(s string) Amount {
	q, err := quantity.Parse(s)
	if err != nil {
		return Amount{text: s, state: amountInvalid}
	}
	return Amount{text: s, q: q, state: amountValid}
}

// AmountOf returns a valid Amount holding q, written in q's canonical form.
func AmountOf(q quantity.Quantity) Amount {
	return Amount{text: q.String(), q: q, state: amountValid}
}

// MustParseAmount is like [ParseAmount] but panics if s is not a quantity. It is meant for
// tests and for hard-coded values.
func MustParseAmount(s string) Amount {
	a := ParseAmount(s)
	if !a.IsValid() {
		_, err := a.Quantity()
		panic(err)
	}
	return a
}

// IsSet reports whether a was written with a non-null value.
func (a Amount) IsSet() bool { return a.state != amountUnset }

// IsValid reports whether a was written and its text is a quantity.
func (a Amount) IsValid() bool { return a.state == amountValid }

// Quantity returns the quantity a holds. For an unset amount it returns the zero Quantity
// and [ErrUnset]; for an invalid one, the zero Quantity and the error quantity.Parse
// reports for its text.
func (a Amount) Quantity() (quantity.Quantity, error) {
	switch a.state {
	case amountValid:
		return a.q, nil
	case amountUnset:
		return quantity.Quantity{}, ErrUnset
	}
	_, err := quantity.Parse(a.text)
	if err == nil { // unreachable unless constructed by hand; never report success wrongly
		err = fmt.Errorf("instancetype: invalid resource value %q", a.text)
	}
	return quantity.Quantity{}, err
}

// String returns the text of a as written, or "" for an unset amount.
func (a Amount) String() string { return a.text }

// MarshalJSON encodes a valid or invalid amount as a JSON string of its text, as written,
// and an unset one as null.
func (a Amount) MarshalJSON() ([]byte, error) {
	if a.state == amountUnset {
		return []byte("null"), nil
	}
	return strconv.AppendQuote(make([]byte, 0, len(a.text)+2), a.text), nil
}

// UnmarshalJSON decodes a JSON string or number, as Kubernetes accepts quantities, keeping
// its text; null leaves the amount unset. Text that is not a quantity is kept as an invalid
// amount, not an error, so that validation can report it at its field path. Any other JSON
// value (true, an object, an array) is an error.
func (a *Amount) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return errors.New("instancetype: empty resource value")
	case string(b) == "null":
		*a = Amount{}
		return nil
	case b[0] == '"':
		s, err := strconv.Unquote(string(b))
		if err != nil {
			return fmt.Errorf("instancetype: resource value: %w", err)
		}
		*a = ParseAmount(s)
		return nil
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		*a = ParseAmount(string(b))
		return nil
	}
	return fmt.Errorf("instancetype: resource value must be a string or a number, not %.20s", b)
}

// DeepCopyInto copies a into out. Amounts hold no references, so this is an assignment.
func (a *Amount) DeepCopyInto(out *Amount) { *out = *a }

// DeepCopy returns a copy of a.
func (a *Amount) DeepCopy() *Amount {
	if a == nil {
		return nil
	}
	out := *a
	return &out
}
