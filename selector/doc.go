// Package selector implements the node selector algebra of instance types:
// merging an extension's nodeSelector with an instance type's (rule R7),
// comparing selectors, matching them against node labels, and validating
// label keys and values.
//
// Everything here operates on plain map[string]string values; the package
// knows nothing of instance types, workloads or the Kubernetes API server.
//
// # Selectors
//
// A selector is a set of key/value pairs. A set of labels matches a selector
// when every key of the selector is present among the labels with exactly the
// same value. An empty (or nil) selector matches every set of labels. As
// arguments, nil and empty maps are interchangeable everywhere in this
// package.
//
// [Merge] computes the union of two selectors: the selector that a node must
// satisfy to match both of them. The union holds every pair of both inputs
// and nothing else. A key that the two inputs set to different values can
// match no node at all; Merge reports every such key in a [*ConflictError],
// sorted by key, and returns no map.
//
// Nothing here writes into its arguments, and no function returns a map or slice that
// is one of them: the union Merge returns is always a new map. [Compatible] tells whether
// the union exists without building it.
//
// [IsSubset] and [Matches] are the same relation under two names: IsSubset
// compares two selectors, Matches tests a selector against a node's labels.
//
// Compatible, Merge (except for the map it builds), IsSubset, Matches, [ValidLabelKey],
// [ValidLabelValue] and [ValidateLabels] on valid input do not allocate.
//
// # Label grammar
//
// Label keys and values are checked exactly as Kubernetes checks them
// (k8s.io/apimachinery/pkg/api/validate/content IsLabelKey and
// IsLabelValue); no string is accepted or refused differently.
//
// A label key is an optional prefix and a name separated by a single '/':
//
//	key    = [ prefix "/" ] name
//	prefix = DNS-1123 subdomain: at most 253 bytes; one or more labels of
//	         [a-z0-9-] separated by '.', each label starting and ending with
//	         [a-z0-9] (lowercase only)
//	name   = 1 to 63 bytes of [A-Za-z0-9-_.], starting and ending with
//	         [A-Za-z0-9]
//
// A label value is either empty or, like a name, 1 to 63 bytes of
// [A-Za-z0-9-_.] starting and ending with [A-Za-z0-9].
//
// So "pool", "kubernetes.io/os" and "Node.Pool_1" are keys, while "",
// "/pool", "a/", "a/b/c", "Example.com/pool", "-pool" and "pööl" are not.
// Any byte outside ASCII (including invalid UTF-8) is refused.
//
// [ValidateLabels] reports every bad key and every bad value as a
// k8s.io/apimachinery/pkg/util/validation/field error whose path names the
// key (spec.nodeSelector[my label]), with the same detail text Kubernetes
// gives, sorted by key.
package selector
