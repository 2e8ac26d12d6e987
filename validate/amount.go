package validate

import (
	"errors"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/quantity"
)

// example returns how a finding shows a well-written value of the resource class c.
func example(c rules.Class) string {
	switch c {
	case rules.CPU:
		return `a quantity such as "500m" or "2"`
	case rules.Memory:
		return `a quantity such as "1500Mi" or "2Gi"`
	}
	return "a whole number such as 1"
}

// invalidAmountDetail explains why the set but invalid amount a is not a quantity, and how
// to write one.
func invalidAmountDetail(a instancetype.Amount, c rules.Class) string {
	if a.String() == "" {
		return "must not be empty; write " + example(c)
	}
	return parseReason(a) + "; write " + example(c)
}

// parseReason says why quantity.Parse refused the text of a, without repeating the text
// (the finding shows it as the bad value).
func parseReason(a instancetype.Amount) string {
	_, err := a.Quantity()
	var pe *quantity.ParseError
	if !errors.As(err, &pe) {
		if err == nil {
			return "not a quantity"
		}
		return clip.String(err.Error())
	}
	switch {
	case errors.Is(pe.Err, quantity.ErrSuffix) && 0 <= pe.At && pe.At < len(pe.Input):
		return "unknown suffix " + clip.Quote(pe.Input[pe.At:]) +
			" (use n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei, or an exponent such as e3)"
	case errors.Is(pe.Err, quantity.ErrRange):
		return "out of range: too large, or too many digits, to hold exactly"
	}
	return "not a quantity"
}

// Minimums of the rules, as quantities.
var (
	// minDeploymentMemory is the least memory a deployment may request (R8): 1 MB.
	minDeploymentMemory = quantity.MustParse("1M")
	// minMLflowCPU and minMLflowMemory are the least an MLflow deployment may request
	// (R10): 2 cores and 4 GB.
	minMLflowCPU    = quantity.MustParse("2")
	minMLflowMemory = quantity.MustParse("4G")
)
