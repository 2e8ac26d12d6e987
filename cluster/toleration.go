package cluster

import (
	"errors"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/amlarc-go/instancetypes/internal/clip"
)

// Toleration is one of a pod's tolerations, as Kubernetes' core/v1 Toleration holds it,
// without tolerationSeconds (a NoExecute taint tolerated for a while is tolerated when the
// pod is scheduled).
type Toleration struct {
	// Key is the taint key it tolerates; "" with Exists tolerates every taint.
	Key string
	// Exists is operator Exists: any value of Key. Otherwise operator Equal: Value only.
	Exists bool
	// Value is the value tolerated with operator Equal.
	Value string
	// Effect is the effect tolerated, NoSchedule, PreferNoSchedule or NoExecute; "" is
	// every effect.
	Effect string
}

// Tolerates reports whether t tolerates the taint, by Kubernetes' rule (the scheduler's
// TaintToleration filter): the effects match, or t's is empty; the keys match, or t's is
// empty (with Exists); the values are equal, or the operator is Exists.
func (t Toleration) Tolerates(taint Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	return t.Exists || t.Value == taint.Value
}

// String renders t as ParseToleration reads it: KEY, KEY=VALUE, then :EFFECT when it has
// one; "*" (or "*:EFFECT") for an empty key with Exists.
func (t Toleration) String() string {
	s := t.Key
	switch {
	case t.Key == "" && t.Exists:
		s = "*"
	case !t.Exists:
		s += "=" + t.Value
	}
	if t.Effect != "" {
		s += ":" + t.Effect
	}
	return s
}

// ParseToleration reads a toleration written KEY[=VALUE][:EFFECT], as the instancetype
// command's --tolerate takes it (kubectl taint's syntax for the taint it tolerates): KEY
// alone tolerates every value (operator Exists), KEY=VALUE that value (Equal, VALUE may be
// empty), and :EFFECT one effect only (NoSchedule, PreferNoSchedule or NoExecute; without
// it, every effect); "*" is every key. KEY must be a label key, VALUE a label value. It
// returns an error that says what is wrong, and the zero Toleration, for anything else.
func ParseToleration(s string) (Toleration, error) {
	var t Toleration
	rest := s
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		t.Effect, rest = rest[i+1:], rest[:i]
		switch t.Effect {
		case NoSchedule, PreferNoSchedule, NoExecute:
		default:
			return Toleration{}, errors.New("effect " + clip.Quote(t.Effect) + ": want NoSchedule, PreferNoSchedule or NoExecute")
		}
	}
	key, value, equal := strings.Cut(rest, "=")
	t.Key, t.Value, t.Exists = key, value, !equal
	if key == "*" && !equal {
		t.Key = ""
		return t, nil
	}
	if key == "" {
		return Toleration{}, errors.New("no taint key: want KEY[=VALUE][:EFFECT], or * for every key")
	}
	if errs := validation.IsQualifiedName(key); len(errs) > 0 {
		return Toleration{}, errors.New("key " + clip.Quote(key) + ": " + strings.Join(errs, "; "))
	}
	if errs := validation.IsValidLabelValue(value); equal && len(errs) > 0 {
		return Toleration{}, errors.New("value " + clip.Quote(value) + ": " + strings.Join(errs, "; "))
	}
	return t, nil
}
