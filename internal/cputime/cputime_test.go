package cputime_test

import (
	"testing"

	"github.com/amlarc-go/instancetypes/internal/cputime"
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
