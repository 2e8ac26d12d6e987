// Quantity-tour walks through package quantity, the allocation-free counterpart of
// apimachinery's resource.Quantity: parsing, comparing, canonical forms, MilliValue and
// Value, arithmetic with overflow reported, JSON, conversion to and from
// resource.Quantity, and the hostile inputs it refuses at once where apimachinery hangs,
// crawls or returns a wrong number. Run it with
//
//	go run ./examples/quantity-tour
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/amlarc-go/instancetypes/quantity"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quantity-tour:", err)
		os.Exit(1)
	}
}

// run prints the tour to w.
func run(w io.Writer) error {
	fmt.Fprintln(w, "Parse; String is apimachinery's canonical form:")
	for _, s := range []string{"100m", "1.5", "1024Mi", "0.2Gi", "+1", "1e3", "2Gx"} {
		q, err := quantity.Parse(s)
		if err != nil {
			fmt.Fprintf(w, "  %-8q %v\n", s, err)
			continue
		}
		fmt.Fprintf(w, "  %-8q %-15s %-15s MilliValue %d, Value %d\n", s, q, q.Format(), q.MilliValue(), q.Value())
	}

	// MustParse is for hard-coded strings, as here; input from users goes through Parse.
	fmt.Fprintln(w, "\nCmp compares values; == compares value and format:")
	for _, p := range [][2]string{{"1", "1000m"}, {"1Ki", "1024"}, {"1Gi", "1G"}, {"1500Mi", "2Gi"}} {
		a, b := quantity.MustParse(p[0]), quantity.MustParse(p[1])
		fmt.Fprintf(w, "  %-8s vs %-6s Cmp %2d, == %t\n", p[0], p[1], a.Cmp(b), a == b)
	}

	fmt.Fprintln(w, "\nAdd is exact, and reports overflow:")
	sum, err := quantity.MustParse("700m").Add(quantity.MustParse("300m"))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  700m + 300m = %v\n", sum)
	_, err = quantity.MustParse("5E").Add(quantity.MustParse("5E"))
	fmt.Fprintf(w, "  5E + 5E: %v; ErrRange: %t\n", err, errors.Is(err, quantity.ErrRange))
	r := resource.MustParse("5E")
	r.Add(resource.MustParse("5E"))
	fmt.Fprintf(w, "  apimachinery: 5E + 5E = %v, whose Value is %d\n", &r, r.Value())

	fmt.Fprintln(w, "\nJSON: strings or numbers in, canonical strings out:")
	var res struct {
		CPU    quantity.Quantity `json:"cpu"`
		Memory quantity.Quantity `json:"memory"`
	}
	in := `{"cpu": 1.5, "memory": "1024Mi"}`
	if err := json.Unmarshal([]byte(in), &res); err != nil {
		return err
	}
	out, err := json.Marshal(res)
	if err != nil {
		return err
	}
	again := res
	if err := json.Unmarshal(out, &again); err != nil {
		return err
	}
	fmt.Fprintf(w, "  %s -> %s -> the same values: %t\n", in, out, again == res)

	fmt.Fprintln(w, "\nConversion to and from resource.Quantity:")
	q := quantity.MustParse("1536Mi")
	rq := q.ToResource()
	back, err := quantity.FromResource(rq)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  ToResource(%v) = %v, Value %d; FromResource gives it back: %t\n", q, &rq, rq.Value(), back == q)
	_, err = quantity.FromResource(resource.MustParse("1e30"))
	fmt.Fprintf(w, "  FromResource(1e30): %v; ErrRange: %t\n", err, errors.Is(err, quantity.ErrRange))

	fmt.Fprintln(w, "\nHostile input returns at once, with an error wrapping ErrRange (test with errors.Is):")
	// resource.ParseQuantity("1e3061300070") never returns: do not try it.
	_, err = quantity.Parse("1e3061300070")
	fmt.Fprintf(w, "  %v; ErrRange: %t\n", err, errors.Is(err, quantity.ErrRange))
	// apimachinery takes seconds over a megabyte of digits.
	_, err = quantity.Parse(strings.Repeat("9", 1<<20))
	fmt.Fprintf(w, "  %v; ErrRange: %t\n", err, errors.Is(err, quantity.ErrRange))
	_, err = quantity.Parse("10Ei")
	fmt.Fprintf(w, "  %v; ErrRange: %t\n", err, errors.Is(err, quantity.ErrRange))
	r = resource.MustParse("10Ei")
	fmt.Fprintf(w, "  apimachinery: 10Ei is capped to Value %d, and its MilliValue is %d\n", r.Value(), r.MilliValue())
	return nil
}
