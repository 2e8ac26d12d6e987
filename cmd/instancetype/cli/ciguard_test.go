package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// runnerCommands returns the lines of out that a CI runner takes for commands: GitHub
// Actions' runner a line that starts with "::" after white space (.NET's TrimStart) and
// names a command before a second "::", or "##[" anywhere in a line with a "]" after it;
// Azure Pipelines "##vso[", TeamCity "##teamcity[" anywhere in a line.
func runnerCommands(out string) []string {
	var cmds []string
	v2 := regexp.MustCompile(`^::[^: ]+( [^:]*)?::`)
	v1 := regexp.MustCompile(`##(vso|teamcity)?\[[^\]]*\]`)
	for _, l := range strings.Split(out, "\n") {
		if v2.MatchString(strings.TrimLeftFunc(l, unicode.IsSpace)) || v1.MatchString(l) {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

func TestGuardLine(t *testing.T) {
	for _, tt := range []struct{ in, text, json string }{
		{"plain: text # no [command]", "plain: text # no [command]", "plain: text # no [command]"},
		{"::warning::FORGED.yaml:3: x", `\x3a:warning::FORGED.yaml:3: x`, `\u003a:warning::FORGED.yaml:3: x`},
		{"  \u00a0::add-mask::x", "  \u00a0\\x3a:add-mask::x", "  \u00a0\\u003a:add-mask::x"},
		{"a:3: value ##[error title=x]y", `a:3: value ##\x5berror title=x]y`, `a:3: value ##\u005berror title=x]y`},
		{"###[x] ##vso[task.setvariable] ##teamcity[x] ##[", `###\x5bx] ##vso\x5btask.setvariable] ##teamcity\x5bx] ##\x5b`, `###\u005bx] ##vso\u005btask.setvariable] ##teamcity\u005bx] ##\u005b`},
		{"::##[x]\n", `\x3a:##\x5bx]` + "\n", `\u003a:##\u005bx]` + "\n"},
		{"## [x] #[x] #vso[x] ##1[x]", "## [x] #[x] #vso[x] ##1[x]", "## [x] #[x] #vso[x] ##1[x]"},
		{"x ::warning::mid-line", "x ::warning::mid-line", "x ::warning::mid-line"},
	} {
		if got := string(guardLine([]byte(tt.in), guardText)); got != tt.text {
			t.Errorf("text: guardLine(%q) = %q; want %q", tt.in, got, tt.text)
		}
		if got := string(guardLine([]byte(tt.in), guardJSON)); got != tt.json {
			t.Errorf("json: guardLine(%q) = %q; want %q", tt.in, got, tt.json)
		}
		if cmds := runnerCommands(string(guardLine([]byte(tt.in), guardText))); len(cmds) > 0 {
			t.Errorf("guardLine(%q): a runner reads %q", tt.in, cmds)
		}
	}
	// A JSON string and an XML text that hold the escapes decode to the text itself.
	in := `::warning::x ##[add-mask]y`
	var s string
	if err := json.Unmarshal([]byte(`"`+string(guardLine([]byte(in), guardJSON))+`"`), &s); err != nil || s != in {
		t.Errorf("JSON: %q, %v; want %q", s, err, in)
	}
	var x struct {
		A string `xml:"a,attr"`
	}
	if err := xml.Unmarshal([]byte(`<x a="`+string(guardLine([]byte(in), guardXML))+`"/>`), &x); err != nil || x.A != in {
		t.Errorf("XML: %q, %v; want %q", x.A, err, in)
	}
}

// TestNoForgedRunnerCommands: files named and filled to forge CI commands, through every
// command and format: no line of standard output or error reads as a runner's command
// (but the annotations of -o github, one a finding), and JSON and XML still decode.
func TestNoForgedRunnerCommands(t *testing.T) {
	dir := t.TempDir()
	forged := `##[error title=FORGED]x ##[set-output name=a;]v ##[add-mask]secret ##vso[task.setvariable variable=x]y ##teamcity[message text='x']`
	doc := func(name string) string {
		return "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: " + name + "\nspec:\n  nodeSelector:\n    \"" + forged + "\": \"::warning::FORGED\"\n  resources:\n    requests:\n      cpu: \"" + forged + "\"\n"
	}
	files := map[string]string{
		"::warning::FORGED.yaml":                doc("a"),
		" ::add-mask::FORGED.yaml":              doc("b"),
		"##[error]FORGED.yaml":                  doc("c"),
		"ok.yaml":                               doc("d"),
		"::error file=x::FORGED deployment.yml": "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json\nname: blue\nendpoint_name: e\ninstance_type: \"::warning::FORGED ##[add-mask]x\"\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	for _, cmd := range []string{"validate", "resolve", "list"} {
		for _, format := range []string{"text", "json", "sarif", "junit", "github"} {
			var stdout, stderr bytes.Buffer
			code := Main([]string{cmd, "-o", format, dir, filepath.Join(dir, "::missing::x ##[add-mask]y.yaml")}, Env{Stdout: &stdout, Stderr: &stderr})
			if code == ExitUsage && !strings.Contains(stderr.String(), "missing") {
				t.Fatalf("%s -o %s: exit %d: %s", cmd, format, code, stderr.String())
			}
			// A missing file stops the run: run again without it, for the report.
			stdout.Reset()
			stderr.Reset()
			Main([]string{cmd, "-o", format, dir}, Env{Stdout: &stdout, Stderr: &stderr})
			if !strings.Contains(stdout.String()+stderr.String(), "FORGED") {
				t.Fatalf("%s -o %s: the output does not name the files: %s", cmd, format, stdout.String())
			}
			out := stdout.String()
			if format == "github" {
				var rest []string
				for _, l := range strings.Split(out, "\n") {
					if !strings.HasPrefix(l, "::error file=") {
						rest = append(rest, l)
					} else if file := annotationFile(l); !strings.HasPrefix(file, dir+string(filepath.Separator)) {
						t.Errorf("%s -o github: the runner reads the annotation's file as %q: %q", cmd, file, l)
					} else if _, err := os.Stat(file); err != nil {
						t.Errorf("%s -o github: the runner reads the annotation's file as %q: %v", cmd, file, err)
					}
				}
				out = strings.Join(rest, "\n")
			}
			if cmds := runnerCommands(out + "\n" + stderr.String()); len(cmds) > 0 {
				t.Errorf("%s -o %s: a runner reads %d commands, such as %q", cmd, format, len(cmds), cmds[0])
			}
			switch format {
			case "json", "sarif":
				var v any
				if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
					t.Errorf("%s -o %s: %v", cmd, format, err)
				} else if format == "json" && cmd == "validate" && !strings.Contains(jsonText(v), "::warning::FORGED.yaml") {
					t.Errorf("%s -o json: the file's name does not decode as written", cmd)
				}
			case "junit":
				if err := xml.Unmarshal(stdout.Bytes(), new(struct{})); err != nil {
					t.Errorf("%s -o junit: %v", cmd, err)
				} else if cmd == "validate" && !strings.Contains(xmlText(t, stdout.Bytes()), "##[add-mask]") {
					t.Errorf("%s -o junit: the values do not decode as written", cmd)
				}
			}
		}
	}
}

// annotationFile is the file of a workflow command, as the runner reads it: the command's
// properties end at the first "::" after the leading one; they are separated by commas, and
// unescaped.
func annotationFile(l string) string {
	info, _, _ := strings.Cut(l[2:], "::")
	for _, p := range strings.Split(info[strings.Index(info, " ")+1:], ",") {
		if v, ok := strings.CutPrefix(p, "file="); ok {
			return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(v)
		}
	}
	return ""
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	var s strings.Builder
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return s.String()
		}
		if str, ok := tok.(string); ok {
			s.WriteString(str + "\n")
		}
	}
}

func xmlText(t *testing.T, b []byte) string {
	var s strings.Builder
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return s.String()
		}
		switch tok := tok.(type) {
		case xml.CharData:
			s.Write(tok)
		case xml.StartElement:
			for _, a := range tok.Attr {
				s.WriteString(a.Value + "\n")
			}
		}
	}
}
