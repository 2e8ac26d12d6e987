package webhook

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/client/internal/clip"
	"github.com/amlarc-go/instancetypes/instancetype"
)

// maxCauseBytes is the longest message of one cause: package validate cuts the values it
// repeats, and this bounds whatever else a finding says.
const maxCauseBytes = 1024

// invalid returns the denial for the findings errs of the instance type named name: the
// Status apierrors.NewInvalid builds (reason Invalid, code 422, details with the group,
// kind and name, a cause per finding), with at most MaxCauses causes and then one that
// counts the rest, and a message that names at most MessageCauses findings. With no more
// findings than that, the message is NewInvalid's.
func invalid(name string, errs field.ErrorList) *apierrors.StatusError {
	name = clip.String(name)
	n := min(len(errs), MaxCauses)
	causes := make([]metav1.StatusCause, 0, n+1)
	for _, e := range errs[:n] {
		causes = append(causes, metav1.StatusCause{
			Type:    metav1.CauseType(e.Type),
			Message: cut(e.ErrorBody(), maxCauseBytes),
			Field:   clip.String(e.Field),
		})
	}
	if more := len(errs) - n; more > 0 {
		causes = append(causes, metav1.StatusCause{
			Type:    CauseTooManyFindings,
			Message: fmt.Sprintf("%d more %s not listed: a denial lists at most %d", more, plural(more, "finding", "findings"), MaxCauses),
		})
	}
	msg := fmt.Sprintf("%s %q is invalid", GroupKind.String(), name)
	if len(errs) > 0 {
		msg += ": " + summary(errs)
	}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusUnprocessableEntity,
		Reason:  metav1.StatusReasonInvalid,
		Message: msg,
		Details: &metav1.StatusDetails{Group: GroupKind.Group, Kind: GroupKind.Kind, Name: name, Causes: causes},
	}}
}

// summary renders errs as field.ErrorList.ToAggregate does (the message alone for one
// finding, else "[a, b]", identical messages once), with at most MessageCauses distinct
// messages, followed by how many findings with other messages there are.
//
// A finding's message is rendered only when it is listed, or when a listed message begins
// with its field (only then can the two be the same): the cost of a finding the summary
// only counts is a few comparisons, with no allocation.
func summary(errs field.ErrorList) string {
	var msgs []string
	more := 0
	for _, e := range errs {
		f := clip.String(e.Field)
		if len(msgs) == MessageCauses && !slices.ContainsFunc(msgs, func(m string) bool {
			return len(m) > len(f)+1 && m[:len(f)] == f && m[len(f):len(f)+2] == ": "
		}) {
			more++
			continue
		}
		msg := f + ": " + cut(e.ErrorBody(), maxCauseBytes)
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

// warningsFor returns the warnings of an admitted (or denied) instance type it: the count
// of the findings kept by ratcheting, up to nine of them and how many more, then the
// override of the built-in default. At most MaxWarnings, each a warningText.
func warningsFor(it *instancetype.InstanceType, kept field.ErrorList) []string {
	var out []string
	if n := len(kept); n > 0 {
		out = append(out, warningText(fmt.Sprintf("%d %s unchanged since the stored object, so allowed; a change to %s must fix %s",
			n, plural(n, "finding at a value", "findings at values"), plural(n, "that value", "those values"), plural(n, "it", "them"))))
		const listed = MaxWarnings - 3 // the count, the rest, the override
		for _, e := range kept[:min(n, listed)] {
			out = append(out, warningText("unchanged: "+e.Error()))
		}
		if more := n - listed; more > 0 {
			out = append(out, warningText(fmt.Sprintf("and %d more unchanged %s not listed", more, plural(more, "finding", "findings"))))
		}
	}
	if it.Name == instancetype.DefaultName {
		out = append(out, warningText("overrides the built-in "+instancetype.DefaultName+": workloads that name no instance type get this one"))
	}
	return out
}

// warningText makes s a warning the API server passes on whole: valid UTF-8, control
// characters written as Go escapes (the API server drops a warning that has one), at most
// MaxWarningRunes characters, the last of them "…" when s was cut.
func warningText(s string) string {
	var b strings.Builder
	n := 0 // characters in b
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		piece := string(r)
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			piece = q[1 : len(q)-1]
		}
		b.WriteString(piece)
		n += utf8.RuneCountInString(piece)
		if n > MaxWarningRunes {
			break
		}
	}
	if n <= MaxWarningRunes {
		return b.String()
	}
	runes := []rune(b.String())
	return string(runes[:MaxWarningRunes-1]) + "…"
}

// cut returns s, or its first n bytes (at a UTF-8 boundary) followed by "... (N bytes)".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
