package instancetype

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/amlarc-go/instancetypes/quantity"
)

// ErrUnset is returned by [Amount.Quantity] for an amount that was missing or null.
var ErrUnset = errors.New("instancetype: resource value is not set")

// The schema of the CRD (client/manifests/crd) for a resource value. Its rules: a string
// or an integer (the schema says so too; the rule is for the admission policy, which
// meets objects no schema checked); and a quantity that fits in 64 bits, as package
// quantity holds it: at most 2^63-1, not 2^63-1 written with a binary suffix (apimachinery
// caps larger binary values at 2^63-1, so that CEL cannot tell them apart), and no more
// significant digits than an int64 holds, which is checked exactly: Q.sub(I), for an
// integer I within a few thousand of Q (from its float approximation), is a quantity of a
// few thousand whose float approximation is exact to 10^-12, so that m, its value times
// 10^9 rounded, is exact, and m's trailing zeros count Q's fraction digits f; Q*10^f must
// then be at most 2^63-1. The guards before isQuantity keep exponents apimachinery cannot
// parse in time away from it, as the CRD's other rules do.

// +k8s:deepcopy-gen=false
// +kubebuilder:validation:Type=string
// +kubebuilder:validation:XIntOrString
// +kubebuilder:validation:MaxLength=64
// +kubebuilder:validation:Pattern=`^[+-]?[0-9]*[.]?[0-9]*([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]{1,3})?$`
// +kubebuilder:validation:XValidation:rule="type(self) == string || type(self) == int",message="must be a string or an integer, not a number with a fraction: quote it"
// +kubebuilder:validation:XValidation:rule="!(size(string(self)) <= 64 && (string(self).lastIndexOf('e') < 0 || size(string(self)) - string(self).lastIndexOf('e') <= 5) && (string(self).lastIndexOf('E') < 0 || size(string(self)) - string(self).lastIndexOf('E') <= 5) && isQuantity(string(self))) || quantity(string(self)).isLessThan(quantity('0')) || (!quantity(string(self)).isGreaterThan(quantity('9223372036854775807')) && !(string(self).endsWith('i') && quantity(string(self)).compareTo(quantity('9223372036854775807')) == 0) && (!quantity(string(self)).isGreaterThan(quantity('9223372036.854775807')) || (int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 10 == 0 && (!quantity(string(self)).isGreaterThan(quantity('92233720368.54775807')) || (int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 100 == 0 && (!quantity(string(self)).isGreaterThan(quantity('922337203685.4775807')) || (int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 1000 == 0 && (!quantity(string(self)).isGreaterThan(quantity('9223372036854.775807')) || (int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 10000 == 0 && (!quantity(string(self)).isGreaterThan(quantity('92233720368547.75807')) || (int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 100000 == 0 && (!quantity(string(self)).isGreaterThan(quantity('922337203685477.5807')) || (int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 1000000 == 0 && (!quantity(string(self)).isGreaterThan(quantity('9223372036854775.807')) || (int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 10000000 == 0 && (!quantity(string(self)).isGreaterThan(quantity('92233720368547758.07')) || (int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 100000000 == 0 && (!quantity(string(self)).isGreaterThan(quantity('922337203685477580.7')) || int(quantity(string(self)).sub(int(quantity(string(self)).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 1000000000 == 0))))))))))))))))))",message="must be at most 9223372036854775807 (2^63-1), held exactly in 64 bits: no more significant digits than that, and below it when written with a binary suffix such as Ki, which the API server caps at 2^63-1"

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

// MarshalJSON encodes an unset amount as null and any other as a JSON string of its text,
// escaped as encoding/json escapes strings, so the result is valid JSON whatever the text
// holds: control characters, quotes and backslashes are escaped, and each byte that is not
// part of valid UTF-8 is written as U+FFFD, as encoding/json writes it. [Amount.UnmarshalJSON]
// gives back the same text for every text that is valid UTF-8; invalid UTF-8, never a
// quantity, comes back with U+FFFD in its place, still an invalid amount.
func (a Amount) MarshalJSON() ([]byte, error) {
	if a.state == amountUnset {
		return []byte("null"), nil
	}
	if plainJSON(a.text) { // the common case: nothing to escape
		b := make([]byte, 0, len(a.text)+2)
		b = append(b, '"')
		b = append(b, a.text...)
		return append(b, '"'), nil
	}
	return json.Marshal(a.text)
}

// UnmarshalJSON decodes a JSON string or number, as Kubernetes accepts quantities, by the
// policy of [quantity.Quantity.UnmarshalJSON]: a string is read by JSON's rules (its escapes
// decoded: "\u0031" is "1"), white space around it is trimmed for the quantity (" 1" is 1,
// as Kubernetes reads it, though [ParseAmount] refuses it, as quantity.Parse does), and a
// number is read as written. The amount keeps the decoded text, untrimmed, as its text; null
// leaves it unset. Text that is not a quantity is kept as an invalid amount, not an error,
// so that validation can report it at its field path. Anything that is not a JSON string,
// number or null (true, an object, an array, malformed JSON) is an error.
func (a *Amount) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b) // JSON white space around the value, for callers other than encoding/json
	var text string
	switch {
	case string(b) == "null":
		*a = Amount{}
		return nil
	case len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' && plainJSON(string(b[1:len(b)-1])):
		text = string(b[1 : len(b)-1])
	case len(b) > 0 && b[0] == '"':
		if err := json.Unmarshal(b, &text); err != nil {
			return fmt.Errorf("instancetype: resource value: %w", err)
		}
	case len(b) > 0 && (b[0] == '-' || '0' <= b[0] && b[0] <= '9') && json.Valid(b):
		text = string(b)
	default:
		return fmt.Errorf("instancetype: resource value must be a string or a number, not %s", clipJSON(b))
	}
	if b[0] == '"' {
		*a = AmountFromString(text)
		return nil
	}
	*a = ParseAmount(text)
	return nil
}

// AmountFromString returns the Amount a JSON string holding s denotes, as the API server
// reads a quantity written as a string: white space around s is trimmed for the quantity
// (" 1" is 1), and the amount keeps s as its text. It is how [Amount.UnmarshalJSON] reads
// a string, for callers that have decoded the string already.
func AmountFromString(s string) Amount {
	a := ParseAmount(strings.TrimSpace(s))
	a.text = s
	return a
}

// plainJSON reports whether s holds only printable ASCII other than the quote, the
// backslash and the three characters encoding/json escapes for HTML (<, >, &): then a JSON
// string holding s is s between quotes, as encoding/json writes and reads it.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// clipJSON returns the start of a JSON value for an error message, quoted.
func clipJSON(b []byte) string {
	const n = 20
	if len(b) > n {
		return strconv.Quote(string(b[:n])) + "..."
	}
	return strconv.Quote(string(b))
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
