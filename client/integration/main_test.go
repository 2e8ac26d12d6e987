package integration_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/client/internal/testenv"
	"github.com/amlarc-go/instancetypes/client/manifests"
)

var gvr = schema.GroupVersionResource{Group: "amlarc.azureml.com", Version: "v1alpha1", Resource: "instancetypes"}

// The three API servers, each started on first use.
var (
	// crdEnv has the generated CRD, with its schema and CEL rules.
	crdEnv = &testenv.Environment{Setup: func(e *envtest.Environment) error {
		crd, err := generatedCRD()
		e.CRDs = []*apiextensionsv1.CustomResourceDefinition{crd}
		return err
	}}
	// policyEnv has a schemaless CRD; the policy test installs the admission policy.
	policyEnv = &testenv.Environment{Setup: func(e *envtest.Environment) error {
		crd, err := schemalessCRD()
		e.CRDs = []*apiextensionsv1.CustomResourceDefinition{crd}
		return err
	}}
	// webhookEnv has a schemaless CRD and the webhook's binary registered (see
	// webhook_test.go).
	webhookEnv = &testenv.Environment{Setup: setupWebhook}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if hook.proc != nil {
		// The webhook's binary shuts down on SIGTERM with status 0.
		if err := hook.proc.terminate(); err != nil {
			fmt.Fprintf(os.Stderr, "instancetype-webhook after SIGTERM: %v\n%s", err, hook.proc.stderr())
			code = 1
		}
		os.RemoveAll(hook.certDir)
	}
	removeWebhookBinary()
	removePlugin()
	for _, e := range []*testenv.Environment{crdEnv, policyEnv, webhookEnv, clusterEnv, bareEnv, benchEnv, planEnv} {
		if err := e.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the API server:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// generatedCRD decodes manifests.CRD.
func generatedCRD() (*apiextensionsv1.CustomResourceDefinition, error) {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(manifests.CRD, &crd); err != nil {
		return nil, fmt.Errorf("manifests.CRD: %w", err)
	}
	return &crd, nil
}

// schemalessCRD is the generated CRD with its schema replaced by one that keeps any
// field and checks nothing: a stand-in for a CRD of the same name whose schema we do not
// control, on which the policy and the webhook must do all the checking.
func schemalessCRD() (*apiextensionsv1.CustomResourceDefinition, error) {
	crd, err := generatedCRD()
	if err != nil {
		return nil, err
	}
	v := &crd.Spec.Versions[0]
	v.Schema = &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type:                   "object",
		XPreserveUnknownFields: new(true),
	}}
	v.AdditionalPrinterColumns = nil
	return crd, nil
}

func clientset(t *testing.T, cfg *rest.Config) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// stepContext returns a context for one test step: cancelled at the test's end, or after
// three minutes. The bound is on a hang, not on speed: a step (the plugin run as a
// process, built with -race, reading a cluster page by page) can take tens of seconds on
// a busy machine.
func stepContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// createRaw sends raw, an InstanceType as JSON bytes, to the API server as it is, with
// strict field validation (so unknown and duplicate fields are errors, as kubectl's
// default makes them), as a dry run unless real. It returns the server's error.
func createRaw(ctx context.Context, cs *kubernetes.Clientset, raw []byte, real bool) error {
	req := cs.Discovery().RESTClient().Post().
		AbsPath("/apis", gvr.Group, gvr.Version, gvr.Resource).
		SetHeader("Content-Type", "application/json").
		Param("fieldValidation", "Strict").
		Body(raw)
	if !real {
		req = req.Param("dryRun", "All")
	}
	return req.Do(ctx).Error()
}

// causes returns the field paths and messages of a StatusError's causes.
func causes(err error) (fields, messages []string) {
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil {
		return nil, nil
	}
	for _, c := range se.ErrStatus.Details.Causes {
		fields = append(fields, c.Field)
		messages = append(messages, c.Message)
	}
	return fields, messages
}

// eventually calls f until it returns nil, for at most d, and fails t with its last error.
func eventually(t *testing.T, d time.Duration, f func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %v", d, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
