// Package rules holds the resource rules that more than one package applies: what a
// resource name is, and whether an amount is one that comparisons may use. Package
// validate turns their answers into findings; package resolve uses them to decide which
// amounts take part in its comparisons, so that an amount with a finding of its own never
// causes a second one elsewhere.
package rules

import (
	"strings"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/selector"
)

// Class is what a resource name is.
type Class uint8

// The classes of resource names.
const (
	CPU         Class = iota // cpu
	Memory                   // memory
	Extended                 // a fully qualified extended resource name, such as nvidia.com/gpu
	BadExtended              // a name with a '/' that is no extended resource name
	Unknown                  // any other unqualified name: cpus, gpu, mem, CPU
)

// Resource names that look like extended resources but are not.
const (
	// ReservedDomain is the domain of Kubernetes' own prefixed resources.
	ReservedDomain = "kubernetes.io/"
	// QuotaPrefix marks quota resource names ("requests.cpu").
	QuotaPrefix = "requests."
	// MaxNameLen is the longest object name: a quota name "requests.NAME" must stay one,
	// so the part of an extended resource name before its '/' is at most
	// MaxNameLen - len(QuotaPrefix) bytes.
	MaxNameLen = 253
)

// Classify tells what kind of resource name name is. Kubernetes calls a name an extended
// resource when it is a qualified name (a label key) outside the kubernetes.io domain that
// stays a qualified name behind the "requests." prefix of resource quotas. It does not
// allocate.
func Classify(name instancetype.ResourceName) Class {
	switch name {
	case instancetype.ResourceCPU:
		return CPU
	case instancetype.ResourceMemory:
		return Memory
	}
	s := string(name)
	slash := strings.IndexByte(s, '/')
	if slash < 0 {
		return Unknown
	}
	if !selector.ValidLabelKey(s) || strings.Contains(s, ReservedDomain) ||
		strings.HasPrefix(s, QuotaPrefix) || len(QuotaPrefix)+slash > MaxNameLen {
		return BadExtended
	}
	return Extended
}

// Problem is what is wrong with one entry of a requests or limits list, judged by the
// rules every owner of such a list shares (instance types and deployments alike).
type Problem uint8

// The problems of an entry, in the order Check looks for them.
const (
	None        Problem = iota // a usable amount
	UnknownName                // the name is of class Unknown
	BadName                    // the name is of class BadExtended
	Unset                      // missing or null
	Invalid                    // text that is not a quantity, "" included
	Spaced                     // a quantity with white space around it (" 2Gi")
	NotPositive                // cpu or memory of zero or less
	Negative                   // an extended resource below zero
	Fractional                 // an extended resource that is not a whole number

	// The bounds of this project's CRD on the text of an instance type's amount, which
	// CheckInstanceType adds (Check, shared with deployments, does not): the API server
	// refuses text beyond them before it reads the quantity.
	TooLong      // text of more than MaxAmountLen bytes
	LongExponent // an exponent of more than MaxExponentDigits digits ("2e+0009")
	// BinaryAtCap: 2^63−1 written with a binary suffix ("9007199254740991.9990234375Ki"),
	// the value at which apimachinery caps larger binary ones ("10Ei"), so that the CRD's
	// rules cannot tell it from them, and refuse it.
	BinaryAtCap
)

// The bounds of the InstanceType CRD (client/manifests/crd) on a resource value written
// as a string: its maxLength, and the pattern's exponent of one to three digits. The CEL
// rules need them to stay within the CRD's cost budget, and they keep hostile exponents
// away from apimachinery's parser. A value written as a JSON integer has neither.
const (
	MaxAmountLen      = 64
	MaxExponentDigits = 3
)

// Check returns the first problem of the entry name: a, or None. Rules that belong to one
// owner only (a deployment's memory request of at least 1M, extended resources in limits
// only) are not checked here.
func Check(name instancetype.ResourceName, a instancetype.Amount) Problem {
	c := Classify(name)
	switch {
	case c == Unknown:
		return UnknownName
	case c == BadExtended:
		return BadName
	case !a.IsSet():
		return Unset
	case !a.IsValid():
		return Invalid
	case strings.TrimSpace(a.String()) != a.String():
		// Kubernetes' own types read " 2Gi" as 2Gi, but a CRD's schema and CEL's
		// quantity() refuse it.
		return Spaced
	}
	q, _ := a.Quantity()
	switch {
	case c != Extended && q.Sign() <= 0:
		return NotPositive
	case c == Extended && q.Sign() < 0:
		return Negative
	case c == Extended && !q.IsInt():
		return Fractional
	}
	return None
}

// Usable reports whether the entry name: a has no problem, so that comparisons may use it.
func Usable(name instancetype.ResourceName, a instancetype.Amount) bool {
	return Check(name, a) == None
}

// CheckInstanceType is Check for an entry of an instance type's requests or limits: it
// adds the bounds of the CRD on the text (TooLong, LongExponent), checked before the text
// is read as a quantity, as the API server checks them.
func CheckInstanceType(name instancetype.ResourceName, a instancetype.Amount) Problem {
	switch c := Classify(name); {
	case c == Unknown:
		return UnknownName
	case c == BadExtended:
		return BadName
	case !a.IsSet():
		return Unset
	case len(a.String()) > MaxAmountLen:
		return TooLong
	case ExponentDigits(a.String()) > MaxExponentDigits:
		return LongExponent
	}
	p := Check(name, a)
	if p == None && strings.HasSuffix(a.String(), "i") {
		if q, _ := a.Quantity(); q.Cmp(maxInt64) == 0 {
			return BinaryAtCap
		}
	}
	return p
}

// maxInt64 is 2^63−1 as a quantity.
var maxInt64 = quantity.MustParse("9223372036854775807")

// UsableInInstanceType reports whether the entry name: a of an instance type has no
// problem (CheckInstanceType), so that comparisons may use it.
func UsableInInstanceType(name instancetype.ResourceName, a instancetype.Amount) bool {
	return CheckInstanceType(name, a) == None
}

// ExponentDigits returns the number of digits of the exponent that ends the quantity text
// s ("2e+0009": 4), or 0 when s ends in no exponent: the text after its last 'e' or 'E',
// less one sign, all digits. "E" alone is the exa suffix, with no digits after it.
func ExponentDigits(s string) int {
	i := strings.LastIndexAny(s, "eE")
	if i < 0 {
		return 0
	}
	digits := s[i+1:]
	if digits != "" && (digits[0] == '+' || digits[0] == '-') {
		digits = digits[1:]
	}
	for j := 0; j < len(digits); j++ {
		if digits[j] < '0' || digits[j] > '9' {
			return 0
		}
	}
	return len(digits)
}

// IsVMSize reports a name in the form of an Azure VM size (Standard_DS3_v2, Basic_A1),
// which managed online deployments and serverless jobs name where a Kubernetes workload
// names an InstanceType.
func IsVMSize(name string) bool {
	for _, tier := range [...]string{"Standard_", "Basic_"} {
		if len(name) > len(tier) && strings.EqualFold(name[:len(tier)], tier) {
			return true
		}
	}
	return false
}
