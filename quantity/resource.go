package quantity

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"k8s.io/apimachinery/pkg/api/resource"
)

// errResourceRange is what FromResource returns; it wraps ErrRange.
var errResourceRange = fmt.Errorf("quantity: resource.Quantity out of range: %w", ErrRange)

// ToResource returns q as a resource.Quantity with the same value and format; its
// String is q.String(). It does not allocate.
func (q Quantity) ToResource() resource.Quantity {
	r := resource.NewScaledQuantity(q.n, resource.Scale(q.exp))
	r.Format = q.f.resource()
	return *r
}

// FromResource returns the Quantity with r's value and format. A value with digits
// below 10^-9, which only a hand-built resource.Quantity holds, is rounded up away from
// zero as parsing rounds it; a Format other than apimachinery's three is taken as
// DecimalExponent, as apimachinery prints it.
//
// When r's magnitude exceeds 2^63−1 or its significant digits do not fit an int64 (a
// quantity apimachinery parsed from "10Ei" or "1e30"), it returns the zero Quantity and
// an error wrapping ErrRange.
func FromResource(r resource.Quantity) (Quantity, error) {
	f := formatOf(r.Format)
	if v, ok := r.AsInt64(); ok { // the common case: an int64Amount at scale 0
		if v == math.MinInt64 {
			return Quantity{}, errResourceRange
		}
		q, _ := fromScaled(v < 0, u128{0, abs(v)}, 0, f)
		return q, nil
	}
	d := r.AsDec()
	u, scale := d.UnscaledBig(), int64(d.Scale()) // r is u×10^-scale
	if u.Sign() == 0 {
		return Quantity{}, nil
	}
	neg := u.Sign() < 0
	mag := new(big.Int).Abs(u)
	e := -scale
	if mag.BitLen() > 128 {
		// Beyond 128 bits only a small value with many digits below 10^-9 can be in
		// range: count it in units of 10^-9 first, rounding up.
		if e >= -9 {
			return Quantity{}, errResourceRange
		}
		k := -9 - e
		if float64(k) > float64(mag.BitLen())*math.Log10(2)+1 { // mag < 10^k
			mag.SetInt64(1)
		} else {
			div := new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil)
			var rem big.Int
			mag.QuoRem(mag, div, &rem)
			if rem.Sign() != 0 {
				mag.Add(mag, big.NewInt(1))
			}
		}
		if mag.BitLen() > 128 {
			return Quantity{}, errResourceRange
		}
		e = -9
	}
	var buf [16]byte
	mag.FillBytes(buf[:])
	p := u128{binary.BigEndian.Uint64(buf[:8]), binary.BigEndian.Uint64(buf[8:])}
	q, ok := fromScaled(neg, p, e, f)
	if !ok {
		return Quantity{}, errResourceRange
	}
	return q, nil
}

// resource returns apimachinery's name for f.
func (f Format) resource() resource.Format {
	switch f {
	case BinarySI:
		return resource.BinarySI
	case DecimalExponent:
		return resource.DecimalExponent
	}
	return resource.DecimalSI
}

// formatOf returns the Format apimachinery's f prints as.
func formatOf(f resource.Format) Format {
	switch f {
	case resource.DecimalSI:
		return DecimalSI
	case resource.BinarySI:
		return BinarySI
	}
	return DecimalExponent
}
