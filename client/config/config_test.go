package config_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/amlarc-go/instancetypes/client/internal/render"
)

const ns = "instancetype-webhook"

func build(t *testing.T, dir string) []*unstructured.Unstructured {
	t.Helper()
	objs, err := render.Kustomization(dir)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func get[T any](t *testing.T, objs []*unstructured.Unstructured, kind, name string) *T {
	t.Helper()
	o := render.Find(objs, kind, name)
	if o == nil {
		t.Fatalf("no %s %s", kind, name)
	}
	var out T
	if err := render.Into(o, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// TestBase: the base holds what a cluster admin relies on, each object decoding strictly
// into its API type.
func TestBase(t *testing.T) {
	objs := build(t, "base")
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o.GetKind())
		if o.GetKind() != "Namespace" && o.GetKind() != "ValidatingWebhookConfiguration" && o.GetNamespace() != ns {
			t.Errorf("%s %s in namespace %q; want %s", o.GetKind(), o.GetName(), o.GetNamespace(), ns)
		}
	}
	slices.Sort(kinds)
	want := []string{"Deployment", "Namespace", "NetworkPolicy", "PodDisruptionBudget", "Service", "ServiceAccount", "ValidatingWebhookConfiguration"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("kinds %q; want %q", kinds, want)
	}

	d := get[appsv1.Deployment](t, objs, "Deployment", "instancetype-webhook")
	if *d.Spec.Replicas != 2 {
		t.Errorf("%d replicas; want 2", *d.Spec.Replicas)
	}
	spread := false
	for _, c := range d.Spec.Template.Spec.TopologySpreadConstraints {
		spread = spread || c.TopologyKey == "kubernetes.io/hostname" && c.WhenUnsatisfiable == corev1.DoNotSchedule && c.MaxSkew == 1
	}
	if !spread {
		t.Error("the replicas are not spread over nodes")
	}
	pod := d.Spec.Template.Spec
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot ||
		pod.SecurityContext.SeccompProfile == nil || pod.SecurityContext.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod security context %+v; want runAsNonRoot and seccomp RuntimeDefault", pod.SecurityContext)
	}
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		t.Error("a service account token is mounted")
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	sc := c.SecurityContext
	if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) || len(sc.Capabilities.Add) != 0 {
		t.Errorf("container security context %+v", sc)
	}
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.LivenessProbe == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Fatal("probes are not /readyz and /healthz")
	}
	// The probes reach the port the probe server listens on, on the pod's address, over
	// plain HTTP.
	_, probePort, err := net.SplitHostPort(lastArg(c.Args, "--health-probe-bind-address"))
	if err != nil {
		t.Fatalf("--health-probe-bind-address: %v", err)
	}
	for _, p := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe} {
		if got := fmt.Sprint(containerPort(c, p.HTTPGet.Port)); got != probePort || p.HTTPGet.Scheme == corev1.URISchemeHTTPS {
			t.Errorf("probe %s on port %s (%v, %s); want port %s, HTTP, where --health-probe-bind-address listens", p.HTTPGet.Path, got, p.HTTPGet.Port, p.HTTPGet.Scheme, probePort)
		}
	}
	// /metrics, unauthenticated, stays on loopback: the default, or a loopback address.
	if a := lastArg(c.Args, "--metrics-bind-address"); a != "" {
		if host, _, err := net.SplitHostPort(a); err != nil || !net.ParseIP(host).IsLoopback() {
			t.Errorf("--metrics-bind-address=%s; want it on loopback (the default) in the base", a)
		}
	}
	for _, p := range c.Ports {
		if p.Name == "metrics" || p.ContainerPort == 8080 {
			t.Errorf("the container names port %+v for /metrics; the base keeps it on loopback", p)
		}
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if c.Resources.Requests.Name(r, "").IsZero() || c.Resources.Limits.Name(r, "").IsZero() {
			t.Errorf("no %s request or limit", r)
		}
	}
	if !slices.Contains(c.Args, "--cert-dir=/etc/instancetype-webhook/tls") || len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/etc/instancetype-webhook/tls" ||
		pod.Volumes[0].Secret == nil || pod.Volumes[0].Secret.SecretName != "instancetype-webhook-tls" {
		t.Errorf("the certificate is not mounted where --cert-dir reads it: %q, %+v", c.Args, c.VolumeMounts)
	}

	pdb := get[policyv1.PodDisruptionBudget](t, objs, "PodDisruptionBudget", "instancetype-webhook")
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() != 1 || pdb.Spec.Selector.MatchLabels["app.kubernetes.io/name"] != "instancetype-webhook" {
		t.Errorf("PodDisruptionBudget %+v", pdb.Spec)
	}

	svc := get[corev1.Service](t, objs, "Service", "instancetype-webhook")
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != 443 || svc.Spec.Ports[0].TargetPort.StrVal != "webhook" {
		t.Errorf("Service ports %+v; want 443 to the webhook alone", svc.Spec.Ports)
	}

	vwc := get[admissionregistrationv1.ValidatingWebhookConfiguration](t, objs, "ValidatingWebhookConfiguration", "instancetypes.amlarc.azureml.com")
	if len(vwc.Webhooks) != 1 {
		t.Fatalf("%d webhooks", len(vwc.Webhooks))
	}
	w := vwc.Webhooks[0]
	if !slices.Equal(w.AdmissionReviewVersions, []string{"v1"}) || *w.SideEffects != admissionregistrationv1.SideEffectClassNone ||
		*w.FailurePolicy != admissionregistrationv1.Fail || w.TimeoutSeconds == nil || *w.TimeoutSeconds > 10 ||
		w.MatchPolicy == nil || *w.MatchPolicy != admissionregistrationv1.Equivalent {
		t.Errorf("webhook %+v", w)
	}
	s := w.ClientConfig.Service
	if s == nil || s.Name != svc.Name || s.Namespace != ns || *s.Path != "/validate-instancetypes" || *s.Port != 443 {
		t.Errorf("clientConfig %+v", w.ClientConfig)
	}
	if len(w.Rules) != 1 || !slices.Equal(w.Rules[0].Operations, []admissionregistrationv1.OperationType{"CREATE", "UPDATE"}) ||
		!slices.Equal(w.Rules[0].Resources, []string{"instancetypes"}) || !slices.Equal(w.Rules[0].APIGroups, []string{"amlarc.azureml.com"}) ||
		*w.Rules[0].Scope != admissionregistrationv1.ClusterScope {
		t.Errorf("rules %+v", w.Rules)
	}
}

// lastArg returns the value of the last --name=value among args (the one Go's flag
// package keeps), or "".
func lastArg(args []string, name string) string {
	v := ""
	for _, a := range args {
		if rest, ok := strings.CutPrefix(a, name+"="); ok {
			v = rest
		}
	}
	return v
}

// containerPort returns the number of port p (a number, or a name c gives), or 0.
func containerPort(c corev1.Container, p intstr.IntOrString) int32 {
	if p.Type == intstr.Int {
		return p.IntVal
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return cp.ContainerPort
		}
	}
	return 0
}

// TestNetworkPolicy: the webhook's pods let in the API server's calls and the kubelet's
// probes from anywhere, on the ports the Deployment names; nothing else.
func TestNetworkPolicy(t *testing.T) {
	checkNetworkPolicy(t, build(t, "base"), map[string]string{"webhook": "anyone", "probes": "anyone"})
}

// checkNetworkPolicy checks that the NetworkPolicy of objs selects the Deployment's pods
// and lets in, on each port the container names, whom want says ("anyone", or the
// namespaces' labels), and no one else.
func checkNetworkPolicy(t *testing.T, objs []*unstructured.Unstructured, want map[string]string) {
	t.Helper()
	np := get[networkingv1.NetworkPolicy](t, objs, "NetworkPolicy", "instancetype-webhook")
	d := get[appsv1.Deployment](t, objs, "Deployment", "instancetype-webhook")
	if !reflect.DeepEqual(np.Spec.PodSelector.MatchLabels, d.Spec.Selector.MatchLabels) || len(np.Spec.PodSelector.MatchExpressions) != 0 {
		t.Errorf("the policy selects %+v; want the Deployment's pods, %v", np.Spec.PodSelector, d.Spec.Selector.MatchLabels)
	}
	if !slices.Equal(np.Spec.PolicyTypes, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}) {
		t.Errorf("policy types %v; want Ingress", np.Spec.PolicyTypes)
	}
	ports := map[string]bool{}
	for _, p := range d.Spec.Template.Spec.Containers[0].Ports {
		ports[p.Name] = true
	}
	// from: who may reach each port ("anyone", or the namespaces' labels).
	from := map[string]string{}
	for _, rule := range np.Spec.Ingress {
		who := "anyone"
		if len(rule.From) > 0 {
			who = ""
			for _, peer := range rule.From {
				if peer.PodSelector != nil || peer.IPBlock != nil || peer.NamespaceSelector == nil {
					t.Errorf("peer %+v; want a namespace selector alone", peer)
					continue
				}
				who += fmt.Sprint(peer.NamespaceSelector.MatchLabels)
			}
		}
		for _, p := range rule.Ports {
			if p.Port == nil || !ports[p.Port.String()] || p.Protocol == nil || *p.Protocol != corev1.ProtocolTCP {
				t.Errorf("port %+v: want a TCP port the container names", p)
				continue
			}
			from[p.Port.String()] = who
		}
	}
	if !reflect.DeepEqual(from, want) {
		t.Errorf("ingress %v; want %v", from, want)
	}
}

// TestMetricsHTTP: the component metrics-http, added to the base or to the cert-manager
// overlay, serves /metrics on the pods' address, port 8080, names it in the container and
// the Service, and opens it to namespaces labelled metrics: enabled alone; the probes are
// left as they were.
func TestMetricsHTTP(t *testing.T) {
	for _, over := range []string{"base", "cert-manager"} {
		t.Run(over, func(t *testing.T) {
			dir := t.TempDir()
			// kustomize takes relative paths only.
			rel := func(p string) string {
				a, err := filepath.Abs(p)
				if err == nil {
					a, err = filepath.Rel(dir, a)
				}
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			k := fmt.Sprintf("resources: [%s]\ncomponents: [%s]\n", rel(over), rel("metrics-http"))
			if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644); err != nil {
				t.Fatal(err)
			}
			objs := build(t, dir)
			d := get[appsv1.Deployment](t, objs, "Deployment", "instancetype-webhook")
			c := d.Spec.Template.Spec.Containers[0]
			if a := lastArg(c.Args, "--metrics-bind-address"); a != ":8080" {
				t.Errorf("--metrics-bind-address=%q; want :8080", a)
			}
			if p := containerPort(c, intstr.FromString("metrics")); p != 8080 {
				t.Errorf("container port metrics: %d; want 8080", p)
			}
			if got := containerPort(c, c.ReadinessProbe.HTTPGet.Port); got != 8081 || lastArg(c.Args, "--health-probe-bind-address") != ":8081" {
				t.Errorf("readiness probe on port %d, probes on %q; want 8081", got, lastArg(c.Args, "--health-probe-bind-address"))
			}
			svc := get[corev1.Service](t, objs, "Service", "instancetype-webhook")
			var ports []string
			for _, p := range svc.Spec.Ports {
				ports = append(ports, fmt.Sprintf("%s:%d->%s", p.Name, p.Port, p.TargetPort.String()))
			}
			if want := []string{"webhook:443->webhook", "metrics:8080->metrics"}; !slices.Equal(ports, want) {
				t.Errorf("Service ports %q; want %q", ports, want)
			}
			checkNetworkPolicy(t, objs, map[string]string{"webhook": "anyone", "probes": "anyone", "metrics": "map[metrics:enabled]"})
		})
	}
}

// TestCertManager: the overlay adds the CA, its issuers and the serving certificate for
// the Service's names, into the Secret the Deployment mounts, and asks the CA injector for
// the caBundle.
func TestCertManager(t *testing.T) {
	objs := build(t, "cert-manager")
	for _, want := range []struct{ kind, name string }{
		{"Issuer", "instancetype-webhook-selfsigned"},
		{"Issuer", "instancetype-webhook-ca"},
		{"Certificate", "instancetype-webhook-ca"},
		{"Certificate", "instancetype-webhook-serving"},
		{"Deployment", "instancetype-webhook"},
	} {
		if render.Find(objs, want.kind, want.name) == nil {
			t.Errorf("no %s %s", want.kind, want.name)
		}
	}
	cert := render.Find(objs, "Certificate", "instancetype-webhook-serving")
	secret, _, _ := unstructured.NestedString(cert.Object, "spec", "secretName")
	dns, _, _ := unstructured.NestedStringSlice(cert.Object, "spec", "dnsNames")
	issuer, _, _ := unstructured.NestedString(cert.Object, "spec", "issuerRef", "name")
	if secret != "instancetype-webhook-tls" || !slices.Contains(dns, "instancetype-webhook.instancetype-webhook.svc") || issuer != "instancetype-webhook-ca" {
		t.Errorf("serving certificate: secret %q, names %q, issuer %q", secret, dns, issuer)
	}
	vwc := render.Find(objs, "ValidatingWebhookConfiguration", "instancetypes.amlarc.azureml.com")
	if got := vwc.GetAnnotations()["cert-manager.io/inject-ca-from"]; got != ns+"/instancetype-webhook-serving" {
		t.Errorf("inject-ca-from %q", got)
	}
}
