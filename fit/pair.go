package fit

// Pair is one key/value pair of a node selector, or one label of a node.
type Pair struct {
	Key   string
	Value string
}

// String renders p as key=value, unquoted.
func (p Pair) String() string { return p.Key + "=" + p.Value }
