package validate

import (
	"strings"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/textdist"
	"github.com/amlarc-go/instancetypes/selector"
)

// maxNameLen is the longest object name Kubernetes accepts: a DNS-1123 subdomain.
const maxNameLen = 253

// validObjectName reports whether s is a DNS-1123 subdomain of at most 253 bytes, as
// rules.IsObjectName tells it: exactly the strings content.IsDNS1123Subdomain accepts,
// without allocating.
func validObjectName(s string) bool { return rules.IsObjectName(s) }

// objectNameDetail explains why name is not a valid object name and suggests a valid
// spelling when one is obvious. It says what content.IsDNS1123Subdomain says, in fewer
// words.
func objectNameDetail(name string) string {
	detail := objectNameRule(name)
	if s := suggestObjectName(name); s != "" {
		detail += "; did you mean " + clip.Quote(s) + "?"
	}
	return detail
}

// objectNameRule says which rule of object names name breaks, without a suggestion.
func objectNameRule(name string) string {
	if len(name) > maxNameLen {
		return "must be no more than 253 bytes"
	}
	return "must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, such as \"gpu-small\""
}

// suggestObjectName turns name into a DNS-1123 subdomain by lowercasing it, replacing
// every other byte with '-' and trimming what cannot start or end a name. It returns ""
// when that does not give a valid name different from name.
func suggestObjectName(name string) string {
	if len(name) > maxNameLen {
		return ""
	}
	b := []byte(strings.ToLower(name))
	for i, c := range b {
		if !isLowerAlnum(c) && c != '.' {
			b[i] = '-'
		}
	}
	s := strings.Trim(string(b), "-.")
	for strings.Contains(s, "..") {
		s = strings.ReplaceAll(s, "..", ".")
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, ".-", "."), "-.", ".")
	if s == name || !validObjectName(s) {
		return ""
	}
	return s
}

// badExtendedDetail explains why name, which has a '/', is not an extended resource name.
func badExtendedDetail(name string) string {
	const want = "must be a fully qualified extended resource name such as \"nvidia.com/gpu\""
	slash := strings.IndexByte(name, '/')
	switch {
	case !selector.ValidLabelKey(name):
		detail := want + ": a lowercase domain, '/', and a name of letters, digits, '-', '_' and '.' (at most 63 bytes)"
		if lower := strings.ToLower(name); lower != name && rules.Classify(instancetype.ResourceName(lower)) == rules.Extended {
			detail += "; did you mean " + clip.Quote(lower) + "?"
		}
		return detail
	case strings.Contains(name, rules.ReservedDomain):
		return want + "; the kubernetes.io domain is reserved for Kubernetes' own resources"
	case strings.HasPrefix(name, rules.QuotaPrefix):
		return want + "; the \"requests.\" prefix belongs to resource quotas: did you mean " +
			clip.Quote(strings.TrimPrefix(name, rules.QuotaPrefix)) + "?"
	case len(rules.QuotaPrefix)+slash > rules.MaxNameLen:
		return want + "; the part before the '/' must be no more than 244 bytes"
	}
	return want
}

// supportedNames are the unqualified resource names, in the order findings list them.
var supportedNames = []string{string(instancetype.ResourceCPU), string(instancetype.ResourceMemory)}

// unknownNameDetail is appended to the "supported values" of a NotSupported finding for an
// unqualified resource name that is neither cpu nor memory.
func unknownNameDetail(name string) string {
	detail := ", or a fully qualified extended resource such as \"nvidia.com/gpu\""
	if s := suggestResourceName(name); s != "" {
		detail += "; did you mean " + clip.Quote(s) + "?"
	}
	return detail
}

// resourceAliases are the names people write for a resource, lowercased.
var resourceAliases = map[string]string{
	"cpu": "cpu", "cpus": "cpu", "core": "cpu", "cores": "cpu", "vcpu": "cpu", "vcpus": "cpu",
	"processor": "cpu", "processors": "cpu",
	"memory": "memory", "mem": "memory", "ram": "memory", "memories": "memory",
	"gpu": "nvidia.com/gpu", "gpus": "nvidia.com/gpu", "nvidia-gpu": "nvidia.com/gpu",
	"nvidia_gpu": "nvidia.com/gpu", "nvidia.gpu": "nvidia.com/gpu", "nvidia": "nvidia.com/gpu",
	"nvidia.com": "nvidia.com/gpu", "amd-gpu": "amd.com/gpu", "amd_gpu": "amd.com/gpu",
	"amd": "amd.com/gpu",
}

// suggestResourceName returns the resource name an unknown unqualified name most likely
// meant ("cpus" → "cpu", "gpu" → "nvidia.com/gpu", "memroy" → "memory"), or "".
func suggestResourceName(name string) string {
	if len(name) > 32 {
		return ""
	}
	lower := strings.ToLower(name)
	if s, ok := resourceAliases[lower]; ok {
		return s
	}
	best, bestDist := "", 3 // at most two edits away
	for _, candidate := range []string{"cpu", "memory", "gpu"} {
		limit := 2
		if len(candidate) <= 3 {
			limit = 1 // one edit turns any three-letter word into many others
		}
		if d := textdist.Distance(lower, candidate, limit); d <= limit && d < bestDist {
			best, bestDist = candidate, d
		}
	}
	if best != "" {
		return resourceAliases[best]
	}
	return ""
}

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
