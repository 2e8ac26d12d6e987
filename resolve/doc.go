// Package resolve tells what a workload really gets: which instance type applies, on which
// nodes it runs and with which requests and limits.
package resolve
