package selector

// IsSubset reports whether every key/value pair of sub is also in super: each
// key of sub is present in super with the same value. A nil or empty sub is
// a subset of every selector, including a nil one.
//
// With sub an instance type's selector and super the extension's, this is
// the literal subset rule of R7 (strict mode). IsSubset does not allocate.
func IsSubset(sub, super map[string]string) bool {
	if len(sub) > len(super) {
		return false
	}
	for k, v := range sub {
		if w, ok := super[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Matches reports whether a node carrying labels satisfies the selector sel:
// every key of sel is present in labels with the same value. Labels sel does
// not mention are ignored, and an empty or nil sel matches every node, even
// one without labels. Keys are compared exactly, as Kubernetes does: there
// is no case folding and no pattern matching. A key mapped to "" in sel
// requires the label to be present with an empty value.
//
// Matches(sel, labels) is IsSubset(sel, labels). It does not allocate.
func Matches(sel, labels map[string]string) bool {
	return IsSubset(sel, labels)
}
