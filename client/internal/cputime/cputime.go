// Package cputime measures the processor time a piece of work takes, for tests that
// compare the cost of two inputs within one run. Unlike wall-clock time, it does not grow
// when other processes keep the machine busy, so the ratio of two measurements is steady
// on a loaded machine.
//
// It is for tests and benchmarks only, of this module and of the client module (whose
// import path is below this one's); the library does not use it.
package cputime

import (
	"math"
	"runtime"
	"runtime/debug"
	"time"
)

// Of runs f on one locked operating-system thread and returns the processor time, user
// and system, that thread spent in it. Work f hands to other goroutines, and the garbage
// collector's background work, are not counted; its assists on f's thread are. Where no
// thread's time can be read (outside Linux), it returns the wall-clock time f took.
func Of(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := now(thread)
	f()
	return now(thread) - start
}

// OfProcess runs f and returns the processor time, user and system, the whole process
// spent meanwhile: the garbage collector's background work included, and whatever else
// the process runs, so that the caller must run nothing else (a test that is not
// parallel, with GOMAXPROCS at 1 so that the collector does not run beside f on another
// processor's time). Where no process time can be read, it returns the wall-clock time.
//
// Of leaves out the collector's background work, which is not a fixed share of it: for a
// small heap the collector marks mostly in the background, for a large one f's thread
// assists it, so that Of overstates the cost of large inputs against small ones.
func OfProcess(f func()) time.Duration {
	start := now(process)
	f()
	return now(process) - start
}

// Scaling is one work at two sizes, whose processor times Compare measures: Small and
// Large run it, and Ratio is what Large takes over what Small takes.
type Scaling struct {
	Name         string
	Small, Large func()
	// SmallTime and LargeTime are the least processor time of each, once compared.
	SmallTime, LargeTime time.Duration
}

// Ratio returns LargeTime over SmallTime.
func (s *Scaling) Ratio() float64 { return float64(s.LargeTime) / float64(s.SmallTime) }

// Compare measures the processor time (OfProcess) of each work's Small and Large runs, on
// one processor, the works in turn, five rounds, and keeps the least of each: the run a
// busy machine disturbed least. Small is run ten times a measurement, and its time is the
// tenth of theirs. The collector is off while a run is measured and collects before
// each: whether a collection falls inside a measurement or not is most of what one
// differs from the next, and the cost compared is the work's own, the collector's
// depending on how the heap grew before. The caller must run nothing else meanwhile.
func Compare(works ...*Scaling) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	measure := func(f func()) time.Duration {
		runtime.GC()
		return OfProcess(f)
	}
	for _, w := range works {
		w.SmallTime, w.LargeTime = time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	}
	for range 5 {
		for _, w := range works {
			tenSmall := func() {
				for range 10 {
					w.Small()
				}
			}
			w.SmallTime = min(w.SmallTime, measure(tenSmall)/10)
			w.LargeTime = min(w.LargeTime, measure(w.Large))
		}
	}
}
