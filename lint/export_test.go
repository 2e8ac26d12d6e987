package lint

// SetMaxPending sets the budget of the workloads a run keeps until the catalog is formed,
// and returns a function that restores it.
func SetMaxPending(n int64) (restore func()) {
	old := maxPending
	maxPending = n
	return func() { maxPending = old }
}
