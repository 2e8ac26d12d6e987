package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// run runs p with args and returns the exit code, standard output and standard error.
func run(p Program, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := p.Main(args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

const gpuType = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},
"spec":{"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi","nvidia.com/gpu":1}}}}`

const badType = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"bad"},
"spec":{"resources":{"requests":{"cpu":"0","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}}`

func TestProgramName(t *testing.T) {
	p := Program{Name: "kubectl instancetype"}
	for _, args := range [][]string{{"help", "validate"}, {"help", "resolve"}, {"help", "list"}, {"help"}} {
		code, out, _ := run(p, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d", args, code)
		}
		for _, line := range strings.Split(out, "\n") {
			// Every use of the program's name is the new name; the words that only
			// contain it stay.
			rest := strings.ReplaceAll(line, "kubectl instancetype ", "")
			rest = strings.ReplaceAll(rest, "defaultinstancetype", "")
			rest = strings.ReplaceAll(rest, "instancetypes", "")
			if strings.Contains(rest, "instancetype ") {
				t.Errorf("%v: line %q still names instancetype", args, line)
			}
		}
		if args[len(args)-1] == "list" && !strings.Contains(out, "built-in defaultinstancetype unless") {
			t.Errorf("help list: defaultinstancetype renamed:\n%s", out)
		}
	}
	if code, out, _ := run(p, "version"); code != ExitOK || !strings.HasPrefix(out, "kubectl instancetype ") {
		t.Errorf("version = %d, %q; want kubectl instancetype VERSION", code, out)
	}
	code, _, errOut := run(p, "validate", "--output", "yaml", "x")
	if code != ExitUsage || !strings.HasPrefix(errOut, "kubectl instancetype validate: invalid output format") ||
		!strings.Contains(errOut, "Run 'kubectl instancetype help validate'") {
		t.Errorf("bad flag = %d, %q", code, errOut)
	}
	if code, _, errOut := run(p, "frobnicate"); code != ExitUsage || !strings.HasPrefix(errOut, `kubectl instancetype: unknown command "frobnicate"`) {
		t.Errorf("unknown command = %d, %q", code, errOut)
	}
	// No PATH is still a usage error without an Inputs hook.
	if code, _, errOut := run(p, "validate"); code != ExitUsage || !strings.Contains(errOut, "no PATH given") {
		t.Errorf("validate without PATH = %d, %q", code, errOut)
	}
}

func TestProgramFlagsAndInputs(t *testing.T) {
	var seen []string
	var calls []string
	p := Program{
		Name: "kubectl instancetype",
		Flags: func(cmd string, fs *flag.FlagSet) {
			fs.Func("context", "", func(s string) error { seen = append(seen, cmd+":"+s); return nil })
		},
		FlagsHelp: "Cluster flags:\n      --context NAME\n",
		Inputs: func(cmd string, paths []string) (Inputs, error) {
			calls = append(calls, cmd+":"+strings.Join(paths, ","))
			in := Inputs{Catalog: []lint.Input{lint.Bytes("cluster:instancetypes/gpu", []byte(gpuType))}, Notes: []string{"a note"}}
			if len(paths) == 0 {
				in = Inputs{Paths: []lint.Input{lint.Bytes("cluster:instancetypes/bad", []byte(badType))}, Notes: []string{"checking the cluster"}}
			}
			return in, nil
		},
	}

	// The catalog of the hook: a deployment naming gpu resolves; the flag is parsed
	// after the PATH.
	dir := t.TempDir()
	writeFile(t, dir+"/d.yaml", "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json\nname: blue\nendpoint_name: e\ninstance_type: gpu\n")
	code, out, errOut := run(p, "resolve", "-o", "json", dir+"/d.yaml", "--context", "prod")
	if code != ExitOK {
		t.Fatalf("resolve = %d\n%s%s", code, out, errOut)
	}
	var got struct {
		Placements []struct {
			InstanceType string `json:"instanceType"`
			Resolved     bool   `json:"resolved"`
		} `json:"placements"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Placements) != 1 || !got.Placements[0].Resolved {
		t.Fatalf("resolve -o json = %s (%v); want one resolved placement", out, err)
	}
	if strings.Join(seen, " ") != "resolve:prod" || errOut != "kubectl instancetype resolve: a note\n" {
		t.Errorf("flag values %v, stderr %q", seen, errOut)
	}

	// No PATH: the hook's inputs are checked.
	code, out, errOut = run(p, "validate")
	if code != ExitFindings || !strings.HasPrefix(out, "cluster:instancetypes/bad:") || !strings.HasPrefix(errOut, "kubectl instancetype validate: checking the cluster\n") {
		t.Errorf("validate without PATH = %d\n%s%s", code, out, errOut)
	}
	if want := "resolve:" + dir + "/d.yaml validate:"; strings.Join(calls, " ") != want {
		t.Errorf("Inputs called with %q; want %q", strings.Join(calls, " "), want)
	}

	// The flags help follows the shared flags.
	_, out, _ = run(p, "validate", "--help")
	if i, j := strings.Index(out, "--exclude GLOB"), strings.Index(out, "Cluster flags:"); i < 0 || j < i {
		t.Errorf("help validate: no Cluster flags after the shared ones:\n%s", out)
	}

	// An error of the hook ends the run.
	p.Inputs = func(string, []string) (Inputs, error) { return Inputs{}, errors.New("no kubeconfig") }
	if code, _, errOut := run(p, "list"); code != ExitUsage || errOut != "kubectl instancetype list: no kubeconfig\n" {
		t.Errorf("list with a failing hook = %d, %q", code, errOut)
	}
}

func TestProgramCommands(t *testing.T) {
	var got []string
	p := Program{
		Name:  "kubectl instancetype",
		Usage: "usage of the plugin\n",
		Commands: []Command{{Name: "capacity", Help: "help of capacity\n", Run: func(args []string, e Env) int {
			got = args
			return 3
		}}},
	}
	if code, _, _ := run(p, "capacity", "-o", "json"); code != 3 || strings.Join(got, " ") != "-o json" {
		t.Errorf("capacity = %d, %v", code, got)
	}
	if code, out, _ := run(p, "help", "capacity"); code != ExitOK || out != "help of capacity\n" {
		t.Errorf("help capacity = %d, %q", code, out)
	}
	if code, out, _ := run(p, "help"); code != ExitOK || out != "usage of the plugin\n" {
		t.Errorf("help = %d, %q", code, out)
	}
	if code, _, errOut := run(p); code != ExitUsage || errOut != "usage of the plugin\n" {
		t.Errorf("no command = %d, %q", code, errOut)
	}
}

func TestProgramCatalogHint(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/d.yaml", "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json\nname: blue\nendpoint_name: e\ninstance_type: gpu\n")
	p := Program{Inputs: func(string, []string) (Inputs, error) {
		return Inputs{CatalogHint: "the cluster has no InstanceType"}, nil
	}}
	_, _, errOut := run(p, "validate", dir+"/d.yaml")
	if !strings.Contains(errOut, "instance type names checked for form only: the cluster has no InstanceType") {
		t.Errorf("summary = %q", errOut)
	}
	_, _, errOut = run(Program{}, "validate", dir+"/d.yaml")
	if !strings.Contains(errOut, "give the cluster's with --catalog") {
		t.Errorf("summary without a hint = %q", errOut)
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
