package validate

import (
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
)

// owner says whose resources section is validated: the rules differ.
type owner uint8

const (
	// ownerInstanceType: requests and limits of cpu and memory are all required (R2), and
	// requests must not exceed limits.
	ownerInstanceType owner = iota
	// ownerDeployment: requests of cpu and memory are required, memory at least 1M; limits
	// of cpu and memory only when an extended resource is asked for (R8). Requests within
	// limits is left to package resolve, which compares them with the effective limits.
	ownerDeployment
)

// validateResources appends the findings about the resources section r, whose limits and
// requests are at limits and requests, to errs. Findings come in a fixed order: limits,
// then requests (in each, the missing required values, then the entries sorted by name),
// then requests against limits.
func validateResources(r *instancetype.ResourceRequirements, limits, requests at, who owner, errs field.ErrorList) field.ErrorList {
	if who == ownerInstanceType {
		errs = tooManyResources(r.Limits, limits, errs)
		errs = requireCPUAndMemory(r.Limits, limits, "", who, errs)
	} else if name, ok := askedExtended(r); ok {
		errs = requireCPUAndMemory(r.Limits, limits, name, who, errs)
	}
	errs = validateList(r.Limits, r.Requests, false, limits, who, errs)

	if who == ownerInstanceType {
		errs = tooManyResources(r.Requests, requests, errs)
	}
	errs = requireCPUAndMemory(r.Requests, requests, "", who, errs)
	errs = validateList(r.Requests, r.Limits, true, requests, who, errs)

	if who == ownerInstanceType {
		errs = requestWithinLimit(r.Requests, r.Limits, instancetype.ResourceCPU, requests, errs)
		errs = requestWithinLimit(r.Requests, r.Limits, instancetype.ResourceMemory, requests, errs)
	}
	return errs
}

// tooManyResources reports an instance type's requests or limits list, found at l, with
// more entries than the CRD allows (MaxResources), at the list: rule R3, since only
// extended resources can make that many. Entries written as null do not count: the API
// server drops them before it counts.
func tooManyResources(list instancetype.ResourceList, l at, errs field.ErrorList) field.ErrorList {
	if len(list) <= MaxResources {
		return errs
	}
	n := 0
	for _, a := range list {
		if a.IsSet() {
			n++
		}
	}
	if n > MaxResources {
		e := field.TooMany(l.path(), n, MaxResources).WithOrigin(rules.R3)
		e.Detail = "must have at most " + strconv.Itoa(MaxResources) + " resources: the API server's schema for instance types allows no more"
		return append(errs, e)
	}
	return errs
}

// rule is the rule id of a finding about an entry of class c of the owner's resources: R2
// (cpu and memory) or R3 (extended resources) of an instance type, R8 of a deployment.
func (who owner) rule(c rules.Class) string {
	switch {
	case who == ownerDeployment:
		return rules.R8
	case c == rules.Extended:
		return rules.R3
	}
	return rules.R2
}

// requireCPUAndMemory reports cpu and memory missing (or null) from list, found at l.
// asking is the extended resource that makes them required, "" when they always are.
func requireCPUAndMemory(list instancetype.ResourceList, l at, asking string, who owner, errs field.ErrorList) field.ErrorList {
	for _, name := range [...]instancetype.ResourceName{instancetype.ResourceCPU, instancetype.ResourceMemory} {
		if list[name].IsSet() {
			continue
		}
		detail := "set it to " + example(rules.Classify(name))
		if asking != "" {
			detail = "set it when asking for " + clip.String(asking) + ", to " + example(rules.Classify(name))
		}
		errs = append(errs, field.Required(l.key(string(name)), detail).WithOrigin(who.rule(rules.Classify(name))))
	}
	return errs
}

// validateList appends the findings about each entry of list, found at l, to errs. other
// is the list beside it (the limits of requests, the requests of limits).
//
// Map order is random and findings must come in a fixed order, but sorting the names
// would allocate. So a first pass only asks whether any entry has a finding; only then
// are the names sorted and the findings collected.
func validateList(list, other instancetype.ResourceList, isRequests bool, l at, who owner, errs field.ErrorList) field.ErrorList {
	for name, a := range list {
		if validateEntry(name, a, other, isRequests, l, who, nil) != nil {
			return validateListSorted(list, other, isRequests, l, who, errs)
		}
	}
	return errs
}

// validateListSorted is validateList's slow path: every entry, in name order.
func validateListSorted(list, other instancetype.ResourceList, isRequests bool, l at, who owner, errs field.ErrorList) field.ErrorList {
	names := make([]instancetype.ResourceName, 0, len(list))
	for name := range list {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		errs = validateEntry(name, list[name], other, isRequests, l, who, errs)
	}
	return errs
}

// validateEntry appends the findings about the entry name: a of a requests or limits list,
// found at l, to errs. The shared rules (rules.Check) say what is wrong with the entry;
// this turns that into a finding, and adds the rules of the owner of the list.
func validateEntry(name instancetype.ResourceName, a instancetype.Amount, other instancetype.ResourceList, isRequests bool, l at, who owner, errs field.ErrorList) field.ErrorList {
	s := string(name)
	c := rules.Classify(name)
	problem := rules.Check(name, a)
	if who == ownerInstanceType {
		problem = rules.CheckInstanceType(name, a)
	}
	switch problem {
	case rules.UnknownName:
		e := field.NotSupported(l.key(s), clip.String(s), supportedNames).WithOrigin(rules.ResourceName)
		e.Detail += unknownNameDetail(s)
		return append(errs, e)
	case rules.BadName:
		return append(errs, field.Invalid(l.key(s), clip.String(s), badExtendedDetail(s)).WithOrigin(rules.ResourceName))
	case rules.Unset:
		// null: for cpu and memory, requireCPUAndMemory has reported it if it is required;
		// for an extended resource it means none (R3).
		return errs
	}
	if c == rules.Extended && isRequests {
		detail := "extended resources are set in limits only: move " + clip.String(s) + " to limits"
		if other[name].IsSet() {
			detail = "extended resources are set in limits only: remove " + clip.String(s) + " from requests; limits sets it"
		}
		errs = append(errs, field.Forbidden(l.key(s), detail).WithOrigin(who.rule(c)))
	}
	bad := clip.String(a.String())
	switch problem {
	case rules.Invalid:
		if k := rules.PlaceholderOf(a.String()); k != rules.NoPlaceholder && who == ownerDeployment {
			// An Azure ML file not filled in: one finding that says so, not a quantity's.
			return append(errs, field.Invalid(l.key(s), bad, "not filled in: "+k.Describe()+"; write "+example(c)).WithOrigin(rules.Placeholder))
		}
		return append(errs, field.Invalid(l.key(s), bad, invalidAmountDetail(a, c)).WithOrigin(who.rule(c)))
	case rules.TooLong:
		return append(errs, field.Invalid(l.key(s), bad, "must be at most "+strconv.Itoa(rules.MaxAmountLen)+
			" bytes long: the API server's schema for instance types refuses longer text; write "+shorterForm(a, c)).WithOrigin(who.rule(c)))
	case rules.LongExponent:
		return append(errs, field.Invalid(l.key(s), bad, "the exponent must have at most "+strconv.Itoa(rules.MaxExponentDigits)+
			" digits: the API server's schema for instance types refuses more; write "+shorterForm(a, c)).WithOrigin(who.rule(c)))
	case rules.BinaryAtCap:
		return append(errs, field.Invalid(l.key(s), bad, "out of range: the API server caps a value written with a binary suffix at 9223372036854775807 (2^63-1), "+
			"so its schema for instance types refuses that value written so; write 9223372036854775807, or less").WithOrigin(who.rule(c)))
	case rules.Spaced:
		return append(errs, field.Invalid(l.key(s), bad, "must not have white space around it: the API server's schema for instance types refuses it; write "+
			clip.Quote(strings.TrimSpace(a.String()))).WithOrigin(who.rule(c)))
	case rules.NotPositive:
		return append(errs, field.Invalid(l.key(s), bad, "must be greater than zero").WithOrigin(who.rule(c)))
	case rules.Negative:
		return append(errs, field.Invalid(l.key(s), bad, "must not be negative; write 0 or leave it out for none").WithOrigin(who.rule(c)))
	case rules.Fractional:
		return append(errs, field.Invalid(l.key(s), bad, "must be a whole number, such as 1").WithOrigin(who.rule(c)))
	}
	if who == ownerDeployment && isRequests && c == rules.Memory {
		if q, _ := a.Quantity(); q.Cmp(minDeploymentMemory) < 0 {
			return append(errs, field.Invalid(l.key(s), bad, "must be at least 1M (1 MB, 10^6 bytes)").WithOrigin(rules.R8))
		}
	}
	return errs
}

// shorterForm says how to write the amount a, whose text is too long or whose exponent
// is, in a form the CRD takes: its canonical form when it is a quantity ("2e+0009" is
// "2e9", "1.000…0Gi" is "1Gi"), else an example of its class c.
func shorterForm(a instancetype.Amount, c rules.Class) string {
	if q, err := a.Quantity(); err == nil {
		return clip.Quote(q.String())
	}
	return example(c)
}

// requestWithinLimit reports a request of name above its limit, at the request. Only
// amounts without a finding of their own are compared.
func requestWithinLimit(requests, limits instancetype.ResourceList, name instancetype.ResourceName, req at, errs field.ErrorList) field.ErrorList {
	r, l := requests[name], limits[name]
	if !rules.UsableInInstanceType(name, r) || !rules.UsableInInstanceType(name, l) {
		return errs // reported already
	}
	rq, _ := r.Quantity()
	lq, _ := l.Quantity()
	if rq.Cmp(lq) <= 0 {
		return errs
	}
	return append(errs, field.Invalid(req.key(string(name)), clip.String(r.String()),
		"must be less than or equal to "+string(name)+" limit of "+clip.String(l.String())).WithOrigin(rules.RequestAboveLimit))
}

// askedExtended reports whether r asks for an extended resource such as a GPU: sets one,
// in limits or requests, to anything but null or 0. It returns the first such name, in
// name order.
func askedExtended(r *instancetype.ResourceRequirements) (name string, ok bool) {
	for _, list := range [...]instancetype.ResourceList{r.Limits, r.Requests} {
		for n, a := range list {
			if c := rules.Classify(n); c != rules.Extended && c != rules.BadExtended || !a.IsSet() {
				continue
			}
			if q, err := a.Quantity(); err == nil && q.IsZero() {
				continue
			}
			if !ok || string(n) < name {
				name, ok = string(n), true
			}
		}
	}
	return name, ok
}
