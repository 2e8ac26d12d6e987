package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"
)

// EscapeJSON escapes what encoding/json leaves raw, and the values decode as they were.
func TestEscapeJSON(t *testing.T) {
	values := []string{"plain", "del\x7f", "csi\u009b[2J", "rtl\u202e", "tag\U000E0041", "esc\x1b]0;t\a", "ok é ✓", "bad\xff"}
	b, err := json.Marshal(values)
	if err != nil {
		t.Fatal(err)
	}
	got := EscapeJSON(b)
	for i := 0; i < len(got); {
		r, size := utf8.DecodeRune(got[i:])
		if r >= 0x7f && !printable(r) || r == utf8.RuneError {
			t.Fatalf("EscapeJSON left %U in %s", r, got)
		}
		i += size
	}
	var back, want []string
	json.Unmarshal(b, &want)
	if err := json.Unmarshal(got, &back); err != nil || !slices.Equal(back, want) {
		t.Errorf("EscapeJSON(%s) = %s, decoding to %q, %v; want %q", b, got, back, err, want)
	}
	if clean := []byte(`{"a":"ok é ✓"}`); &EscapeJSON(clean)[0] != &clean[0] {
		t.Error("EscapeJSON copies clean text")
	}
}

// The command's JSON and SARIF carry no control character, whatever the file's name holds.
func TestJSONOutputEscaped(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "csi\u009b2J rtl\u202e.yaml")
	if err := os.WriteFile(name, []byte("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: Bad_Name}\n"), 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	for _, format := range []string{"json", "sarif"} {
		var stdout, stderr bytes.Buffer
		Main([]string{"validate", "-o", format, dir}, Env{Stdout: &stdout, Stderr: &stderr})
		if bytes.Contains(stdout.Bytes(), []byte("\u009b")) || bytes.Contains(stdout.Bytes(), []byte("\u202e")) {
			t.Errorf("-o %s prints a control character raw: %s", format, stdout.String())
		}
		var v any
		if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
			t.Errorf("-o %s: %v", format, err)
		}
	}
}
