package instancetypes_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The dependency rules of DESIGN.md §2, checked on the import graph as `go list -deps`
// reports it. A core package is usable from a controller without dragging in client-go,
// controller-runtime or k8s.io/api, and the arrows between this module's packages point
// down only:
//
//	cmd/instancetype, cmd/instancetype/cli
//	lint
//	pysdk
//	azureml
//	decode
//	source
//	resolve, validate, fit, plan
//	workload, cluster
//	instancetype, selector
//	quantity
//
// quantity and selector know nothing of the others; workload and cluster (plain data
// types) know nothing of the packages that use them; fit (the check of placements against
// nodes) knows neither resolve nor validate, so that the command wires them together;
// source (reading files as kubectl reads them) knows none of this module's packages, and
// the decoders none of the checks; pysdk (the Python SDK's workloads) reads as azureml
// reads and knows none of the checks either.

const module = "github.com/amlarc-go/instancetypes"

// corePackages are the packages below the command, relative to the module.
var corePackages = []string{"instancetype", "quantity", "selector", "workload", "cluster", "validate", "resolve", "fit", "plan", "source", "decode", "azureml", "pysdk", "lint"}

// forbiddenModules are modules no core package may depend on, in its code or in its tests.
var forbiddenModules = []string{"k8s.io/client-go", "sigs.k8s.io/controller-runtime", "k8s.io/api"}

// mustNotDependOn lists, for each core package, the packages of this module it must not
// depend on, directly or through another package. Only the package's own code counts: an
// external test package (package validate_test) may import anything.
var mustNotDependOn = map[string][]string{
	"quantity":     {"instancetype", "selector", "workload", "cluster", "validate", "resolve", "fit", "plan", "source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"selector":     {"instancetype", "quantity", "workload", "cluster", "validate", "resolve", "fit", "plan", "source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"instancetype": {"workload", "cluster", "validate", "resolve", "fit", "plan", "source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"workload":     {"cluster", "validate", "resolve", "fit", "plan", "source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"cluster":      {"workload", "validate", "resolve", "fit", "plan", "source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"resolve":      {"validate", "source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"validate":     {"source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"fit":          {"validate", "resolve", "plan", "source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"plan":         {"validate", "resolve", "source", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"source":       {"quantity", "selector", "instancetype", "workload", "cluster", "validate", "resolve", "fit", "plan", "decode", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"decode":       {"validate", "resolve", "fit", "plan", "azureml", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"azureml":      {"validate", "resolve", "fit", "plan", "pysdk", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"pysdk":        {"validate", "resolve", "fit", "plan", "lint", "cmd/instancetype", "cmd/instancetype/cli", "examples"},
	"lint":         {"cmd/instancetype", "cmd/instancetype/cli", "examples"},
}

// listed is what one go list -test of the core packages says of them: for each, the import
// paths it depends on, and those its tests add.
type listed struct{ deps, testDeps map[string][]string }

var (
	listOnce sync.Once
	list     listed
	listErr  error
)

// goList runs go list -test once for all core packages: the package itself ("path"), and
// its test variants ("path [path.test]", "path_test [path.test]", "path.test"), each with
// its dependencies.
func goList() (listed, error) {
	listOnce.Do(func() {
		args := []string{"list", "-test", "-f", "{{.ImportPath}}|{{join .Deps \" \"}}"}
		for _, p := range corePackages {
			args = append(args, "./"+p)
		}
		cmd := exec.Command("go", args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			listErr = fmt.Errorf("go %s: %v\n%s", strings.Join(cmd.Args[1:], " "), err, stderr.String())
			return
		}
		list = listed{deps: map[string][]string{}, testDeps: map[string][]string{}}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			name, deps, _ := strings.Cut(line, "|")
			// A package as compiled for a test reads "path [path.test]"; keep the path.
			path, variant, _ := strings.Cut(name, " ")
			path = strings.TrimSuffix(strings.TrimSuffix(path, ".test"), "_test")
			fields := strings.Fields(deps)
			if variant == "" && !strings.HasSuffix(name, ".test") && !strings.HasSuffix(name, "_test") {
				list.deps[path] = append(fields, path)
			}
			list.testDeps[path] = append(list.testDeps[path], fields...)
		}
	})
	return list, listErr
}

// goListDeps returns the import paths of pkg and of every package it depends on, its tests'
// dependencies included when withTests is set.
func goListDeps(t *testing.T, pkg string, withTests bool) []string {
	t.Helper()
	l, err := goList()
	if err != nil {
		t.Fatal(err)
	}
	deps := l.deps[module+"/"+pkg]
	if withTests {
		deps = append(slices.Clone(deps), l.testDeps[module+"/"+pkg]...)
	}
	return deps
}

func inModule(importPath, module string) bool {
	return importPath == module || strings.HasPrefix(importPath, module+"/")
}

func TestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	for _, pkg := range corePackages {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			deps := goListDeps(t, pkg, false)
			if !slices.Contains(deps, module+"/"+pkg) {
				t.Fatalf("go list -deps ./%s does not list the package itself: %v", pkg, deps)
			}
			withTests := goListDeps(t, pkg, true)
			for _, m := range forbiddenModules {
				if i := slices.IndexFunc(withTests, func(dep string) bool { return inModule(dep, m) }); i >= 0 {
					t.Errorf("%s or its tests depend on %s (module %s), which core packages must not import", pkg, withTests[i], m)
				}
			}
			for _, other := range mustNotDependOn[pkg] {
				if slices.Contains(deps, module+"/"+other) {
					t.Errorf("%s depends on %s: arrows must point down (DESIGN.md §2)", pkg, other)
				}
			}
		})
	}
}

// TestDependencyRulesCoverCorePackages keeps the table above in step with the list of core
// packages, so that a new package is not silently unchecked.
func TestDependencyRulesCoverCorePackages(t *testing.T) {
	for _, pkg := range corePackages {
		if _, ok := mustNotDependOn[pkg]; !ok {
			t.Errorf("no dependency rule for core package %s", pkg)
		}
	}
	if len(mustNotDependOn) != len(corePackages) {
		t.Errorf("%d dependency rules for %d core packages", len(mustNotDependOn), len(corePackages))
	}
}
