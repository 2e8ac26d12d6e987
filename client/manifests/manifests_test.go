package manifests_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/client/manifests"
)

// rules returns the CEL rules of a schema and of everything below it, with a rule for
// each maxProperties (its nulls not counted), maxLength and pattern, which the policy
// states as rules.
func rules(s *apiextensionsv1.JSONSchemaProps) []string {
	var out []string
	for _, r := range s.XValidations {
		out = append(out, r.Rule)
	}
	if s.MaxProperties != nil {
		out = append(out, fmt.Sprintf("self.filter(k, self[k] != null).size() <= %d", *s.MaxProperties))
	}
	if s.MaxLength != nil {
		out = append(out, fmt.Sprintf("type(self) != string || size(self) <= %d", *s.MaxLength))
	}
	if s.Pattern != "" {
		out = append(out, fmt.Sprintf("type(self) != string || self.matches('%s')", s.Pattern))
	}
	for _, p := range s.Properties {
		out = append(out, rules(&p)...)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		out = append(out, rules(s.AdditionalProperties.Schema)...)
	}
	return out
}

// TestManifests checks, without a cluster, that the embedded manifests decode strictly
// and fit together: the CRD is the cluster-scoped instancetypes.amlarc.azureml.com, and
// the policy carries each of its rules (rewritten for the policy's variables) and matches
// its resource. The integration tests check them against a real API server.
func TestManifests(t *testing.T) {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(manifests.CRD, &crd); err != nil {
		t.Fatalf("CRD: %v", err)
	}
	if crd.Name != "instancetypes.amlarc.azureml.com" || crd.Spec.Scope != apiextensionsv1.ClusterScoped ||
		len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Name != "v1alpha1" || crd.Annotations["amlarc-go.github.io/schema"] == "" {
		t.Fatalf("CRD %s, scope %s, versions %d, annotations %v", crd.Name, crd.Spec.Scope, len(crd.Spec.Versions), crd.Annotations)
	}
	crdRules := rules(crd.Spec.Versions[0].Schema.OpenAPIV3Schema)

	docs := bytes.Split(manifests.Policy, []byte("\n---\n"))
	if len(docs) != 2 {
		t.Fatalf("Policy has %d documents; want 2", len(docs))
	}
	var p admissionregistrationv1.ValidatingAdmissionPolicy
	var b admissionregistrationv1.ValidatingAdmissionPolicyBinding
	if err := yaml.UnmarshalStrict(docs[0], &p); err != nil {
		t.Fatalf("policy: %v", err)
	}
	if err := yaml.UnmarshalStrict(docs[1], &b); err != nil {
		t.Fatalf("binding: %v", err)
	}
	if b.Spec.PolicyName != p.Name || len(b.Spec.ValidationActions) != 1 || b.Spec.ValidationActions[0] != admissionregistrationv1.Deny {
		t.Errorf("binding %+v does not deny with policy %s", b.Spec, p.Name)
	}
	rr := p.Spec.MatchConstraints.ResourceRules
	if len(rr) != 1 || rr[0].APIGroups[0] != crd.Spec.Group || rr[0].Resources[0] != crd.Spec.Names.Plural {
		t.Errorf("policy matches %+v; want %s %s", rr, crd.Spec.Group, crd.Spec.Names.Plural)
	}
	if *p.Spec.FailurePolicy != admissionregistrationv1.Fail {
		t.Errorf("failure policy %s; want Fail", *p.Spec.FailurePolicy)
	}
	// Each CRD rule (and bound of entries) is in the policy with self replaced, and nothing
	// else.
	if got, want := len(p.Spec.Validations), len(crdRules); got != want {
		t.Errorf("policy has %d validations; want %d, the CRD's rules", got, want)
	}
	var exprs []string
	for _, v := range p.Spec.Validations {
		if strings.Contains(v.Expression, "self") {
			t.Errorf("policy expression still names self: %s", v.Expression)
		}
		exprs = append(exprs, v.Expression)
	}
	joined := strings.Join(exprs, "\n")
	for _, r := range crdRules {
		// The rewritten rule keeps everything but self; its longest self-free piece must be there.
		longest := ""
		for _, piece := range strings.Split(r, "self") {
			if len(piece) > len(longest) {
				longest = piece
			}
		}
		if !strings.Contains(joined, longest) {
			t.Errorf("CRD rule %q is not in the policy", r)
		}
	}
}

// TestCRDSchemaForms: what hack/tools/crdschema adds to controller-gen's output is there.
// Resource values have the schema controller-gen writes for resource.Quantity (anyOf
// integer and string, int-or-string), which tools that read the schema rely on; node
// selector values are label values of at most 63 characters.
func TestCRDSchemaForms(t *testing.T) {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(manifests.CRD, &crd); err != nil {
		t.Fatalf("CRD: %v", err)
	}
	spec := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	for _, list := range []string{"limits", "requests"} {
		v := spec.Properties["resources"].Properties[list].AdditionalProperties.Schema
		if !v.XIntOrString || v.Type != "" || len(v.AnyOf) != 2 || v.AnyOf[0].Type != "integer" || v.AnyOf[1].Type != "string" {
			t.Errorf("%s values: type %q, int-or-string %v, anyOf %+v; want resource.Quantity's form", list, v.Type, v.XIntOrString, v.AnyOf)
		}
		if m := spec.Properties["resources"].Properties[list].MaxProperties; m == nil || *m != 16 {
			t.Errorf("%s: maxProperties %v; want 16", list, m)
		}
	}
	sel := spec.Properties["nodeSelector"].AdditionalProperties.Schema
	if sel.Type != "string" || sel.MaxLength == nil || *sel.MaxLength != 63 {
		t.Errorf("node selector values: %+v; want strings of at most 63 characters", sel)
	}
}
