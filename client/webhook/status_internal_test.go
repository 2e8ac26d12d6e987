package webhook

import (
	"fmt"
	"github.com/amlarc-go/instancetypes/client/internal/clip"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"
)

// genErrors draws a list of findings of every type, some repeated, with short text (so
// that nothing is cut).
func genErrors(t *rapid.T, maxLen int) field.ErrorList {
	paths := []string{"metadata.name", "spec.nodeSelector[a b]", "spec.resources.limits[cpu]", "spec.extra", "spec.resources.requests[nvidia.com/gpu]"}
	n := rapid.IntRange(0, maxLen).Draw(t, "findings")
	var errs field.ErrorList
	for i := range n {
		path := rapid.SampledFrom(paths).Draw(t, fmt.Sprint("path ", i))
		var p *field.Path
		for _, s := range strings.Split(path, ".") {
			if p == nil {
				p = field.NewPath(s)
			} else {
				p = p.Child(s)
			}
		}
		detail := rapid.SampledFrom([]string{"", "must be greater than zero", "set it to 1"}).Draw(t, fmt.Sprint("detail ", i))
		value := rapid.SampledFrom([]any{"0", "a b", int64(3), true}).Draw(t, fmt.Sprint("value ", i))
		var e *field.Error
		switch rapid.IntRange(0, 4).Draw(t, fmt.Sprint("type ", i)) {
		case 0:
			e = field.Invalid(p, value, detail)
		case 1:
			e = field.Required(p, detail)
		case 2:
			e = field.Forbidden(p, detail)
		case 3:
			e = field.NotSupported(p, value, []string{"cpu", "memory"})
		default:
			e = field.TypeInvalid(p, value, detail)
		}
		errs = append(errs, e)
	}
	return errs
}

// TestInvalidIsNewInvalid: with at most MessageCauses findings, the denial is the Status
// apierrors.NewInvalid builds, message included; with more, its causes are NewInvalid's
// first MaxCauses and one that counts the rest, and its message begins as NewInvalid's.
func TestInvalidIsNewInvalid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		errs := genErrors(t, 2*MaxCauses)
		name := rapid.SampledFrom([]string{"gpu", "", "a b"}).Draw(t, "name")
		got := invalid(name, errs).ErrStatus
		want := apierrors.NewInvalid(GroupKind, name, errs).ErrStatus
		if len(errs) <= MessageCauses {
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("invalid(%d findings) = %+v\nNewInvalid = %+v", len(errs), got, want)
			}
			return
		}
		if got.Code != want.Code || got.Reason != want.Reason || got.Status != want.Status ||
			got.Details.Group != want.Details.Group || got.Details.Kind != want.Details.Kind || got.Details.Name != want.Details.Name {
			t.Fatalf("invalid = %+v; NewInvalid = %+v", got, want)
		}
		n := min(len(errs), MaxCauses)
		if !reflect.DeepEqual(got.Details.Causes[:n], want.Details.Causes[:n]) {
			t.Fatalf("the first %d causes differ", n)
		}
		switch more := len(errs) - n; {
		case more == 0 && len(got.Details.Causes) != n:
			t.Fatalf("%d causes for %d findings", len(got.Details.Causes), len(errs))
		case more > 0:
			last := got.Details.Causes[len(got.Details.Causes)-1]
			if len(got.Details.Causes) != MaxCauses+1 || last.Type != CauseTooManyFindings || !strings.HasPrefix(last.Message, fmt.Sprintf("%d more ", more)) {
				t.Fatalf("%d findings: %d causes, the last %+v", len(errs), len(got.Details.Causes), last)
			}
		}
		// The message names findings in NewInvalid's form, up to a point: it is NewInvalid's
		// when the findings have no more than MessageCauses distinct messages.
		prefix := want.Message[:strings.Index(want.Message, ": ")+2]
		if got.Message != want.Message && (!strings.HasPrefix(got.Message, prefix+"[") || !strings.HasSuffix(got.Message, " more findings]") && !strings.HasSuffix(got.Message, " 1 more finding]")) {
			t.Fatalf("message %q; want it to begin %q[ and end with a count", got.Message, prefix)
		}
		if strings.Count(got.Message, ", ") > MessageCauses+1 && len(got.Message) > 2000 {
			t.Fatalf("message names too many findings: %q", got.Message)
		}
	})
}

// TestInvalidBounds: hostile findings (a megabyte key, a megabyte detail) make a bounded
// denial: fields, names and messages are cut.
func TestInvalidBounds(t *testing.T) {
	huge := strings.Repeat("k", 64<<10)
	var errs field.ErrorList
	for range MaxCauses + 5 {
		errs = append(errs, field.Invalid(field.NewPath("spec", "nodeSelector").Key(huge), huge, huge))
	}
	st := invalid(huge, errs).ErrStatus
	total := len(st.Message) + len(st.Details.Name)
	for _, c := range st.Details.Causes {
		total += len(c.Field) + len(c.Message)
		if len(c.Field) > 300 || len(c.Message) > maxCauseBytes+32 {
			t.Fatalf("a cause of %d and %d bytes", len(c.Field), len(c.Message))
		}
	}
	if len(st.Message) > MessageCauses*2000 || total > (MaxCauses+1)*1500 {
		t.Errorf("message of %d bytes, %d bytes in all", len(st.Message), total)
	}
}

func TestWarningText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"short", "short"},
		{"a\nb\x00c", `a\nb\x00c`},
		{"bad \xff utf-8", "bad \uFFFD utf-8"},
		{strings.Repeat("é", MaxWarningRunes), strings.Repeat("é", MaxWarningRunes)},
		{strings.Repeat("é", MaxWarningRunes+1), strings.Repeat("é", MaxWarningRunes-1) + "…"},
		{strings.Repeat("\n", MaxWarningRunes), strings.Repeat(`\n`, (MaxWarningRunes-1)/2) + `\` + "…"},
	} {
		got := warningText(tc.in)
		if got != tc.want {
			t.Errorf("warningText(%.30q) = %.40q; want %.40q", tc.in, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > MaxWarningRunes || !utf8.ValidString(got) || strings.ContainsFunc(got, unicode.IsControl) {
			t.Errorf("warningText(%.30q) = %q: %d characters, or invalid", tc.in, got, n)
		}
	}
}

// refSummary is summary as it was first written, rendering every finding's message: the
// reference of TestSummaryIsReference.
func refSummary(errs field.ErrorList) string {
	var msgs []string
	more := 0
	for _, e := range errs {
		msg := clip.String(e.Field) + ": " + cut(e.ErrorBody(), maxCauseBytes)
		switch {
		case slices.Contains(msgs, msg):
		case len(msgs) < MessageCauses:
			msgs = append(msgs, msg)
		default:
			more++
		}
	}
	if more > 0 {
		msgs = append(msgs, fmt.Sprintf("and %d more %s", more, plural(more, "finding", "findings")))
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// summary renders only the messages it may list, and is what rendering them all gives:
// with fields that make two findings' messages the same text ("a" with the detail
// "Required value", and "a: Required value" with none), and fields that begin another's.
func TestSummaryIsReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var errs field.ErrorList
		for i := range rapid.IntRange(0, 3*MessageCauses).Draw(t, "findings") {
			p := field.NewPath(rapid.SampledFrom([]string{"a", "a: Required value", "a:", "b", "c", "d", "e", "f"}).Draw(t, fmt.Sprint("field ", i)))
			detail := rapid.SampledFrom([]string{"", "Required value", "x"}).Draw(t, fmt.Sprint("detail ", i))
			if rapid.Bool().Draw(t, fmt.Sprint("required ", i)) {
				errs = append(errs, field.Required(p, detail))
			} else {
				errs = append(errs, field.Invalid(p, "v", detail))
			}
		}
		if got, want := summary(errs), refSummary(errs); got != want {
			t.Fatalf("summary = %q; want %q", got, want)
		}
	})
}

var sinkString string

// summary renders no message of a finding it only counts: its allocations do not grow
// with the findings (rendering each took two for each of 30,000 bad keys).
func TestSummaryAllocations(t *testing.T) {
	errs := make(field.ErrorList, 30000)
	for i := range errs {
		errs[i] = field.Invalid(field.NewPath("spec", "nodeSelector").Key(fmt.Sprint("bad key ", i)), "bad key", "name part must consist of alphanumeric characters")
	}
	if allocs := testing.AllocsPerRun(5, func() { sinkString = summary(errs) }); allocs > 60 {
		t.Errorf("summary of %d findings: %.0f allocations; want at most 60 (those of the messages it lists)", len(errs), allocs)
	}
}
