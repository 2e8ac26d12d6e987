package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/printers"
)

// What a hostile API server puts in its text: an OSC title sequence, a clear-screen,
// line breaks that forge GitHub Actions workflow commands, an old-form command anywhere
// in a line, a carriage return, an 8-bit CSI and a bidirectional override.
const (
	title   = "\x1b]0;pwned\a"
	clear   = "\x1b[2J"
	forged  = "\n::warning::forged\r\n::add-mask::x"
	oldForm = "##[error]forged"
	csi     = "\u009b2J"
	rtl     = "\u202e"
)

var hostileTexts = []string{title, clear, forged, oldForm, csi, rtl}

// checkSafe fails when out holds a control character or a CI runner's command: a line
// that starts with "::" (after white space), or "##" and letters followed by "[". And
// kubectl's fix of CVE-2021-25743 (printers.EscapeTerminal) must find nothing to escape.
func checkSafe(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e) {
			t.Errorf("%s holds %U:\n%s", what, r, out)
			break
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") || strings.Contains(line, "##[") || strings.Contains(line, "##vso[") {
			t.Errorf("%s: a CI runner takes this line for a command: %q", what, line)
		}
	}
	if printers.EscapeTerminal(out) != out {
		t.Errorf("%s: kubectl's EscapeTerminal would escape something in it:\n%q", what, out)
	}
}

// The API server's text never reaches the terminal raw: its error messages (403 and 500),
// its warnings, the names of instance types and the pools (label values) of nodes are
// escaped in capacity's text and JSON, and in list's and validate's output; no line can be
// taken for a CI runner's command. JSON keeps the values.
func TestServerTextEscaped(t *testing.T) {
	pools := []string{"a" + title + clear, "b" + forged + oldForm + csi + rtl}
	evil := strings.Join(hostileTexts, "|")
	handlers := map[string]listHandler{
		"nodes": func(w http.ResponseWriter, r *http.Request, n int) {
			w.Header().Set("Warning", `299 - "`+oldForm+`"`)
			writeList(w, "nodes", "", []string{nodeJSON("n0", pools[0]), nodeJSON("n1", pools[1])})
		},
		"instancetypes": func(w http.ResponseWriter, r *http.Request, n int) {
			writeList(w, "instancetypes", "", []string{instanceTypeJSON("bad" + evil)})
		},
		"pods": func(w http.ResponseWriter, r *http.Request, n int) {
			writeStatus(w, http.StatusForbidden, `pods is forbidden: `+evil)
		},
	}
	f := newFakeAPI(t, handlers)

	code, out, errOut := f.run("capacity")
	if code != 0 {
		t.Fatalf("capacity: exit %d\n%s", code, errOut)
	}
	checkSafe(t, "capacity's output", out)
	checkSafe(t, "capacity's standard error", errOut)
	// One line per pool, and the header: no line break of the server's made a line.
	if n := strings.Count(out, "\n"); n != 3 {
		t.Errorf("capacity: %d lines; want 3:\n%s", n, out)
	}
	for _, want := range []string{`a\x1b]0;pwned\a\x1b[2J`, `b\n::warning::forged\r\n::add-mask::x##\x5berror]forged\u009b2J\u202e`} {
		if !strings.Contains(out, want) {
			t.Errorf("capacity's output lacks the pool escaped, %s:\n%s", want, out)
		}
	}
	for _, want := range []string{"not allowed to list pods", "warning from the API server: ##\\x5berror]forged", `left out: metadata.name: Invalid value: "bad\x1b]0;pwned\a|`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("capacity's standard error lacks %s:\n%s", want, errOut)
		}
	}

	code, out, errOut = f.run("capacity", "-o", "json")
	if code != 0 {
		t.Fatalf("capacity -o json: exit %d\n%s", code, errOut)
	}
	checkSafe(t, "capacity's JSON", out)
	checkSafe(t, "capacity -o json's standard error", errOut)
	var report struct {
		Capacity []struct {
			Pools []struct{ Pool string } `json:"pools"`
		} `json:"capacity"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("capacity -o json: %v\n%s", err, out)
	}
	var got []string
	for _, c := range report.Capacity {
		for _, p := range c.Pools {
			got = append(got, p.Pool)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(pools) {
		t.Errorf("capacity -o json: pools %q; want the server's values %q", got, pools)
	}

	// validate and list: the cluster's instance types and their findings.
	for _, cmd := range []string{"list", "validate"} {
		_, out, errOut := f.run(cmd)
		checkSafe(t, cmd+"'s output", out)
		checkSafe(t, cmd+"'s standard error", errOut)
		if !strings.Contains(out+errOut, `bad\x1b]0;pwned\a|`) {
			t.Errorf("%s: the instance type's name is not there, escaped:\n%s%s", cmd, out, errOut)
		}
	}
}

// The API server's error ends a run: its message is escaped and cut.
func TestServerErrorEscaped(t *testing.T) {
	long := strings.Repeat("\x1b[2J", 10000)
	for _, msg := range []string{strings.Join(hostileTexts, " "), long} {
		f := newFakeAPI(t, map[string]listHandler{"nodes": func(w http.ResponseWriter, r *http.Request, _ int) {
			writeStatus(w, http.StatusInternalServerError, msg)
		}})
		for _, cmd := range []string{"capacity", "list"} {
			code, out, errOut := f.run(cmd)
			if code != 2 || out != "" || !strings.Contains(errOut, "the API server at "+f.srv.URL) {
				t.Errorf("%s: exit %d, stdout %q, stderr %q; want the server's error", cmd, code, out, errOut)
			}
			checkSafe(t, cmd+"'s standard error", errOut)
			if len(errOut) > 16<<10 {
				t.Errorf("%s: %d bytes of standard error for an error of %d bytes", cmd, len(errOut), len(msg))
			}
			if bytes.Count([]byte(errOut), []byte("\n")) != 1 {
				t.Errorf("%s: the error is not one line: %q", cmd, errOut)
			}
		}
	}
}
