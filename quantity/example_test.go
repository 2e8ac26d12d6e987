package quantity_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/amlarc-go/instancetypes/quantity"
)

func ExampleParse() {
	for _, s := range []string{"100m", "1.5", "1024Mi", "0.2Gi", "+1", "1e3", "2Gx", "10Ei"} {
		q, err := quantity.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-7s %-14s milli=%d value=%d\n", s, q, q.MilliValue(), q.Value())
	}
	// Output:
	// 100m    100m           milli=100 value=1
	// 1.5     1500m          milli=1500 value=2
	// 1024Mi  1Gi            milli=1073741824000 value=1073741824
	// 0.2Gi   214748364800m  milli=214748364800 value=214748365
	// +1      1              milli=1000 value=1
	// 1e3     1e3            milli=1000000 value=1000
	// quantity: parsing "2Gx": unknown suffix "x"
	// quantity: parsing "10Ei": value out of range
}

func ExampleParse_errors() {
	_, err := quantity.Parse("1e3061300070") // resource.ParseQuantity never returns
	var pe *quantity.ParseError
	fmt.Println(errors.Is(err, quantity.ErrRange), errors.As(err, &pe), pe.Input)
	// Output:
	// true true 1e3061300070
}

func ExampleMustParse() {
	// For tests and package-level values with hard-coded strings.
	minMemory := quantity.MustParse("4G")
	fmt.Println(minMemory, minMemory.Value())
	// Output:
	// 4G 4000000000
}

func ExampleParse_longNumbers() {
	// More than 19 significant digits are rounded up to 10^-9 exactly, as apimachinery
	// rounds them; only a rounded value an int64 cannot hold is refused.
	for _, s := range []string{"050.10679935660691460504Ki", "1.0000000000000000001Ki", "12345678901.2345678901"} {
		q, err := quantity.Parse(s)
		fmt.Println(q, err)
	}
	// Output:
	// 51309362541166n <nil>
	// 1024000000001n <nil>
	// 0 quantity: parsing "12345678901.2345678901": value out of range
}

func ExampleQuantity_Value() {
	// Value and MilliValue round away from zero, for negative values too; apimachinery's
	// are wrong for these (see the package documentation).
	for _, s := range []string{"1.5", "-1.5", "-0.2Gi", "-3e-12", "-1.025Ti"} {
		q := quantity.MustParse(s)
		fmt.Println(s, q.MilliValue(), q.Value())
	}
	// Output:
	// 1.5 1500 2
	// -1.5 -1500 -2
	// -0.2Gi -214748364800 -214748365
	// -3e-12 -1 -1
	// -1.025Ti -1126999418470400 -1126999418471
}

func ExampleQuantity_Cmp() {
	request, limit := quantity.MustParse("1500Mi"), quantity.MustParse("2Gi")
	fmt.Println(request.Cmp(limit))
	fmt.Println(quantity.MustParse("1").Cmp(quantity.MustParse("1000m")))
	fmt.Println(quantity.MustParse("1Ki") == quantity.MustParse("1024")) // same value, other format
	// Output:
	// -1
	// 0
	// false
}

func ExampleQuantity_String() {
	for _, s := range []string{"1.5", "1024Mi", "1.5Ki", "0.5Gi", "1000m", "5.", "1.5e3", "0.0001Ki"} {
		q := quantity.MustParse(s)
		fmt.Printf("%-8s %-8s %v\n", s, q, q.Format())
	}
	// Output:
	// 1.5      1500m    DecimalSI
	// 1024Mi   1Gi      BinarySI
	// 1.5Ki    1536     BinarySI
	// 0.5Gi    512Mi    BinarySI
	// 1000m    1        DecimalSI
	// 5.       5        DecimalSI
	// 1.5e3    1500     DecimalExponent
	// 0.0001Ki 102400u  DecimalSI
}

func ExampleQuantity_WithFormat() {
	q := quantity.MustParse("1Gi")
	fmt.Println(q, q.WithFormat(quantity.DecimalSI), q.WithFormat(quantity.DecimalExponent))
	// Output:
	// 1Gi 1073741824 1073741824
}

func ExampleQuantity_AppendText() {
	buf := make([]byte, 0, 64)
	buf = append(buf, "cpu="...)
	buf, _ = quantity.MustParse("0.7").AppendText(buf)
	fmt.Println(string(buf))
	// Output:
	// cpu=700m
}

func ExampleQuantity_Add() {
	sum, err := quantity.MustParse("1500Mi").Add(quantity.MustParse("548Mi"))
	fmt.Println(sum, err)
	_, err = quantity.MustParse("5E").Add(quantity.MustParse("5E"))
	fmt.Println(errors.Is(err, quantity.ErrRange))
	// Output:
	// 2Gi <nil>
	// true
}

func ExampleQuantity_MarshalJSON() {
	var limits struct {
		CPU    quantity.Quantity `json:"cpu"`
		Memory quantity.Quantity `json:"memory"`
	}
	// Kubernetes accepts quantities as JSON strings and numbers.
	if err := json.Unmarshal([]byte(`{"cpu": 1.5, "memory": "1024Mi"}`), &limits); err != nil {
		panic(err)
	}
	out, _ := json.Marshal(limits)
	fmt.Println(string(out))
	// Output:
	// {"cpu":"1500m","memory":"1Gi"}
}

func ExampleFromResource() {
	q, err := quantity.FromResource(resource.MustParse("0.5Gi"))
	fmt.Println(q, err)
	_, err = quantity.FromResource(resource.MustParse("1e30"))
	fmt.Println(err)
	// Output:
	// 512Mi <nil>
	// quantity: resource.Quantity out of range: value out of range
}

func ExampleQuantity_ToResource() {
	r := quantity.MustParse("1.5").ToResource()
	fmt.Println(r.String(), r.MilliValue(), r.Format)
	// Output:
	// 1500m 1500 DecimalSI
}
