// Package cputime measures the processor time a piece of work takes on the calling
// goroutine's thread, for tests that compare the cost of two inputs within one run: unlike
// wall-clock time, it does not grow when other processes or the test's own parallel tests
// keep the machine busy, so a ratio of two measurements is steady on a loaded machine.
//
// It is for tests and benchmarks only; the library does not use it.
package cputime

import (
	"runtime"
	"time"
)

// Of runs f on one locked operating-system thread and returns the processor time that
// thread spent in it, user and system. Work that f hands to other goroutines, and the
// garbage collector's background work, are not counted; its assists on f's thread are.
// Where no thread's time can be read (outside Linux), it returns the wall-clock time f
// took.
func Of(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := now()
	f()
	return now() - start
}
