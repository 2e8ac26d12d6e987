package instancetype_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

func TestAmountStates(t *testing.T) {
	var unset instancetype.Amount
	if unset.IsSet() || unset.IsValid() {
		t.Errorf("the zero Amount: IsSet %t, IsValid %t; want false, false", unset.IsSet(), unset.IsValid())
	}
	if _, err := unset.Quantity(); !errors.Is(err, instancetype.ErrUnset) {
		t.Errorf("Amount{}.Quantity() error = %v; want ErrUnset", err)
	}

	for _, s := range []string{"", "2Gx", "1.2.3", " 1"} {
		a := instancetype.ParseAmount(s)
		if !a.IsSet() || a.IsValid() || a.String() != s {
			t.Errorf("ParseAmount(%q): IsSet %t, IsValid %t, String %q; want true, false, %q", s, a.IsSet(), a.IsValid(), a.String(), s)
		}
		if _, err := a.Quantity(); err == nil || errors.Is(err, instancetype.ErrUnset) {
			t.Errorf("ParseAmount(%q).Quantity() error = %v; want the parse error", s, err)
		}
	}

	for _, s := range []string{"0", "700m", "2Gi", "1e3", "+1", ".5"} {
		a := instancetype.ParseAmount(s)
		q, err := a.Quantity()
		if !a.IsSet() || !a.IsValid() || err != nil || q.Cmp(quantity.MustParse(s)) != 0 || a.String() != s {
			t.Errorf("ParseAmount(%q) = %q (set %t, valid %t), Quantity() = %v, %v; want %s", s, a.String(), a.IsSet(), a.IsValid(), q, err, s)
		}
	}

	q := quantity.MustParse("1.5")
	if a := instancetype.AmountOf(q); a.String() != q.String() || !a.IsValid() {
		t.Errorf("AmountOf(%v) = %q, valid %t", q, a.String(), a.IsValid())
	}
	defer func() {
		if recover() == nil {
			t.Errorf("MustParseAmount(\"nope\") did not panic")
		}
	}()
	instancetype.MustParseAmount("nope")
}

// amountUnmarshalTests are JSON values with the Amount they decode to.
var amountUnmarshalTests = []struct {
	in    string
	text  string
	state string // "unset", "invalid", "valid" or "error"
	want  string // the quantity's String when valid
}{
	{`"2Gi"`, "2Gi", "valid", "2Gi"},
	{`"100m"`, "100m", "valid", "100m"},
	{`1`, "1", "valid", "1"},
	{`0.5`, "0.5", "valid", "500m"},
	{`1e3`, "1e3", "valid", "1e3"},
	{`-1`, "-1", "valid", "-1"},
	{` "1" `, "1", "valid", "1"}, // white space around the JSON value
	{`null`, "", "unset", ""},
	{`""`, "", "invalid", ""},
	{`"2Gx"`, "2Gx", "invalid", ""},
	{`1e400`, "1e400", "invalid", ""}, // a JSON number, but out of range
	// JSON string rules: escapes are decoded, and the quantity is read from the result,
	// white space around it trimmed, as quantity.Quantity.UnmarshalJSON reads it.
	{`"\u0031"`, "1", "valid", "1"},
	{`" 1"`, " 1", "valid", "1"},
	{`"1 "`, "1 ", "valid", "1"},
	{`"\n1\t"`, "\n1\t", "valid", "1"},
	{`"\u00a01"`, "\u00a01", "valid", "1"},
	{`"1\u0000"`, "1\x00", "invalid", ""},
	{`"a\"b\\c"`, `a"b\c`, "invalid", ""},
	{`"<&>"`, "<&>", "invalid", ""},
	{`"\ud800"`, "\ufffd", "invalid", ""}, // a lone surrogate is U+FFFD, as encoding/json has it
	{"\"\xff1\"", "\ufffd1", "invalid", ""},
	// not a JSON string, number or null
	{`true`, "", "error", ""},
	{`{}`, "", "error", ""},
	{`[]`, "", "error", ""},
	{``, "", "error", ""},
	{`2Gi`, "", "error", ""},
	{`-`, "", "error", ""},
	{`1 2`, "", "error", ""},
	{`"\x"`, "", "error", ""},
	{"\"1\t\"", "", "error", ""}, // a raw control character
	{`"1`, "", "error", ""},
	{`"1"x"`, "", "error", ""},
}

func TestAmountUnmarshalJSON(t *testing.T) {
	for _, tt := range amountUnmarshalTests {
		a := instancetype.MustParseAmount("7") // overwritten on success, untouched on error
		err := a.UnmarshalJSON([]byte(tt.in))
		if tt.state == "error" {
			if err == nil || a != instancetype.MustParseAmount("7") {
				t.Errorf("UnmarshalJSON(%s) = %q, %v; want an error and the amount unchanged", tt.in, a.String(), err)
			}
			if json.Valid([]byte(tt.in)) && strings.TrimSpace(tt.in) != "" {
				var v any
				_ = json.Unmarshal([]byte(tt.in), &v)
				if _, isString := v.(string); isString {
					t.Errorf("%s is a valid JSON string, but UnmarshalJSON refuses it", tt.in)
				}
			}
			continue
		}
		got := "invalid"
		switch {
		case !a.IsSet():
			got = "unset"
		case a.IsValid():
			got = "valid"
		}
		q, _ := a.Quantity()
		if err != nil || got != tt.state || a.String() != tt.text || (got == "valid" && q.String() != tt.want) {
			t.Errorf("UnmarshalJSON(%s) = %q (%s, %v), %v; want %q (%s, %s)", tt.in, a.String(), got, q, err, tt.text, tt.state, tt.want)
		}
		// One policy: the amount is valid exactly when quantity.Quantity reads the same
		// JSON, and then holds what it reads.
		if tt.state != "unset" {
			var want quantity.Quantity
			qerr := want.UnmarshalJSON([]byte(strings.TrimSpace(tt.in)))
			if a.IsValid() != (qerr == nil) || a.IsValid() && q != want {
				t.Errorf("UnmarshalJSON(%s): amount valid %t, %v; quantity.Quantity.UnmarshalJSON = %v, %v", tt.in, a.IsValid(), q, want, qerr)
			}
		}
		// encoding/json hands the value over as is.
		var b instancetype.Amount
		if err := json.Unmarshal([]byte(tt.in), &b); err != nil || b != a {
			t.Errorf("json.Unmarshal(%s) = %q, %v; UnmarshalJSON gives %q", tt.in, b.String(), err, a.String())
		}
	}
}

// amountMarshalTests are amounts with the JSON they encode to: encoding/json's escaping.
var amountMarshalTests = []struct {
	in   instancetype.Amount
	want string
}{
	{instancetype.Amount{}, `null`},
	{instancetype.MustParseAmount("2Gi"), `"2Gi"`},
	{instancetype.ParseAmount(""), `""`},
	{instancetype.ParseAmount(" 1"), `" 1"`},
	{instancetype.ParseAmount("1\x00"), `"1\u0000"`},
	{instancetype.ParseAmount("\n\t\x1f\x7f"), "\"\\n\\t\\u001f\x7f\""},
	{instancetype.ParseAmount(`a"b\c`), `"a\"b\\c"`},
	{instancetype.ParseAmount("<&>"), `"\u003c\u0026\u003e"`},
	{instancetype.ParseAmount("\u2028µ"), `"\u2028µ"`},
	{instancetype.ParseAmount("\xff1"), `"\ufffd1"`}, // invalid UTF-8: U+FFFD, as encoding/json writes it
	{instancetype.ParseAmount("\xed\xa0\x80"), `"\ufffd\ufffd\ufffd"`},
}

func TestAmountMarshalJSON(t *testing.T) {
	for _, tt := range amountMarshalTests {
		got, err := tt.in.MarshalJSON()
		if err != nil || string(got) != tt.want || !json.Valid(got) {
			t.Errorf("ParseAmount(%q).MarshalJSON() = %s, %v; want %s", tt.in.String(), got, err, tt.want)
		}
		if tt.in.IsSet() {
			if ref, _ := json.Marshal(tt.in.String()); string(ref) != string(got) {
				t.Errorf("ParseAmount(%q).MarshalJSON() = %s; encoding/json writes the text as %s", tt.in.String(), got, ref)
			}
		}
		// Inside a document too: json.Marshal checks what MarshalJSON returns.
		doc := map[string]instancetype.ResourceList{"limits": {"cpu": tt.in}}
		if _, err := json.Marshal(doc); err != nil {
			t.Errorf("json.Marshal of a document holding %q: %v", tt.in.String(), err)
		}
	}
}

func TestAmountJSONDocument(t *testing.T) {
	type doc struct {
		R instancetype.ResourceList `json:"r"`
	}
	var d doc
	in := `{"r":{"cpu":1,"memory":"2Gi","gpu":null,"empty":"","bad":"2Gx","frac":0.5,"exp":1e3,"ctl":"\u0000","esc":"\u0031"}}`
	if err := json.Unmarshal([]byte(in), &d); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", in, err)
	}
	for name, want := range map[instancetype.ResourceName]struct {
		text         string
		set, isValid bool
	}{
		"cpu": {"1", true, true}, "memory": {"2Gi", true, true}, "gpu": {"", false, false},
		"empty": {"", true, false}, "bad": {"2Gx", true, false}, "frac": {"0.5", true, true},
		"exp": {"1e3", true, true}, "ctl": {"\x00", true, false}, "esc": {"1", true, true},
	} {
		a, present := d.R[name]
		if !present || a.String() != want.text || a.IsSet() != want.set || a.IsValid() != want.isValid {
			t.Errorf("r[%s] = %q (present %t, set %t, valid %t); want %q (set %t, valid %t)",
				name, a.String(), present, a.IsSet(), a.IsValid(), want.text, want.set, want.isValid)
		}
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatalf("json.Marshal(%+v): %v", d, err)
	}
	var back doc
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", b, err)
	}
	if len(back.R) != len(d.R) {
		t.Fatalf("round trip through %s has %d entries; want %d", b, len(back.R), len(d.R))
	}
	for name, a := range d.R {
		if back.R[name] != a {
			t.Errorf("round trip of r[%s] through %s = %q; want %q", name, b, back.R[name].String(), a.String())
		}
	}
}

// genAmountText draws texts an amount may hold: quantities, near-quantities with white
// space, escapes' targets and HTML characters, any valid UTF-8, and any bytes at all.
var genAmountText = rapid.OneOf(
	rapid.SampledFrom([]string{"2Gi", "100m", "1", " 1", "1 ", "\t2Gi\n", "", "2Gx", "\u00a01"}),
	rapid.StringOf(rapid.SampledFrom([]rune("0123456789.+-eEmkMGiK \t\n\r\x00\x1f\x7f\"\\<>&/\u00a0\u2028\u2029\ufffdµ"))),
	rapid.String(),
	rapid.Custom(func(t *rapid.T) string { return string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")) }),
)

// propAmountJSON: Marshal always gives valid JSON, what encoding/json writes for the text;
// Unmarshal reads it back with the same text when that is valid UTF-8 (else with U+FFFD
// for each invalid byte), valid exactly when quantity.Quantity reads the same JSON.
func propAmountJSON(t *rapid.T) {
	s := genAmountText.Draw(t, "text")
	for _, a := range []instancetype.Amount{instancetype.ParseAmount(s), {}} {
		m, err := json.Marshal(a)
		if err != nil || !json.Valid(m) {
			t.Fatalf("json.Marshal(ParseAmount(%q)) = %s, %v; want valid JSON", a.String(), m, err)
		}
		if ref, _ := json.Marshal(a.String()); a.IsSet() && string(m) != string(ref) {
			t.Fatalf("json.Marshal(ParseAmount(%q)) = %s; encoding/json writes the text as %s", a.String(), m, ref)
		}
		var b instancetype.Amount
		if err := json.Unmarshal(m, &b); err != nil {
			t.Fatalf("json.Unmarshal(%s): %v", m, err)
		}
		if !a.IsSet() {
			if b.IsSet() {
				t.Fatalf("json.Unmarshal(%s) = %q; want unset", m, b.String())
			}
			continue
		}
		want := s
		if !utf8.ValidString(s) {
			want = string([]rune(s)) // each invalid byte is U+FFFD
		}
		if b.String() != want || !b.IsSet() {
			t.Fatalf("json.Unmarshal(json.Marshal(ParseAmount(%q))) = %q (set %t); want %q", s, b.String(), b.IsSet(), want)
		}
		var q quantity.Quantity
		qerr := q.UnmarshalJSON(m)
		bq, _ := b.Quantity()
		if b.IsValid() != (qerr == nil) || b.IsValid() && bq != q {
			t.Fatalf("json.Unmarshal(%s): amount valid %t, %v; quantity.Quantity.UnmarshalJSON = %v, %v", m, b.IsValid(), bq, q, qerr)
		}
		if aq, _ := a.Quantity(); a.IsValid() && (!b.IsValid() || bq != aq) {
			t.Fatalf("ParseAmount(%q) is valid (%v), but after JSON it is valid %t (%v)", s, aq, b.IsValid(), bq)
		}
	}
}

func TestPropAmountJSON(t *testing.T) { rapid.Check(t, propAmountJSON) }
func FuzzPropAmountJSON(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propAmountJSON)) }
