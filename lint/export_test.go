package lint

// SetMaxPending sets the budget of the workloads a run keeps until the catalog is formed,
// and returns a function that restores it.
func SetMaxPending(n int64) (restore func()) {
	old := maxPending
	maxPending = n
	return func() { maxPending = old }
}

// SetMaxInstanceTypes sets the most instance types a run keeps for its catalog, and returns
// a function that restores it.
func SetMaxInstanceTypes(n int) (restore func()) {
	old := maxInstanceTypes
	maxInstanceTypes = n
	return func() { maxInstanceTypes = old }
}

// SetMaxPlacements sets the most placements a report lists, and returns a function that
// restores it.
func SetMaxPlacements(n int) (restore func()) {
	old := maxPlacements
	maxPlacements = n
	return func() { maxPlacements = old }
}
