package integration_test

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/amlarc-go/instancetypes/client/webhook"
)

const webhookName = "instancetypes.amlarc.azureml.com"

// setupWebhook installs the schemaless CRD and registers the webhook; envtest points the
// configuration at a local port with a CA of its own, whose serving certificate
// serveWebhook uses.
func setupWebhook(e *envtest.Environment) error {
	crd, err := schemalessCRD()
	if err != nil {
		return err
	}
	e.CRDs = []*apiextensionsv1.CustomResourceDefinition{crd}
	path := "validate-instancetypes" // envtest turns it into https://HOST:PORT/validate-instancetypes
	e.WebhookInstallOptions.ValidatingWebhooks = []*admissionregistrationv1.ValidatingWebhookConfiguration{{
		ObjectMeta: metav1.ObjectMeta{Name: webhookName},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:                    webhookName,
			ClientConfig:            admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Name: "unused", Namespace: "unused", Path: &path}},
			AdmissionReviewVersions: []string{"v1"},
			SideEffects:             new(admissionregistrationv1.SideEffectClassNone),
			FailurePolicy:           new(admissionregistrationv1.Fail),
			TimeoutSeconds:          new(int32(10)),
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
				Rule: admissionregistrationv1.Rule{
					APIGroups: []string{gvr.Group}, APIVersions: []string{gvr.Version}, Resources: []string{gvr.Resource},
					Scope: new(admissionregistrationv1.ClusterScope),
				},
			}},
		}},
	}}
	return nil
}

var webhookServer struct {
	started bool
	err     error
}

// startWebhook starts the API server of webhookEnv and, once, the webhook's TLS server
// on the host and port envtest registered.
func startWebhook(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	cfg := webhookEnv.Start(t)
	if !webhookServer.started {
		webhookServer.started = true
		webhookServer.err = serveWebhook(&webhookEnv.Env().WebhookInstallOptions)
	}
	if webhookServer.err != nil {
		t.Fatalf("serving the webhook: %v", webhookServer.err)
	}
	return clientset(t, cfg)
}

// serveWebhook serves webhook.Handler over TLS with envtest's serving certificate, until
// the test binary exits, and waits until it answers.
func serveWebhook(o *envtest.WebhookInstallOptions) error {
	cert, err := tls.LoadX509KeyPair(filepath.Join(o.LocalServingCertDir, "tls.crt"), filepath.Join(o.LocalServingCertDir, "tls.key"))
	if err != nil {
		return err
	}
	addr := net.JoinHostPort(o.LocalServingHost, strconv.Itoa(o.LocalServingPort))
	ln, err := tls.Listen("tcp", addr, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/validate-instancetypes", &webhook.Handler{})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with the test binary
	for range 50 {
		conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // a readiness probe
		if err == nil {
			conn.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("the webhook server did not answer")
}

// TestWebhook: through the real API server, the webhook allows a valid instance type and
// denies a broken one with every finding, each at its path, as package validate reports
// them.
func TestWebhook(t *testing.T) {
	cs := startWebhook(t)
	if err := createRaw(stepContext(t), cs, []byte(validJSON("web-ok")), true); err != nil {
		t.Fatalf("valid instance type refused: %v", err)
	}
	const broken = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"web-broken"},
 "spec":{"nodeSelector":{"pool":"a b"},"extra":1,"resources":{"requests":{"cpu":"0","memory":"3Gi","nvidia.com/gpu":1},"limits":{"cpu":"2","memory":"2Gi","nvidia.com/gpu":0.5,"cpus":"1"}}}}`
	err := createRaw(stepContext(t), cs, []byte(broken), true)
	if err == nil {
		t.Fatal("broken instance type accepted")
	}
	if !strings.Contains(err.Error(), `admission webhook "`+webhookName+`" denied the request`) {
		t.Errorf("error %q does not come from the webhook", err)
	}
	fields, _ := causes(err)
	want := []string{
		"spec.extra",
		"spec.nodeSelector[pool]",
		"spec.resources.limits[cpus]",
		"spec.resources.limits[nvidia.com/gpu]",
		"spec.resources.requests[cpu]",
		"spec.resources.requests[nvidia.com/gpu]",
		"spec.resources.requests[memory]",
	}
	if !slices.Equal(fields, want) {
		t.Errorf("causes at %q; want %q", fields, want)
	}
}
