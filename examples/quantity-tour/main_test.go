package main

import (
	"strings"
	"testing"
)

const want = `Parse; String is apimachinery's canonical form:
  "100m"   100m            DecimalSI       MilliValue 100, Value 1
  "1.5"    1500m           DecimalSI       MilliValue 1500, Value 2
  "1024Mi" 1Gi             BinarySI        MilliValue 1073741824000, Value 1073741824
  "0.2Gi"  214748364800m   BinarySI        MilliValue 214748364800, Value 214748365
  "+1"     1               DecimalSI       MilliValue 1000, Value 1
  "1e3"    1e3             DecimalExponent MilliValue 1000000, Value 1000
  "2Gx"    quantity: parsing "2Gx": unknown suffix "x"

Cmp compares values; == compares value and format:
  1        vs 1000m  Cmp  0, == true
  1Ki      vs 1024   Cmp  0, == false
  1Gi      vs 1G     Cmp  1, == false
  1500Mi   vs 2Gi    Cmp -1, == false

Add is exact, and reports overflow:
  700m + 300m = 1
  5E + 5E: quantity: arithmetic overflow: value out of range; ErrRange: true
  apimachinery: 5E + 5E = 10E, whose Value is 0

JSON: strings or numbers in, canonical strings out:
  {"cpu": 1.5, "memory": "1024Mi"} -> {"cpu":"1500m","memory":"1Gi"} -> the same values: true

Conversion to and from resource.Quantity:
  ToResource(1536Mi) = 1536Mi, Value 1610612736; FromResource gives it back: true
  FromResource(1e30): quantity: resource.Quantity out of range: value out of range; ErrRange: true

Hostile input returns at once, with an error wrapping ErrRange (test with errors.Is):
  quantity: parsing "1e3061300070": value out of range; ErrRange: true
  quantity: parsing "9999999999999999999999999999999999999999"... (1048576 bytes): value out of range; ErrRange: true
  quantity: parsing "10Ei": value out of range; ErrRange: true
  apimachinery: 10Ei is capped to Value 9223372036854775807, and its MilliValue is -1000
`

func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatalf("run: %v", err)
	}
	if got := out.String(); got != want {
		t.Errorf("run output:\n%s\nwant:\n%s", got, want)
	}
}
