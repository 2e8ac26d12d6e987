package integration_test

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/amlarc-go/instancetypes/client/internal/render"
	"github.com/amlarc-go/instancetypes/client/internal/testcerts"
	"github.com/amlarc-go/instancetypes/client/webhook"
)

const webhookName = "instancetypes.amlarc.azureml.com"

// legacyName is an instance type stored invalid, with a finalizer, before the webhook is
// registered: what a cluster holds when the webhook is installed after the fact.
const legacyName = "legacy-invalid"

// setupWebhook installs the schemaless CRD; startWebhook registers the webhook.
func setupWebhook(e *envtest.Environment) error {
	crd, err := schemalessCRD()
	if err != nil {
		return err
	}
	e.CRDs = []*apiextensionsv1.CustomResourceDefinition{crd}
	return nil
}

// hook is the webhook of webhookEnv, started once.
var hook struct {
	once    sync.Once
	err     error
	cfg     *rest.Config
	proc    *webhookProcess
	ca      *testcerts.CA
	certDir string
}

// legacyObject is the invalid instance type stored before the webhook: a zero cpu request,
// a bad label value, an unknown field.
func legacyObject() object {
	o := valid(legacyName)
	requests(o)["cpu"] = "0"
	spec(o)["nodeSelector"] = object{"pool": "a b"}
	spec(o)["extra"] = true
	meta(o)["finalizers"] = []any{"example.com/cleanup"}
	return o
}

// startWebhook starts webhookEnv's API server and, once: stores legacyObject, runs the
// webhook's binary with a certificate from a test CA written as the kubelet writes a
// mounted Secret, and registers it with the ValidatingWebhookConfiguration that
// config/base renders, pointed at the process on loopback with the test CA as caBundle.
func startWebhook(t *testing.T) *rest.Config {
	t.Helper()
	cfg := webhookEnv.Start(t)
	hook.once.Do(func() { hook.err = registerWebhook(t, cfg) })
	if hook.err != nil {
		t.Fatalf("starting the webhook: %v", hook.err)
	}
	return cfg
}

func registerWebhook(t *testing.T, cfg *rest.Config) error {
	cs := clientset(t, cfg)
	if err := createRaw(stepContext(t), cs, mustJSON(legacyObject()), true); err != nil {
		return fmt.Errorf("storing %s: %w", legacyName, err)
	}
	ca, err := testcerts.NewCA()
	if err != nil {
		return err
	}
	s, err := ca.Serve()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "instancetype-webhook-tls")
	if err != nil {
		return err
	}
	if err := s.WriteAsKubelet(dir); err != nil {
		return err
	}
	proc := startWebhookProcess(t, dir, "--cert-reload-interval", "100ms", "--read-timeout", "2s", "--idle-timeout", "2s", "--shutdown-delay", "0s")
	hook.cfg, hook.proc, hook.ca, hook.certDir = cfg, proc, ca, dir

	vwc, err := renderedWebhookConfiguration(proc.addr("webhook"), ca.PEM)
	if err != nil {
		return err
	}
	if _, err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(stepContext(t), vwc, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("registering the webhook: %w", err)
	}
	// Registered once an invalid instance type is denied by it.
	probe := valid("webhook-probe")
	delete(limits(probe), "cpu")
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := createRaw(stepContext(t), cs, mustJSON(probe), false)
		if err != nil && strings.Contains(err.Error(), `admission webhook "`+webhookName+`"`) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the webhook was not called: %v\n%s", err, proc.stderr())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// renderedWebhookConfiguration is config/base's ValidatingWebhookConfiguration, its
// Service reference replaced by the URL of the process at addr (the path kept), trusting
// caPEM: what cert-manager's CA injector would set, for a webhook outside the cluster.
func renderedWebhookConfiguration(addr string, caPEM []byte) (*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	objs, err := render.Kustomization("../config/base")
	if err != nil {
		return nil, err
	}
	o := render.Find(objs, "ValidatingWebhookConfiguration", webhookName)
	if o == nil {
		return nil, fmt.Errorf("config/base has no ValidatingWebhookConfiguration %s", webhookName)
	}
	var vwc admissionregistrationv1.ValidatingWebhookConfiguration
	if err := render.Into(o, &vwc); err != nil {
		return nil, err
	}
	for i := range vwc.Webhooks {
		cc := &vwc.Webhooks[i].ClientConfig
		url := "https://" + addr + *cc.Service.Path
		cc.Service, cc.URL, cc.CABundle = nil, &url, caPEM
	}
	return &vwc, nil
}

// warnings collects the warnings the API server passes on to a client.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) HandleWarningHeader(code int, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, text)
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.list
	w.list = nil
	return out
}

// withWarnings returns cfg with a warning collector.
func withWarnings(cfg *rest.Config) (*rest.Config, *warnings) {
	w := &warnings{}
	c := rest.CopyConfig(cfg)
	c.WarningHandler = w
	return c, w
}

// TestWebhook: through the real API server, the webhook's binary allows a valid instance
// type and denies a broken one with every finding, each at its path, as package validate
// reports them; its metrics count both.
func TestWebhook(t *testing.T) {
	cs := clientset(t, startWebhook(t))
	if err := createRaw(stepContext(t), cs, []byte(validJSON("web-ok")), true); err != nil {
		t.Fatalf("valid instance type refused: %v", err)
	}
	const broken = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"web-broken"},
 "spec":{"nodeSelector":{"pool":"a b"},"extra":1,"resources":{"requests":{"cpu":"0","memory":"3Gi","nvidia.com/gpu":1},"limits":{"cpu":"2","memory":"2Gi","nvidia.com/gpu":"0.5","cpus":"1"}}}}`
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
	// Metadata the API server lets through to admission is checked too.
	o := valid("web-annotations")
	meta(o)["finalizers"] = []any{"example.com/ok"}
	if err := createRaw(stepContext(t), cs, mustJSON(o), false); err != nil {
		t.Errorf("valid metadata refused: %v", err)
	}

	m := metricsText(t, hook.proc)
	for _, want := range []string{
		`instancetype_webhook_reviews_total{operation="CREATE",outcome="allowed"}`,
		`instancetype_webhook_reviews_total{operation="CREATE",outcome="denied"}`,
		`instancetype_webhook_findings_total{result="denied"}`,
		`instancetype_webhook_review_duration_seconds_bucket{operation="CREATE",le="0.005"}`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	for _, l := range hook.proc.logs("review") {
		if l["uid"] == "" || l["outcome"] == "" {
			t.Errorf("a review log without its UID or outcome: %v", l)
		}
		if strings.Contains(fmt.Sprint(l), `"spec"`) || strings.Contains(fmt.Sprint(l), "a b") {
			t.Errorf("a review log holds the object: %v", l)
		}
	}
}

// metricsText fetches the process's /metrics.
func metricsText(t *testing.T, p *webhookProcess) string {
	t.Helper()
	resp, err := http.Get("http://" + p.addr("metrics") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWebhookRatchet: an instance type stored invalid before the webhook existed can
// still be deleted: the API server marks it for deletion, its finalizer is removed by an
// update that the webhook admits (every finding is at an unchanged value) with warnings
// that say so, and it goes away. An update that changes an invalid value is denied.
func TestWebhookRatchet(t *testing.T) {
	cfg, warned := withWarnings(startWebhook(t))
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res := dyn.Resource(gvr)
	get := func() *unstructured.Unstructured {
		t.Helper()
		u, err := res.Get(stepContext(t), legacyName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}

	// Changing an invalid value to another invalid one is denied.
	u := get()
	if err := unstructured.SetNestedField(u.Object, "-1", "spec", "resources", "requests", "cpu"); err != nil {
		t.Fatal(err)
	}
	_, err = res.Update(stepContext(t), u, metav1.UpdateOptions{})
	if err == nil || !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.resources.requests[cpu]") {
		t.Fatalf("changing the zero cpu request to -1: %v; want a denial at spec.resources.requests[cpu]", err)
	}
	if fields, _ := causes(err); !slices.Equal(fields, []string{"spec.resources.requests[cpu]"}) {
		t.Errorf("denied at %q; want only the changed value", fields)
	}
	warned.take()

	// Deleting marks it; the finalizer keeps it.
	if err := res.Delete(stepContext(t), legacyName, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	u = get()
	if u.GetDeletionTimestamp() == nil {
		t.Fatal("no deletionTimestamp after the delete")
	}
	// The controller removes its finalizer: admitted, with warnings.
	u.SetFinalizers(nil)
	if _, err := res.Update(stepContext(t), u, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("removing the finalizer of an invalid instance type: %v", err)
	}
	w := warned.take()
	if len(w) < 2 || !strings.HasPrefix(w[0], "3 findings at values unchanged") {
		t.Errorf("warnings %q; want the count of the 3 unchanged findings, then each", w)
	}
	for _, want := range []string{"unchanged: spec.extra", "unchanged: spec.nodeSelector[pool]", "unchanged: spec.resources.requests[cpu]"} {
		if !slices.ContainsFunc(w, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("no warning begins %q: %q", want, w)
		}
	}
	eventually(t, 30*time.Second, func() error {
		_, err := res.Get(stepContext(t), legacyName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("%s still there: %v", legacyName, err)
	})
	// 2 unchanged findings beside the changed cpu request, then 3.
	if m := metricsText(t, hook.proc); !strings.Contains(m, `instancetype_webhook_findings_total{result="ratcheted"} 5`) {
		t.Errorf("metrics do not count 5 ratcheted findings:\n%s", grepLines(m, "findings_total"))
	}
}

// TestWebhookCertificateRotation: a new certificate, written as the kubelet updates a
// mounted Secret, is served to new connections (a TLS client sees its serial), and the API
// server, trusting the same CA, keeps calling the webhook.
func TestWebhookCertificateRotation(t *testing.T) {
	cs := clientset(t, startWebhook(t))
	addr := hook.proc.addr("webhook")
	before, err := testcerts.PeerSerial(addr, hook.ca)
	if err != nil {
		t.Fatal(err)
	}
	next, err := hook.ca.Serve()
	if err != nil {
		t.Fatal(err)
	}
	if err := next.WriteAsKubelet(hook.certDir); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, func() error {
		got, err := testcerts.PeerSerial(addr, hook.ca)
		if err != nil {
			return err
		}
		if got.Cmp(next.Serial) != 0 {
			return fmt.Errorf("serving serial %v (before %v); want %v", got, before, next.Serial)
		}
		return nil
	})
	if err := createRaw(stepContext(t), cs, []byte(validJSON("after-rotation")), false); err != nil {
		t.Errorf("after the rotation: %v", err)
	}
	if !strings.Contains(metricsText(t, hook.proc), `instancetype_webhook_certificate_reloads_total{result="success"} 2`) {
		t.Error("metrics do not count 2 certificate loads")
	}
}

// TestWebhookTimeouts: a client that trickles its body, or its headers, or keeps an idle
// connection, is cut off by the server's timeouts (--read-timeout 2s and --idle-timeout
// 2s here), long before it would finish; the server goes on answering others.
func TestWebhookTimeouts(t *testing.T) {
	startWebhook(t)
	addr := hook.proc.addr("webhook")
	dial := func() *tls.Conn {
		t.Helper()
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: hook.ca.Pool(), ServerName: "127.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		return conn
	}
	// trickle writes head, then one byte of rest every 100 ms, for at most 60 s (600
	// bytes), and reports whether the server closed the connection before it was done.
	trickle := func(head, rest string) bool {
		conn := dial()
		defer conn.Close()
		if _, err := io.WriteString(conn, head); err != nil {
			return true
		}
		closed := make(chan struct{})
		go func() {
			_, _ = io.Copy(io.Discard, conn) // returns when the server closes
			close(closed)
		}()
		for i := 0; i < len(rest) && i < 600; i++ {
			select {
			case <-closed:
				return true
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := conn.Write([]byte{rest[i]}); err != nil {
				return true
			}
		}
		return false
	}
	body := strings.Repeat(" ", 1000)
	if !trickle("POST /validate-instancetypes HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", body) {
		t.Error("a body trickled a byte at a time for a minute was not cut off")
	}
	if !trickle("", "POST /validate-instancetypes HTTP/1.1\r\nHost: webhook\r\nX-Slow: "+strings.Repeat("a", 1000)) {
		t.Error("headers trickled a byte at a time for a minute were not cut off")
	}

	// An idle kept-alive connection is closed after the idle timeout.
	conn := dial()
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: webhook\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err := conn.SetReadDeadline(time.Now().Add(60 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := br.ReadByte(); err == nil {
		t.Error("the server sent more on an idle connection")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("an idle connection was kept for a minute")
	}

	// Still answering.
	if err := createRaw(stepContext(t), clientset(t, hook.cfg), []byte(validJSON("after-trickle")), false); err != nil {
		t.Errorf("after the slow clients: %v", err)
	}
}

// TestWebhookManyFindings: an instance type with 8,000 bad node selector keys is denied
// with a bounded answer, in time. "In time" is the API server's own judgement: the object
// carries a label that a second registration of the same webhook selects, with
// timeoutSeconds 1, the least there is; had the webhook taken longer, the API server would
// report that call's timeout instead of the webhook's denial. The work is bounded by
// construction as well: decoding and validation are linear in the object, and the
// answer lists at most 100 causes.
func TestWebhookManyFindings(t *testing.T) {
	cfg := startWebhook(t)
	cs := clientset(t, cfg)
	vwc, err := renderedWebhookConfiguration(hook.proc.addr("webhook"), hook.ca.PEM)
	if err != nil {
		t.Fatal(err)
	}
	vwc.Name = "instancetypes-one-second.amlarc.azureml.com"
	vwc.Webhooks[0].Name = "one-second.instancetypes.amlarc.azureml.com"
	vwc.Webhooks[0].TimeoutSeconds = new(int32(1))
	vwc.Webhooks[0].ObjectSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"test.amlarc-go.github.io/timeout": "1s"}}
	api := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	if _, err := api.Create(stepContext(t), vwc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.Delete(stepContext(t), vwc.Name, metav1.DeleteOptions{}) })

	const n = 8000
	o := valid("many-findings")
	meta(o)["labels"] = object{"test.amlarc-go.github.io/timeout": "1s"}
	sel := object{}
	for i := range n {
		sel[fmt.Sprintf("bad key %04d", i)] = "v"
	}
	spec(o)["nodeSelector"] = sel
	body := mustJSON(o)

	// The second registration is in force once a small bad object is denied by it.
	small := valid("one-second-probe")
	meta(small)["labels"] = object{"test.amlarc-go.github.io/timeout": "1s"}
	delete(limits(small), "cpu")
	eventually(t, 30*time.Second, func() error {
		err := createRaw(stepContext(t), cs, mustJSON(small), false)
		if err != nil && strings.Contains(err.Error(), `admission webhook "one-second.`) {
			return nil
		}
		return fmt.Errorf("the one-second registration is not called yet: %v", err)
	})

	// n findings, one for each key, and one for more entries than the CRD allows.
	start := time.Now()
	err = createRaw(stepContext(t), cs, body, false)
	took := time.Since(start)
	t.Logf("%d bad keys (%d bytes): answered through the API server in %v", n, len(body), took)
	se, ok := err.(*apierrors.StatusError)
	if !ok || se.ErrStatus.Reason != metav1.StatusReasonInvalid || se.ErrStatus.Details == nil {
		t.Fatalf("%d bad keys: %v (%T); want the webhook's Invalid denial, not a timeout", n, err, err)
	}
	cs2 := se.ErrStatus.Details.Causes
	if len(cs2) != webhook.MaxCauses+1 || cs2[len(cs2)-1].Type != webhook.CauseTooManyFindings ||
		!strings.HasPrefix(cs2[len(cs2)-1].Message, fmt.Sprintf("%d more findings", n+1-webhook.MaxCauses)) {
		t.Errorf("%d causes, the last %+v; want %d and a count of the rest", len(cs2), cs2[len(cs2)-1], webhook.MaxCauses+1)
	}
	size, _ := json.Marshal(se.ErrStatus)
	if len(se.ErrStatus.Message) > 4096 || len(size) > 64<<10 {
		t.Errorf("a message of %d bytes, a Status of %d; want at most 4 KiB and 64 KiB", len(se.ErrStatus.Message), len(size))
	}
}

// TestWebhookShutdown: on SIGTERM a second webhook process fails /readyz at once, still
// answers reviews during --shutdown-delay, then exits with status 0.
func TestWebhookShutdown(t *testing.T) {
	startWebhook(t)
	p := startWebhookProcess(t, hook.certDir, "--shutdown-delay", "3s")
	readyz := func() int {
		resp, err := http.Get("http://" + p.addr("probes") + "/readyz")
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := readyz(); code != 200 {
		t.Fatalf("/readyz %d before SIGTERM", code)
	}
	done := make(chan error, 1)
	go func() { done <- p.terminate() }()
	eventually(t, 30*time.Second, func() error {
		if code := readyz(); code != 503 {
			return fmt.Errorf("/readyz %d after SIGTERM; want 503", code)
		}
		return nil
	})
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: hook.ca.Pool(), ServerName: "127.0.0.1"}}}
	resp, err := client.Post("https://"+p.addr("webhook")+"/validate-instancetypes", "application/json", strings.NewReader(
		`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"1","operation":"DELETE","resource":{"group":"amlarc.azureml.com","version":"v1alpha1","resource":"instancetypes"}}}`))
	if err != nil {
		t.Errorf("a review during the shutdown delay: %v", err)
	} else {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), `"allowed":true`) {
			t.Errorf("a review during the shutdown delay: %d %s", resp.StatusCode, b)
		}
	}
	if err := <-done; err != nil {
		t.Errorf("exit after SIGTERM: %v\n%s", err, p.stderr())
	}
}

// grepLines returns the lines of text that hold s.
func grepLines(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
