package quantity

import (
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Benchmarks beside apimachinery's, in the same run, so that one
//
//	go test -run XXX -bench . -benchmem -count 6 ./quantity
//
// compares them: BenchmarkParse/ours/S, BenchmarkParse/apimachinery/S and
// BenchmarkParse/strconv/S (strconv.ParseInt on the bare digits of S), and likewise
// ours/apimachinery for Cmp, String and AppendText.

// benchInputs are the values instance types carry (the source document's examples),
// each with its bare digits for strconv.ParseInt.
var benchInputs = []struct{ in, digits string }{
	{"100m", "100"}, {"700m", "700"}, {"1", "1"}, {"2", "2"}, {"1500Mi", "1500"},
	{"2Gi", "2"}, {"1Gi", "1"}, {"0.5Gi", "05"}, {"0.2Gi", "02"}, {"0.1", "01"},
	{"1024Mi", "1024"}, {"4G", "4"}, {"1e3", "1"},
}

var sinkResource resource.Quantity

func BenchmarkParse(b *testing.B) {
	for _, in := range benchInputs {
		b.Run("ours/"+in.in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkQuantity, sinkErr = Parse(in.in)
			}
		})
	}
	for _, in := range benchInputs {
		b.Run("apimachinery/"+in.in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkResource, sinkErr = resource.ParseQuantity(in.in)
			}
		})
	}
	for _, in := range benchInputs {
		b.Run("strconv/"+in.in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkInt64, sinkErr = strconv.ParseInt(in.digits, 10, 64)
			}
		})
	}
}

// cmpPairs are comparisons validation makes: a request against a limit, a value
// against a minimum.
var cmpPairs = []struct{ a, b string }{
	{"100m", "2"}, {"700m", "1"}, {"1500Mi", "2Gi"}, {"2Gi", "2Gi"}, {"1Gi", "1M"},
	{"0.5Gi", "4G"}, {"1024Mi", "1Gi"}, {"2", "2000m"},
}

func BenchmarkCmp(b *testing.B) {
	for _, p := range cmpPairs {
		x, y := MustParse(p.a), MustParse(p.b)
		b.Run("ours/"+p.a+"_vs_"+p.b, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkInt = x.Cmp(y)
			}
		})
	}
	for _, p := range cmpPairs {
		x, y := resource.MustParse(p.a), resource.MustParse(p.b)
		b.Run("apimachinery/"+p.a+"_vs_"+p.b, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkInt = x.Cmp(y)
			}
		})
	}
}

// apimachinery caches the text of a parsed quantity; the String benchmarks use
// computed quantities (ToResource) so that both sides do the formatting.

func BenchmarkString(b *testing.B) {
	for _, in := range benchInputs {
		q := MustParse(in.in)
		b.Run("ours/"+in.in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkString = q.String()
			}
		})
	}
	for _, in := range benchInputs {
		r := MustParse(in.in).ToResource()
		b.Run("apimachinery/"+in.in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := r // a copy without the cached text
				sinkString = c.String()
			}
		})
	}
}

func BenchmarkAppendText(b *testing.B) {
	buf := make([]byte, 0, 64)
	for _, in := range benchInputs {
		q := MustParse(in.in)
		b.Run("ours/"+in.in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkBytes, sinkErr = q.AppendText(buf[:0])
			}
		})
	}
	for _, in := range benchInputs {
		r := MustParse(in.in).ToResource()
		b.Run("apimachinery/"+in.in, func(b *testing.B) { // its nearest: CanonicalizeBytes
			b.ReportAllocs()
			for b.Loop() {
				c := r
				n, s := c.CanonicalizeBytes(buf[:0])
				sinkBytes = append(n, s...)
			}
		})
	}
}
