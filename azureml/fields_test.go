package azureml

import (
	"bytes"
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/internal/rules"
)

// unknownOf returns the unknown-field findings of a file, as "LINE FIELD: DETAIL", and
// the kinds its documents were read as.
func unknownOf(t *testing.T, data []byte) ([]string, []Kind) {
	t.Helper()
	r := readFile(data, false)
	var got []string
	for _, f := range r.findings {
		if f.Origin == rules.UnknownField {
			got = append(got, strconv.Itoa(f.Line)+" "+f.Field+": "+f.Detail)
		}
	}
	return got, r.kinds
}

// The files of testdata/fields, each with one or more keys azure-ai-ml refuses, or none,
// at each level of each family of file; TestUnknownFieldsAgreeWithAzureAIML holds the
// same files to what azure-ai-ml's loaders report.
var unknownFieldCases = []struct {
	file string
	kind Kind // "" for a file that is skipped
	want []string
}{
	{"command-top.yml", KindJob, []string{
		`6 experiment_nmae: unknown field "experiment_nmae"; did you mean "experiment_name"? (the Azure ML CLI refuses it: "Unknown field")`,
		`8 resources.instance_tpye: unknown field "instance_tpye"; did you mean "instance_type"? (the Azure ML CLI refuses it: "Unknown field")`,
	}},
	{"command-nested.yml", KindJob, []string{
		`6 environment.conda_fle: unknown field "conda_fle"; did you mean "conda_file"? (the Azure ML CLI refuses it: "Unknown field")`,
		`10 distribution.process_count_per_node: unknown field "process_count_per_node" (the Azure ML CLI refuses it: "Unknown field")`,
		`13 limits.max_retries: unknown field "max_retries" (the Azure ML CLI refuses it: "Unknown field")`,
	}},
	{"command-clean.yml", KindJob, nil},
	{"sweep.yml", KindSweepJob, []string{
		`13 search_space.lr.max_vaule: unknown field "max_vaule"; did you mean "max_value"? (the Azure ML CLI refuses it: "Unknown field")`,
		`19 limits.max_concurent_trials: unknown field "max_concurent_trials"; did you mean "max_concurrent_trials"? (the Azure ML CLI refuses it: "Unknown field")`,
	}},
	{"pipeline.yml", KindPipelineJob, []string{
		`13 jobs.inline.enviroment_variables: unknown field "enviroment_variables"; did you mean "environment_variables"? (the Azure ML CLI refuses it: "Unknown field")`,
	}},
	{"pipeline-component-untyped.yml", KindPipelineJob, nil},
	{"pipeline-inline-untyped.yml", KindPipelineJob, []string{
		`11 jobs.inline.instance_count: unknown field "instance_count" (the Azure ML CLI refuses it: "Unknown field")`,
	}},
	{"online-k8s.yml", KindDeployment, []string{
		`8 code_configuration.scoring_scirpt: unknown field "scoring_scirpt"; did you mean "scoring_script"? (the Azure ML CLI refuses it: "Unknown field")`,
		`10 instance_tpye: unknown field "instance_tpye"; did you mean "instance_type"? (the Azure ML CLI refuses it: "Unknown field")`,
	}},
	{"online-managed-schema-type-kubernetes.yml", KindDeployment, nil},
	{"online-k8s-schema-type-managed.yml", "", nil},
	{"batch.yml", KindBatchDeployment, []string{
		`12 retry_settings.timout: unknown field "timout"; did you mean "timeout"? (the Azure ML CLI refuses it: "Unknown field")`,
	}},
	{"compute.yml", KindCompute, []string{
		`6 identty: unknown field "identty"; did you mean "identity"? (the Azure ML CLI refuses it: "Unknown field")`,
	}},
}

func TestUnknownFields(t *testing.T) {
	for _, c := range unknownFieldCases {
		data, err := os.ReadFile(filepath.Join("testdata", "fields", c.file))
		if err != nil {
			t.Fatal(err)
		}
		got, kinds := unknownOf(t, data)
		var kind Kind
		if len(kinds) > 0 {
			kind = kinds[0]
		}
		if kind != c.kind {
			t.Errorf("%s: read as %q, want %q", c.file, kind, c.kind)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: unknown fields\n%s\nwant\n%s", c.file, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestTypeDecidesKind: where an online deployment file says type, type decides whether
// it is a Kubernetes or a managed deployment, as load_online_deployment decides; $schema
// decides only without it.
func TestTypeDecidesKind(t *testing.T) {
	k8s := "https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json"
	managed := "https://azuremlschemas.azureedge.net/latest/managedOnlineDeployment.schema.json"
	for _, c := range []struct {
		schema, typ string
		want        Kind
	}{
		{managed, "kubernetes", KindDeployment},
		{k8s, "managed", ""},
		{k8s, "", KindDeployment},
		{managed, "", ""},
		{k8s, "kubernetes", KindDeployment},
		{managed, "managed", ""},
	} {
		m := map[string]any{"$schema": c.schema, "name": "blue", "endpoint_name": "e", "instance_type": "cpu"}
		if c.typ != "" {
			m["type"] = c.typ
		}
		if got, skip := Recognise(m); got != c.want {
			t.Errorf("Recognise($schema %s, type %q) = %q (%s); want %q", filepath.Base(c.schema), c.typ, got, skip, c.want)
		}
	}
}

// azureAIML runs scripts/azureml-fields/run.sh python with args, when
// INSTANCETYPES_AZUREML=1 (it fetches azure-ai-ml's Debian packages on first use, into
// a scratch directory outside the repository).
func azureAIML(t *testing.T, args ...string) []byte {
	t.Helper()
	if os.Getenv("INSTANCETYPES_AZUREML") != "1" {
		t.Skip("set INSTANCETYPES_AZUREML=1 to run azure-ai-ml itself (scripts/azureml-fields/run.sh fetches it)")
	}
	cmd := exec.Command("../scripts/azureml-fields/run.sh", append([]string{"python"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run.sh python %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// TestFieldsGenerated: regenerating the tables from azure-ai-ml changes nothing.
func TestFieldsGenerated(t *testing.T) {
	t.Parallel() // beside the next: each imports azure-ai-ml, which takes most of the time
	out := azureAIML(t, "../scripts/azureml-fields/gen.py")
	got, err := format.Source(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("fields_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("fields_gen.go differs from what scripts/azureml-fields/gen.py writes: run scripts/azureml-fields/run.sh gen")
	}
}

// TestUnknownFieldsAgreeWithAzureAIML loads the files of testdata/fields and, where it
// is present, the corpus of ../shared/corpus (azureml-strict: public files with one key
// misspelt, invented or added; wild: files of other public repositories) with azure-ai-ml's own loaders and with the tool: every key
// the tool refuses, azure-ai-ml reports as an unknown field (or refuses the file naming no
// unknown key: see below); every key azure-ai-ml reports
// as one that no schema of the tables declares anywhere, the tool refuses (a key that
// some schema declares may be reported by azure-ai-ml for an alternative of a union that
// the file does not use); an online deployment that says its type is the kind
// load_online_deployment makes it.
func TestUnknownFieldsAgreeWithAzureAIML(t *testing.T) {
	t.Parallel()
	if os.Getenv("INSTANCETYPES_AZUREML") != "1" {
		t.Skip("set INSTANCETYPES_AZUREML=1 to run azure-ai-ml itself (scripts/azureml-fields/run.sh fetches it)")
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "fields", "*.yml"))
	// shared/ beside the checkout (CI), or beside the worktrees of a checkout: the
	// mutated cases, and the files of other public repositories (wild/).
	var corpus []string
	for _, shared := range []string{filepath.Join("..", ".."), filepath.Join("..", "..", "..")} {
		for _, glob := range []string{"azureml-strict/cases/*.yml", "wild/*/*.y*ml"} {
			fs, _ := filepath.Glob(filepath.Join(shared, "shared", "corpus", glob))
			corpus = append(corpus, fs...)
		}
		if len(corpus) > 0 {
			break
		}
	}
	if len(corpus) == 0 {
		t.Log("../shared/corpus is absent: only testdata/fields is loaded")
	}
	files = append(files, corpus...)
	families := map[string][]string{}
	type toolView struct {
		kind    Kind
		unknown []string
	}
	tool := map[string]toolView{}
	typed := map[string]bool{} // the file says its type
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := readFile(data, false)
		var v toolView
		if len(r.kinds) > 0 {
			v.kind = r.kinds[0]
		}
		for _, fd := range r.findings {
			if fd.Origin == rules.UnknownField || fd.Origin == rules.AzureMLResourceName {
				v.unknown = append(v.unknown, fd.Field[strings.LastIndexAny(fd.Field, ".[")+1:])
			}
		}
		for i := range v.unknown {
			v.unknown[i] = strings.TrimSuffix(v.unknown[i], "]")
		}
		slices.Sort(v.unknown)
		v.unknown = slices.Compact(v.unknown)
		tool[f] = v
		if len(r.docs) > 0 {
			if m, ok := r.docs[0].Value.(map[string]any); ok {
				_, typed[f] = m["type"]
			}
		}
		family := ""
		switch v.kind {
		case KindJob, KindSweepJob, KindPipelineJob, KindAutoMLJob:
			family = "job"
		case KindDeployment:
			family = "online"
		case KindBatchDeployment:
			// The Azure ML CLI loads a deployment of type model (or of modelBatchDeployment's
			// $schema) as a model batch deployment.
			family = "batch"
			if fieldRoot(v.kind, r.docs[0].Value) == "ModelBatchDeployment" {
				family = "modelbatch"
			}
		case KindCompute:
			family = "compute"
		case "":
			if strings.Contains(string(data), "OnlineDeployment.schema.json") {
				family = "online"
			}
		}
		if family != "" {
			families[family] = append(families[family], f)
		}
	}
	var args []string
	for family, fs := range families {
		args = append(append(args, family), fs...)
	}
	var azure map[string]struct {
		Loaded  bool
		Kind    string
		Unknown []string
	}
	if err := json.Unmarshal(azureAIML(t, append([]string{"../scripts/azureml-fields/load.py"}, args...)...), &azure); err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, s := range fieldSchemas {
		for _, f := range s.fields {
			declared[f.name] = true
		}
	}
	compared := 0
	for f, a := range azure {
		v := tool[f]
		// Where the file says its type: without one, azure-ai-ml takes every online
		// deployment for a managed one, and the tool goes by $schema or shape (DESIGN.md).
		if strings.HasSuffix(a.Kind, "OnlineDeployment") && typed[f] {
			if want := a.Kind == "KubernetesOnlineDeployment"; (v.kind == KindDeployment) != want {
				t.Errorf("%s: azure-ai-ml loads it as %s; the tool reads it as %q", f, a.Kind, v.kind)
			}
		}
		if v.kind == "" {
			continue // skipped by the tool (a managed deployment): its keys are not checked
		}
		compared++
		for _, k := range v.unknown {
			// A union chosen by type reports only its first alternative's error: a file
			// it refuses for another reason there (a pipeline step's missing component)
			// may name no unknown key.
			if !slices.Contains(a.Unknown, k) && (a.Loaded || len(a.Unknown) > 0) {
				t.Errorf("%s: the tool refuses %q, which azure-ai-ml does not report as unknown (it reports %q)", f, k, a.Unknown)
			}
		}
		for _, k := range a.Unknown {
			if !declared[k] && !slices.Contains(v.unknown, k) {
				t.Errorf("%s: azure-ai-ml reports %q as unknown, the tool does not (it reports %q)", f, k, v.unknown)
			}
		}
	}
	t.Logf("%d files loaded by azure-ai-ml, %d compared", len(azure), compared)
}

// TestUnknownFieldsProperty: for any schema of the tables, a mapping of some of its
// declared keys (its required ones and its type among them) has no unknown field, and one
// more key it does not declare is the one finding, at that key, unless the schema
// tolerates unknown keys.
func TestUnknownFieldsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		i := rapid.IntRange(0, len(fieldSchemas)-1).Draw(t, "schema")
		s := &fieldSchemas[i]
		m := map[string]any{}
		for _, f := range s.fields {
			if rapid.Bool().Draw(t, "has "+f.name) {
				m[f.name] = nil
			}
		}
		for _, r := range s.required {
			m[r] = nil
		}
		if len(s.types) > 0 {
			m["type"] = rapid.SampledFrom(s.types).Draw(t, "type")
		}
		extra := rapid.StringMatching(`[a-z_]{1,12}`).Draw(t, "extra")
		if _, declared := s.lookup(extra); declared {
			extra = ""
		}
		var c fieldChecker
		c.mapping(m, []uint16{uint16(i)}, nil, nil)
		if len(c.errs) > 0 {
			t.Fatalf("%s: %v has unknown fields %v", s.name, m, c.errs)
		}
		if extra == "" {
			return
		}
		m[extra] = 1
		c.mapping(m, []uint16{uint16(i)}, nil, nil)
		switch {
		case s.open && len(c.errs) > 0:
			t.Fatalf("%s tolerates unknown keys; %q has findings %v", s.name, extra, c.errs)
		case !s.open && (len(c.errs) != 1 || c.errs[0].Field != extra || c.errs[0].Origin != rules.UnknownField):
			t.Fatalf("%s: %q gives %v; want one unknown-field finding at it", s.name, extra, c.errs)
		}
	})
}

// TestUnknownFieldsAnyValue: whatever the value of a document (keys of the tables and
// others, at any depth, values of any kind), the check returns, with each finding an
// unknown-field one at a key of the document.
func TestUnknownFieldsAnyValue(t *testing.T) {
	var names []string
	for _, s := range fieldSchemas {
		for _, f := range s.fields {
			names = append(names, f.name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	key := rapid.OneOf(rapid.SampledFrom(names), rapid.StringMatching(`[a-z_]{1,8}`))
	var value func(depth int) *rapid.Generator[any]
	value = func(depth int) *rapid.Generator[any] {
		scalar := rapid.OneOf(rapid.Just[any](nil), rapid.Just[any](true), rapid.Just[any](json.Number("1")),
			rapid.Map(rapid.SampledFrom([]string{"command", "kubernetes", "pytorch", "uniform", "model", "x"}), func(s string) any { return s }))
		if depth == 0 {
			return scalar
		}
		return rapid.OneOf(scalar,
			rapid.Map(rapid.MapOfN(key, value(depth-1), 0, 5), func(m map[string]any) any { return m }),
			rapid.Map(rapid.SliceOfN(value(depth-1), 0, 3), func(l []any) any { return l }))
	}
	kinds := []Kind{KindJob, KindSweepJob, KindPipelineJob, KindAutoMLJob, KindDeployment, KindBatchDeployment, KindCompute, KindEndpoint}
	rapid.Check(t, func(t *rapid.T) {
		kind := rapid.SampledFrom(kinds).Draw(t, "kind")
		v := value(4).Draw(t, "value")
		for _, e := range UnknownFields(kind, v) {
			if e.Origin != rules.UnknownField || e.Field == "" {
				t.Fatalf("UnknownFields(%s) made %v", kind, e)
			}
		}
	})
}
