package cputime_test

import (
	"runtime/debug"
	"testing"

	"github.com/amlarc-go/instancetypes/client/internal/cputime"
)

var sink uint64

func spin(n int) {
	x := uint64(1)
	for i := range n {
		x = x*6364136223846793005 + uint64(i)
	}
	sink = x
}

// Work of ten times the steps takes more processor time than one; the measure is
// positive for real work. Only the order is asserted: no time bound.
func TestOf(t *testing.T) {
	small := cputime.Of(func() { spin(2_000_000) })
	large := cputime.Of(func() { spin(200_000_000) })
	if large <= 0 || large <= small {
		t.Errorf("Of(200M steps) = %v, Of(2M steps) = %v; want the larger work to take more", large, small)
	}
}

// OfProcess counts the work of the whole process: more for more steps, whichever
// goroutine does them.
func TestOfProcess(t *testing.T) {
	small := cputime.OfProcess(func() { spin(500_000) })
	large := cputime.OfProcess(func() {
		done := make(chan bool)
		go func() { spin(50_000_000); done <- true }()
		<-done
	})
	if large <= 0 || large <= small {
		t.Errorf("OfProcess(50M steps on another goroutine) = %v, OfProcess(0.5M steps) = %v; want the larger work to take more", large, small)
	}
}

// Compare measures each work at both sizes and keeps what each took: a hundred times the
// steps takes more, and the collector is on again after it. Only the order is asserted.
func TestCompare(t *testing.T) {
	w := &cputime.Scaling{Name: "spin", Small: func() { spin(20_000) }, Large: func() { spin(2_000_000) }}
	before := debug.SetGCPercent(100)
	debug.SetGCPercent(before)
	cputime.Compare(w)
	if w.SmallTime <= 0 || w.LargeTime <= w.SmallTime || w.Ratio() <= 1 {
		t.Errorf("Compare: small %v, large %v (%.1f×); want the larger work to take more", w.SmallTime, w.LargeTime, w.Ratio())
	}
	if after := debug.SetGCPercent(before); after != before {
		t.Errorf("GOGC is %d after Compare; want %d, as before", after, before)
	}
}
