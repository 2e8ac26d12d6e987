// Package config holds the kustomize manifests that deploy the instancetype webhook, and
// their tests; it has no Go API.
//
//   - base: the Namespace, ServiceAccount, Deployment (two replicas spread over nodes,
//     probes on the pods' address, /metrics on their loopback only, requests and limits, a
//     restricted security context), PodDisruptionBudget, Service (the webhook's port),
//     NetworkPolicy (the webhook and probe ports open, nothing else) and
//     ValidatingWebhookConfiguration (admission v1, sideEffects None, failurePolicy Fail,
//     timeoutSeconds 10, CREATE and UPDATE of instancetypes). It serves the Secret
//     instancetype-webhook-tls; the configuration's caBundle is yours to set.
//   - cert-manager: the base, with a CA and a serving certificate from cert-manager and
//     the CA injected into the configuration.
//   - metrics-http: an opt-in kustomize component for either: /metrics, plain HTTP and
//     unauthenticated, on the pods' address, port 8080, in the Service, and open only to
//     namespaces labelled metrics: enabled, for Prometheus to scrape.
//
// kubectl apply -k config/cert-manager deploys it; the module's README says how, and how
// to bring a certificate of your own. The tests here build them with kustomize's library
// and check what a cluster admin relies on; the integration tests register the rendered
// configuration with a real API server and run the webhook's binary behind it.
package config
