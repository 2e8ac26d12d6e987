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
//   - the schemaless CRD with the webhook's binary (command instancetype-webhook, built
//     with CGO_ENABLED=0 and run as a process over TLS) registered with the
//     ValidatingWebhookConfiguration kustomize renders from config/base: denials listing
//     every finding, ratcheting on update, certificate rotation, connection timeouts, a
//     hostile object answered in time and bounded, a graceful shutdown.
package integration
