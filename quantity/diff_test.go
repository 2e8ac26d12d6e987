package quantity

import (
	"math/big"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// apimachineryCases are the inputs of apimachinery's own quantity tests
// (pkg/api/resource/quantity_test.go: TestQuantityParse, its invalid list,
// TestParseQuantity, TestParseQuantityString, TestQuantityParseEmit and the canonical
// and alternate strings of TestQuantityString), each also tried with "-" and "+" before.
var apimachineryCases = []string{
	// TestQuantityParse: zeros with every suffix
	"0", "0n", "0u", "0m", "0Ki", "0k", "0Mi", "0M", "0Gi", "0G", "0Ti", "0T",
	// suffixes
	"1", "1Ki", "8Ki", "7Mi", "6Gi", "5Ti", "4Pi", "3Ei", "10Ti", "100Ti",
	"5n", "4u", "3m", "9", "8k", "50k", "7M", "6G", "5T", "40T", "300T", "2P", "1E",
	// exponents
	"1E-3", "1e3", "1E6", "1e9", "1E12", "1e15", "1E18", "1e14", "1e13", "100.035k",
	// things that look like floating point
	"0.001", "0.0005k", "0.005", "0.05", "0.5", "0.00050k", "0.00500", "0.05000", "0.50000",
	"0.5e0", "0.5e-1", "0.5e-2", "10.035M", "1.2e3", "1.3E+6", "1.40e9", "1.53E12",
	"1.6e15", "1.7E18", "9.01", "8.1k", "7.123456M", "6.987654321G", "5.444T", "40.1T",
	"300.2T", "2.5P", "1.01E",
	// things that saturate or round
	"3.001n", "1.1E-9", "0.0000000001", "0.0000000005", "0.00000000050", "0.5e-9", "0.9n",
	"0.00000012345", "0.00000012354", "9Ei", "9223372036854775807Ki", "12E",
	// fractional binary
	"100.035Ki", "0.5Mi", "0.05Gi", "0.025Ti",
	// "things written by trolls"
	"0.000000000001Ki", ".001", ".0001k", "1.", "1.G",
	// the invalid list
	"1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ",
	// TestParseQuantityString
	"0.025Ti", "1.025Ti", "-1.025Ti", ".", "-.", "1E-3",
	// TestQuantityParseEmit
	"1Mi", "1Gi", "1024Mi", "1000M", ".001Ki", ".000001Ki", ".000000001Ki", ".000000000001Ki",
	// TestQuantityString: canonical and alternate forms
	"300Mi", "307200Ki", "6Ki", "1001Gi", "1025024Mi", "1024Gi", "5000m", "500m",
	"1000M", "0.001T", "1000u", "80m", "1080m", "1.08", "1080000000n", "300M", "1234567M",
	"1234567m", "3k", "1025", "1e9", ".001e12", "0.001e0", "1e-9", "1000e-12", "80e-3",
	"300e6", "3e3", "00", "1n", "80n", "1080n", "1u", "80u", "1080u",
	// TestParseQuantity: around 18, 19 and 20 digits and the int64 limits
	"999999999999999999", "999999999999999999.0", "999999999999999999.1",
	"9999999999999999999", "1000000000000000000", "9999999999999999999.0", "1.0E",
	"1000000000000000000.0", "9999999999999999999000m", "9999999999999999999.1",
	"1.0000000000000000001E", "1000000000000000000.1", "1.000000000000000001E",
	"1000000000000000001", "10E", "10000000000000000000", "10.0E", "10000000000000000000.0",
	"10000000000000000000000m", "10.0000000000000000001E", "10000000000000000000.1",
	"10.000000000000000001E", "10000000000000000001", "9223372036854775809",
	"9223372036854775806", "9223372036854775809.0", "9223372036854775806.0",
	"9223372036854775809000m", "9223372036854775806000m", "9223372036854775809.1",
	"9223372036854775806.1", "9223372036854775808", "9223372036854775807",
	"9223372036854775808.0", "9223372036854775807.0", "9223372036854775808000m",
	"9223372036854775807000m", "9223372036854775808.1", "9223372036854775807.1",
}

// oddCases is our corpus of odd inputs, each with what it probes.
var oddCases = []string{
	// the values instance types carry
	"100m", "700m", "2", "1500Mi", "2Gi", "0.5Gi", "0.2Gi", "0.1", "4G", "4", "1M",
	// numbers without digits are 0, except on apimachinery's inf.Dec path
	"", "+", "-", "+.", "m", "-m", "Ki", "Ti", "Pi", "Ei", ".Pi", "e3", "E3", "-e3", "e-9",
	"e-10", ".e-10", "-.e-10", "e+0", "E", "-E", "e2147483638", "e4294967286",
	// a point with no digits on one side, signs, leading zeros
	"5.", "+1", "01", "-0", "+0", "-0.0", "00000000000000000000000001", "007Ki", "-.5",
	"+.5k", "0.", ".0",
	// exponents: signs, leading zeros, both cases, bounds of int32
	"1e+3", "1e-3", "1e003", "1E+0", "1e-0", "2e18", "9e18", "1e19", "1e-9", "1e-10",
	"1e-1000", "1e1000", "-1e-1000", "0e1000", "1e2147483647", "1e-2147483648",
	"1e2147483648", "1e-2147483649", "1e4294967296", "1e-4294967296", "0e4294967296",
	"1e9223372036854775807", "1e-9223372036854775808", "1e9223372036854775808",
	"1.5e1", "15e-1", "0.1e-2147483647", "0.1e-2147483648",
	// bad exponents and suffixes
	"1e", "1E", "1e+", "1e-", "1e+-1", "1e1.5", "1e3e3", "1ee3", "1Ee3", "1e3Ki", "1ei",
	"1ki", "1K", "1KB", "1Kb", "1kb", "1mi", "1MI", "1gi", "2Gx", "1Mi3", "1m5", "1-",
	"1+5", "--1", "+-1", "-+1", "1..", "..1", "1.2.3", "1,5", "1_000", "0x10", "1\x00",
	"\t1", "1\n", "١", "1µ", "∞", "NaN", "Inf", "-Inf", "1 Gi", "1Gi ",
	// rounding up to 10^-9, away from zero
	"0.1n", "-0.1n", "1.0000000001", "-1.0000000001", "0.9999999999", "-0.9999999999",
	"0.0000000000000000000000000000001", "-0.0000000000000000000000000000001",
	"0.0000000001Ki", "0.000000000001Mi", "-0.000000000001Ei", "0.0001Ki", "-0.0001Ki",
	// binary suffixes at the int64 limit: apimachinery caps at 2^63-1
	"7Ei", "8Ei", "-8Ei", "10Ei", "7.99999999999999999Ei", "8191Pi", "8192Pi",
	"9007199254740991Ki", "9007199254740992Ki", "0.9999999999999999999Ei",
	"1.0000000000000000001Ki", "0.5000000000000000000001Ki", "1.00000000000000000000Ki",
	// significant digits around 19 and 20, decimal
	"1234567890123456789", "12345678901234567891", "1234567890.123456789",
	"12345678901.234567891", "12345678901.234567891234", "9223372036.854775807",
	"9223372036.854775808", "9223372036854775806.9999999999", "9223372036854775806.99999999991",
	"9223372036854775807.0000000000001", "999999999.9999999999", "99999999999999999999e-9",
	"1.00000000000000000000000000000000000000001", "100000000000000000000000000000e-30",
	"0.10000000000000000000000000000000000000000000", "1000000000000000000000E",
	// canonical forms that need care
	"1000m", "1024", "1023Ki", "1025Ki", "-1Ki", "-1024", "-1023", "1.5Ki", "-1.5Ki",
	"0.5Ki", "1.5", "1500m", "1e-3", "100e-3", "1e2", "10e2", "12e3", "1.2e4", "-1e3",
	"1.5e-8", "922337203685477580.7", "-922337203685477580.7",
}

// longCases have more than 19 significant digits: apimachinery takes them on its
// arbitrary-precision path and rounds them up to a multiple of 10^-9 exactly, and so do
// we; only a rounded value that does not fit an int64 significand, or exceeds 2^63−1 in
// magnitude, is refused.
var longCases = []string{
	// the example: 50.10679935660691460504 × 1024 is 51309.36254116548…
	"050.10679935660691460504Ki", "50.10679935660691460504Ki", "-050.10679935660691460504Ki",
	// binary suffixes on 20 and more digits: rounding, exact, carries
	"1.0000000000000000001Ki", "1.00000000000000000001Ki", "0.5000000000000000000001Ki",
	"1.00000000000000000000Ki", "0.99999999999999999999Ki", "0.9999999999999999999999999Ei",
	"1023.99999999999999999999Ki", "0.0009765624999999999999Ki", "0.00097656250000000000001Ki",
	"12345678901234567890.123456789Ki", "1234567890123.4567890123456789Mi",
	"0.1234567890123456789012345678901234567890Gi", "7.99999999999999999999999999Ei",
	"0.000000000000000000000000000000000000001Ei", "0.00000000000000000000000000000000000001Ki",
	// digits of 5^28 (20 digits) and 5^60 (42): times 2^10 or 2^60 they end in zeros
	"37252902984619140625Ki", "0.37252902984619140625Ki", "3.7252902984619140625e-10Ki",
	"867361737988403547205962240695953369140625e-42Ei",
	"0.867361737988403547205962240695953369140625Ei",
	// (2^63−1)/2^n exactly is 2^63−1, accepted; a digit more is above it, refused
	"9007199254740991.9990234375Ki", "9007199254740991.99902343750001Ki",
	"9007199254740991.9990234374Ki", "8796093022207.99999904632568359375Mi",
	"8796093022207.999999046325683593750000001Mi", "8589934591.999999999068677425384521484375Gi",
	"8388607.9999999999990905052982270717620849609375Ti",
	"8191.99999999999999911182158029987476766109466552734375Pi",
	"7.999999999999999999132638262011596452794037759304046630859375Ei",
	"7.999999999999999999132638262011596452794037759304046630859376Ei",
	"-7.999999999999999999132638262011596452794037759304046630859375Ei",
	// decimal suffixes and exponents
	"1.00000000000000000001", "1.0000000000000000000000000000001k", "123456789.0123456789012m",
	"1234567890.1234567890123u", "0.00000000000000000000012345678901234567890123G",
	"9223372036.8547758070000000001", "9223372036.854775806999999999999", "9.223372036854775807000000000001E",
	"99999999999999999999e-11", "99999999999999999999e-12", "12345678901234567890123e-14",
	"1.2345678901234567890123e+5", "12345678901234567890e-1", "1234567890123456789012345678e-28",
	"0.00000000000000000000000000000000000000000000000000000001e40",
	"100000000000000000000000000000000000000000000000000000000e-60",
	// leading zeros, many of them, and many fraction digits
	"0000000000000000000000000000001.0000000000000000000000000000001",
	"000000000000000000000000000000000000.000000000000000000000000001234567890123456789012",
	"0.99999999999999999999999999999999999999999999999999999999999999999999",
	"-0.00000000000000000000000000000000000000000000000000000000000000000001",
	"9999999999.9999999999999999999999", "-9999999999.9999999999999999999999Ki",
	// out of range: 20 significant digits after rounding, or beyond 2^63−1
	"12345678901.2345678901", "300000000000Ei", "295147905179352825856.1Ki", "1.00000000000000000000001E",
}

func TestParseMatchesApimachinery(t *testing.T) {
	for _, list := range [][]string{apimachineryCases, oddCases, longCases} {
		for _, s := range list {
			for _, in := range []string{s, "-" + s, "+" + s} {
				if err := diffOne(in); err != nil {
					t.Error(err)
				}
			}
		}
	}
}

// genQuantityText draws strings near the grammar: mostly well formed, with odd
// corners, long digit runs, exponents around the int64 and int32 limits, and junk.
var genQuantityText = rapid.Custom(func(t *rapid.T) string {
	var b strings.Builder
	b.WriteString(rapid.SampledFrom([]string{"", "", "", "-", "+", "--", " "}).Draw(t, "sign"))
	digits := rapid.StringOfN(rapid.SampledFrom([]rune("0000123456789")), 0, 25, -1)
	b.WriteString(digits.Draw(t, "int"))
	if rapid.IntRange(0, 2).Draw(t, "point") > 0 {
		b.WriteString(".")
		b.WriteString(digits.Draw(t, "frac"))
	}
	switch rapid.IntRange(0, 4).Draw(t, "suffixKind") {
	case 0:
		b.WriteString(rapid.SampledFrom([]string{
			"", "n", "u", "m", "k", "M", "G", "T", "P", "E",
			"Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
		}).Draw(t, "suffix"))
	case 1:
		b.WriteString(rapid.SampledFrom([]string{"e", "E"}).Draw(t, "e"))
		b.WriteString(rapid.SampledFrom([]string{"", "", "+", "-"}).Draw(t, "expSign"))
		b.WriteString(rapid.SampledFrom([]string{
			"0", "3", "9", "10", "18", "19", "20", "27", "28", "30", "100", "999",
			"2147483647", "2147483648", "4294967296", "9223372036854775807",
			"9223372036854775808", "",
		}).Draw(t, "exp"))
	case 2:
		b.WriteString(rapid.StringOfN(rapid.SampledFrom([]rune("eEinumkKMGTP+-.0123456789 x")), 0, 4, -1).Draw(t, "junk"))
	case 3:
		b.WriteString(rapid.String().Draw(t, "any"))
	}
	return b.String()
})

// fivePowers are the digits of 5^20 to 5^60: times a power of two they end in zeros,
// so a binary suffix can make many digits exact.
var fivePowers = func() []string {
	var out []string
	p := new(big.Int).Exp(big.NewInt(5), big.NewInt(20), nil)
	for range 41 {
		out = append(out, p.String())
		p.Mul(p, big.NewInt(5))
	}
	return out
}()

// genLongText draws numbers with more than 19 significant digits, which apimachinery
// takes on its arbitrary-precision path: leading zeros, runs of 9s (carries) and 0s,
// digits of powers of five, the point anywhere, every suffix, exponents that move the
// 10^-9 boundary through the digits, and both signs.
var genLongText = rapid.Custom(func(t *rapid.T) string {
	var digits strings.Builder
	digits.WriteString(strings.Repeat("0", rapid.IntRange(0, 3).Draw(t, "leadingZeros")))
	for digits.Len() < 20 || rapid.IntRange(0, 2).Draw(t, "more") > 0 {
		switch rapid.IntRange(0, 3).Draw(t, "chunk") {
		case 0:
			digits.WriteString(rapid.StringOfN(rapid.SampledFrom([]rune("0123456789")), 1, 20, -1).Draw(t, "random"))
		case 1:
			digits.WriteString(strings.Repeat("9", rapid.IntRange(1, 30).Draw(t, "nines")))
		case 2:
			digits.WriteString(strings.Repeat("0", rapid.IntRange(1, 30).Draw(t, "zeros")))
		case 3:
			digits.WriteString(rapid.SampledFrom(fivePowers).Draw(t, "fivePower"))
		}
	}
	d := digits.String()
	var b strings.Builder
	b.WriteString(rapid.SampledFrom([]string{"", "-", "+"}).Draw(t, "sign"))
	p := rapid.IntRange(-1, len(d)).Draw(t, "point")
	if p > 12 && rapid.Bool().Draw(t, "early") { // most values in range have few whole digits
		p %= 13
	}
	if p >= 0 {
		d = d[:p] + "." + d[p:]
	}
	b.WriteString(d)
	if rapid.Bool().Draw(t, "exponent") {
		b.WriteString(rapid.SampledFrom([]string{"e", "E"}).Draw(t, "e"))
		b.WriteString(rapid.SampledFrom([]string{"", "+", "-"}).Draw(t, "expSign"))
		b.WriteString(strconv.Itoa(rapid.IntRange(0, 80).Draw(t, "exp")))
	} else {
		b.WriteString(rapid.SampledFrom([]string{
			"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
		}).Draw(t, "suffix"))
	}
	return b.String()
})

func TestParseLongMatchesApimachinery(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genLongText.Draw(t, "s")
		if err := diffOne(s); err != nil {
			t.Fatal(err)
		}
	})
}

func TestParseMatchesApimachineryGenerated(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genQuantityText.Draw(t, "s")
		if err := diffOne(s); err != nil {
			t.Fatal(err)
		}
	})
}
