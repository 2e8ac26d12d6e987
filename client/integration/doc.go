// Package integration holds the integration tests of the client module, against a real
// kube-apiserver (k8s.io/kubernetes v1.37.2) and etcd (v3.7.3) started by
// controller-runtime's envtest; it has no code of its own.
//
// Build the binaries once with hack/envtest.sh, then run the tests like any others:
//
//	KUBEBUILDER_ASSETS=$(hack/envtest.sh) go test ./integration
//
// Without the binaries every test here skips with one line naming the script; in CI
// ($CI=true) a skip is a failure. The tests start three API servers, one per subject:
//
//   - the generated CRD (manifests.CRD) installed: examples accepted, broken manifests
//     refused with the CEL messages, the schema and CEL agreeing with package validate on
//     table cases and generated instance types, server-side apply through the typed
//     clientset, and a typed and a dynamic informer keeping a resolve.Store in step;
//   - a schemaless CRD of the same name, as the Azure ML extension's may be, with the
//     ValidatingAdmissionPolicy (manifests.Policy) bound: the policy agreeing with
//     package validate on the same cases;
//   - the schemaless CRD with the webhook of package webhook, served over TLS and
//     registered with a ValidatingWebhookConfiguration: denials listing every finding.
package integration
