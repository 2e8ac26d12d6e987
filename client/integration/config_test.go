package integration_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/amlarc-go/instancetypes/client/internal/render"
)

// TestConfigAccepted: the API server accepts every object config/base renders, as it
// would from kubectl apply -k (the Namespace for real, the rest as a server-side dry run;
// envtest runs no kubelet, so the pods are never scheduled). The configuration itself is
// registered for real by the webhook tests.
func TestConfigAccepted(t *testing.T) {
	cfg := startWebhook(t)
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := render.Kustomization("../config/base")
	if err != nil {
		t.Fatal(err)
	}
	resources := map[string]schema.GroupVersionResource{
		"Namespace":           {Version: "v1", Resource: "namespaces"},
		"ServiceAccount":      {Version: "v1", Resource: "serviceaccounts"},
		"Service":             {Version: "v1", Resource: "services"},
		"Deployment":          {Group: "apps", Version: "v1", Resource: "deployments"},
		"PodDisruptionBudget": {Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"},
		"NetworkPolicy":       {Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies"},
	}
	applied := 0
	for _, real := range []bool{true, false} {
		for _, o := range objs {
			r, ok := resources[o.GetKind()]
			if !ok || (o.GetKind() == "Namespace") != real {
				continue
			}
			opts := metav1.CreateOptions{FieldValidation: "Strict"}
			if !real {
				opts.DryRun = []string{metav1.DryRunAll}
			}
			var err error
			if ns := o.GetNamespace(); ns != "" {
				_, err = dyn.Resource(r).Namespace(ns).Create(stepContext(t), o, opts)
			} else {
				_, err = dyn.Resource(r).Create(stepContext(t), o, opts)
			}
			if err != nil {
				t.Errorf("%s %s refused: %v", o.GetKind(), o.GetName(), err)
			}
			applied++
		}
	}
	if applied != len(resources) {
		t.Errorf("%d objects applied; want %d, one of each kind", applied, len(resources))
	}
}
