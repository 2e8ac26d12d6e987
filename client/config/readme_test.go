package config_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/client/internal/render"
)

// TestReadmeDeploys runs the shell snippets of client/README.md's "Deploying the webhook"
// as far as they run without a cluster, a registry or a container engine, from the
// repository's root as they say: each cd goes to a directory that exists from where the
// line runs (a subshell's cd ends with it), each file and directory named exists, kustomize
// edit runs in a kustomization with that image, each kubectl apply -k builds with
// kustomize's library (the README's own overlay among them, written where it says), and the
// namespace and Secret created are those the Deployment uses. A command the test does not
// know fails it, so that a new line of the README is checked too.
func TestReadmeDeploys(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## Deploying the webhook\n")
	if start < 0 {
		t.Fatal(`no "## Deploying the webhook" in client/README.md`)
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	blocks := regexp.MustCompile("(?s)```(sh|yaml)\n(.*?)```").FindAllStringSubmatch(section, -1)

	// The repository's root as the README's reader has it: the client module, and the
	// overlay of the README in overlay/.
	root := t.TempDir()
	client, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(client, filepath.Join(root, "client")); err != nil {
		t.Skip("no symlinks:", err)
	}
	overlays := 0
	for _, b := range blocks {
		if b[1] == "yaml" && strings.HasPrefix(b[2], "# overlay/kustomization.yaml") {
			if err := os.MkdirAll(filepath.Join(root, "overlay"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "overlay", "kustomization.yaml"), []byte(b[2]), 0o644); err != nil {
				t.Fatal(err)
			}
			overlays++
		}
	}
	if overlays != 1 {
		t.Errorf("%d overlays written as overlay/kustomization.yaml; want 1", overlays)
	}

	var secrets []string
	for _, v := range get[appsv1.Deployment](t, build(t, "base"), "Deployment", "instancetype-webhook").Spec.Template.Spec.Volumes {
		if v.Secret != nil {
			secrets = append(secrets, v.Secret.SecretName)
		}
	}
	exists := func(dir, p string, wantDir bool) {
		t.Helper()
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil || fi.IsDir() != wantDir {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s does not exist from %s (%v)", p, filepath.Join("<root>", rel), err)
		}
	}
	ran := map[string]int{}
	for _, b := range blocks {
		if b[1] != "sh" {
			continue
		}
		cwd := root
		for _, line := range strings.Split(b[2], "\n") {
			if i := strings.Index(line, "#"); i >= 0 && (i == 0 || line[i-1] == ' ') {
				line = line[:i]
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			dir := cwd
			sub := strings.HasPrefix(line, "(") && strings.HasSuffix(line, ")")
			if sub {
				line = line[1 : len(line)-1]
			}
			for _, cmd := range strings.Split(line, "&&") {
				words := strings.Fields(cmd)
				for len(words) > 0 && strings.Contains(words[0], "=") { // VAR=value before the command
					words = words[1:]
				}
				if len(words) == 0 {
					t.Errorf("an empty command in %q", line)
					continue
				}
				ran[words[0]]++
				switch {
				case words[0] == "cd" && len(words) == 2:
					exists(dir, words[1], true)
					dir = filepath.Join(dir, words[1])
				case words[0] == "docker" && len(words) > 2 && words[1] == "build":
					i := slices.Index(words, "-f")
					if i < 0 || i+1 >= len(words) {
						t.Errorf("docker build without -f: %q", cmd)
						continue
					}
					exists(dir, words[i+1], false)
					exists(dir, words[len(words)-1], true)
				case words[0] == "ko" && len(words) > 2 && words[1] == "build":
					exists(dir, "go.mod", false)
					exists(dir, words[len(words)-1], true)
				case words[0] == "kustomize" && len(words) == 5 && words[1] == "edit" && words[2] == "set" && words[3] == "image":
					var k struct{ Images []struct{ Name string } }
					data, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
					if err == nil {
						err = yaml.Unmarshal(data, &k)
					}
					name, _, _ := strings.Cut(words[4], "=")
					if err != nil || !slices.ContainsFunc(k.Images, func(i struct{ Name string }) bool { return i.Name == name }) {
						t.Errorf("%q: no kustomization with the image %s where it runs (%v)", cmd, name, err)
					}
				case words[0] == "kubectl" && len(words) == 4 && words[1] == "apply" && words[2] == "-k":
					exists(dir, filepath.Join(words[3], "kustomization.yaml"), false)
					if objs := build(t, filepath.Join(dir, words[3])); render.Find(objs, "Deployment", "instancetype-webhook") == nil {
						t.Errorf("%q: no webhook Deployment", cmd)
					}
				case words[0] == "kubectl" && len(words) == 4 && words[1] == "create" && words[2] == "namespace":
					if words[3] != ns {
						t.Errorf("%q: the webhook's namespace is %s", cmd, ns)
					}
				case words[0] == "kubectl" && len(words) > 6 && words[1] == "-n" && words[3] == "create" && words[4] == "secret" && words[5] == "tls":
					if words[2] != ns || !slices.Contains(secrets, words[6]) {
						t.Errorf("%q: the Deployment mounts the Secrets %q of namespace %s", cmd, secrets, ns)
					}
				case words[0] == "kubectl" && len(words) >= 6 && words[1] == "-n" && words[3] == "port-forward":
					// The metrics' port, on the pod's loopback, of the Deployment.
					name := strings.TrimPrefix(words[4], "deploy/")
					_, remote, _ := strings.Cut(words[5], ":")
					if words[2] != ns || render.Find(build(t, "base"), "Deployment", name) == nil || remote != "8080" {
						t.Errorf("%q: the webhook's metrics are on port 8080 of Deployment instancetype-webhook in %s", cmd, ns)
					}
				case words[0] == "curl" && len(words) == 3 && strings.HasPrefix(words[2], "http://127.0.0.1:8080/"):
				default:
					t.Errorf("a command of the README this test does not know: %q", cmd)
				}
			}
			if !sub {
				cwd = dir
			}
		}
	}
	for _, c := range []string{"docker", "ko", "cd", "kustomize", "kubectl"} {
		if ran[c] == 0 {
			t.Errorf("no %s command checked in the README's section", c)
		}
	}
	// The overlay of the README sets the caBundle it says.
	objs := build(t, filepath.Join(root, "overlay"))
	vwc := render.Find(objs, "ValidatingWebhookConfiguration", "instancetypes.amlarc.azureml.com")
	if vwc == nil {
		t.Fatal("the README's overlay: no ValidatingWebhookConfiguration")
	}
	webhooks, _, _ := unstructured.NestedSlice(vwc.Object, "webhooks")
	var ca string
	if len(webhooks) > 0 {
		ca, _, _ = unstructured.NestedString(webhooks[0].(map[string]any), "clientConfig", "caBundle")
	}
	if ca != "BASE64_OF_YOUR_CA_PEM" {
		t.Errorf("the README's overlay: caBundle %q; want the README's BASE64_OF_YOUR_CA_PEM", ca)
	}
}
