// Package config holds the kustomize manifests that deploy the instancetype webhook, and
// their tests; it has no Go API.
//
//   - base: the Namespace, ServiceAccount, Deployment (two replicas spread over nodes,
//     probes, requests and limits, a restricted security context), PodDisruptionBudget,
//     Service, NetworkPolicy (the metrics port open only to namespaces labelled
//     metrics: enabled) and ValidatingWebhookConfiguration (admission v1, sideEffects None,
//     failurePolicy Fail, timeoutSeconds 10, CREATE and UPDATE of instancetypes). It
//     serves the Secret instancetype-webhook-tls; the configuration's caBundle is yours to
//     set.
//   - cert-manager: the base, with a CA and a serving certificate from cert-manager and
//     the CA injected into the configuration.
//
// kubectl apply -k config/cert-manager deploys it; the module's README says how, and how
// to bring a certificate of your own. The tests here build both with kustomize's library
// and check what a cluster admin relies on; the integration tests register the rendered
// configuration with a real API server and run the webhook's binary behind it.
package config
