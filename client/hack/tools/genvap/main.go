// Command genvap prints a ValidatingAdmissionPolicy and its binding
// (admissionregistration.k8s.io/v1) that enforce the x-kubernetes-validations rules of a
// CustomResourceDefinition, so that a cluster can apply the same CEL rules to a CRD that
// lacks them (the Azure ML extension's own, say) without running a webhook.
//
//	genvap -crd manifests/crd/amlarc.azureml.com_instancetypes.yaml > manifests/policy/instancetypes.amlarc.azureml.com.yaml
//
// Each rule is rewritten mechanically. Its self becomes a policy variable that holds the
// value at the rule's place in the object, or an empty map where the object has no such
// field (a missing spec, resources or limits then fails the rules that require a key in
// it, as the CRD's required fields would). The variables are dyn-typed, so the policy
// compiles whether the CRD it meets has a schema or preserves unknown fields. The rule's
// message is prefixed with its field path in apimachinery's notation
// (spec.resources.limits[cpu]), since a policy has no fieldPath.
//
// A rule on the values of a map (in its additionalProperties schema) becomes a rule over
// the map's variable that holds for each of its values but null ones (which the CRD's
// schema prunes before its rules run): VAR.all(key, VAR[key] == null || RULE), self being
// VAR[key]; its message is prefixed with the map's path and [*].
//
// A maxProperties of the schema becomes a rule too (null values not counted, as the CRD
// prunes them), and so do a string's maxLength and pattern, since a policy meets objects
// that no schema has checked.
//
// Rules that reference oldSelf (transition rules) are not supported and make genvap fail,
// as does a rule in an array item's schema or in the values of a map inside a map's
// values: none occurs in the InstanceType CRD.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

func main() {
	crdPath := flag.String("crd", "", "path of the CustomResourceDefinition manifest")
	var extra []string
	flag.Func("rule", "a rule for the policy only, as `PATH|RULE|MESSAGE` (PATH: dotted property names from the root); repeatable", func(s string) error {
		extra = append(extra, s)
		return nil
	})
	flag.Parse()
	out, err := run(*crdPath, extra)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genvap:", err)
		os.Exit(1)
	}
	os.Stdout.Write(out)
}

// place is a schema node holding rules: its path from the object's root and the name of
// the variable that holds its value.
type place struct {
	path     []string // property names from the root
	variable string
	rules    apiextensionsv1.ValidationRules
	schema   *apiextensionsv1.JSONSchemaProps
}

var (
	selfRE = regexp.MustCompile(`\bself\b`)
	keyRE  = regexp.MustCompile(`\bkey\b`)
)

func run(crdPath string, extra []string) ([]byte, error) {
	if crdPath == "" {
		return nil, fmt.Errorf("-crd is required")
	}
	data, err := os.ReadFile(crdPath)
	if err != nil {
		return nil, err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		return nil, fmt.Errorf("%s: %w", crdPath, err)
	}
	if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Schema == nil {
		return nil, fmt.Errorf("%s: want one version with a schema", crdPath)
	}
	version := crd.Spec.Versions[0]

	var places []place
	if err := collect(version.Schema.OpenAPIV3Schema, nil, &places); err != nil {
		return nil, err
	}
	for _, e := range extra {
		p, err := extraPlace(version.Schema.OpenAPIV3Schema, e)
		if err != nil {
			return nil, err
		}
		places = append(places, p)
	}

	// Variables: one per schema node on the way to a rule, parents first, each defaulting
	// to an empty map where the object lacks the field.
	varName := map[string]string{"": "object"}
	var variables []admissionregistrationv1.Variable
	declare := func(path []string) (string, error) {
		for i := 1; i <= len(path); i++ {
			key := strings.Join(path[:i], ".")
			if _, ok := varName[key]; ok {
				continue
			}
			name := path[i-1]
			if slices.ContainsFunc(variables, func(v admissionregistrationv1.Variable) bool { return v.Name == name }) {
				return "", fmt.Errorf("two places named %s: variable names would clash", name)
			}
			parent := varName[strings.Join(path[:i-1], ".")]
			if parent != "object" {
				parent = "variables." + parent
			}
			varName[key] = name
			variables = append(variables, admissionregistrationv1.Variable{
				Name:       name,
				Expression: fmt.Sprintf("has(%s.%s) ? dyn(%s.%s) : dyn({})", parent, name, parent, name),
			})
		}
		return varName[strings.Join(path, ".")], nil
	}

	var validations []admissionregistrationv1.Validation
	for _, p := range places {
		path, values := p.path, false
		if n := len(path); n > 0 && path[n-1] == "*" {
			path, values = path[:n-1], true
		}
		v, err := declare(path)
		if err != nil {
			return nil, err
		}
		ref := "variables." + v
		if v == "object" {
			ref = "object"
		}
		for _, r := range p.rules {
			if strings.Contains(r.Rule, "oldSelf") {
				return nil, fmt.Errorf("rule %q at %s: transition rules are not supported", r.Rule, strings.Join(p.path, "."))
			}
			if r.MessageExpression != "" {
				return nil, fmt.Errorf("rule %q at %s: messageExpression is not supported", r.Rule, strings.Join(p.path, "."))
			}
			expr := selfRE.ReplaceAllString(r.Rule, ref)
			if values {
				if keyRE.MatchString(r.Rule) {
					return nil, fmt.Errorf("rule %q at %s: the name key is taken", r.Rule, strings.Join(p.path, "."))
				}
				value := ref + "[key]"
				expr = ref + ".all(key, " + value + " == null || (" + selfRE.ReplaceAllString(r.Rule, value) + "))"
			}
			validations = append(validations, admissionregistrationv1.Validation{
				Expression: expr,
				Message:    fieldPath(p, r.FieldPath) + ": " + r.Message,
				Reason:     ptr.To(metav1.StatusReasonInvalid),
			})
		}
	}

	name := crd.Name
	policy := admissionregistrationv1.ValidatingAdmissionPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: ptr.To(admissionregistrationv1.Fail),
			MatchConstraints: &admissionregistrationv1.MatchResources{
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
						Rule: admissionregistrationv1.Rule{
							APIGroups:   []string{crd.Spec.Group},
							APIVersions: []string{version.Name},
							Resources:   []string{crd.Spec.Names.Plural},
							Scope:       ptr.To(admissionregistrationv1.ScopeType(scope(crd.Spec.Scope))),
						},
					},
				}},
			},
			Variables:   variables,
			Validations: validations,
		},
	}
	binding := admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicyBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}

	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# Generated by hack/tools/genvap from %s. DO NOT EDIT.\n", "crd/"+baseName(crdPath))
	fmt.Fprintf(&buf, "# The CEL rules of the CRD %s, enforced by the API server itself on any CRD of that\n", name)
	fmt.Fprintf(&buf, "# name (the Azure ML extension's included), with no webhook to run. Kubernetes 1.31 or later.\n")
	for i, obj := range []any{policy, binding} {
		b, err := yaml.Marshal(obj)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(dropEmpty(b))
	}
	return buf.Bytes(), nil
}

// collect appends the places holding rules under s, at path, in schema order: properties
// sorted by name, a map's values under the key "*".
func collect(s *apiextensionsv1.JSONSchemaProps, path []string, out *[]place) error {
	if s == nil {
		return nil
	}
	rules := s.XValidations
	if s.MaxProperties != nil {
		if slices.Contains(path, "*") {
			return fmt.Errorf("maxProperties at %s: not supported below the values of a map", strings.Join(path, "."))
		}
		// The schema's bound, which a policy must state as a rule. Null values do not
		// count: the CRD's schema prunes them before it counts.
		rules = append(slices.Clone(rules), apiextensionsv1.ValidationRule{
			Rule:    fmt.Sprintf("self.filter(k, self[k] != null).size() <= %d", *s.MaxProperties),
			Message: fmt.Sprintf("must have at most %d entries", *s.MaxProperties),
		})
	}
	// A string's bounds too: the CRD's schema checks them before its rules run.
	if s.MaxLength != nil {
		rules = append(slices.Clone(rules), apiextensionsv1.ValidationRule{
			Rule:    fmt.Sprintf("type(self) != string || size(self) <= %d", *s.MaxLength),
			Message: fmt.Sprintf("must be at most %d characters", *s.MaxLength),
		})
	}
	if s.Pattern != "" {
		if strings.ContainsAny(s.Pattern, "'\\") {
			return fmt.Errorf("pattern at %s: a quote or a backslash is not supported", strings.Join(path, "."))
		}
		rules = append(slices.Clone(rules), apiextensionsv1.ValidationRule{
			Rule:    fmt.Sprintf("type(self) != string || self.matches('%s')", s.Pattern),
			Message: fmt.Sprintf("must match %s", s.Pattern),
		})
	}
	if len(rules) > 0 {
		if i := slices.Index(path, "*"); i >= 0 && i != len(path)-1 {
			return fmt.Errorf("rules at %s: rules below the values of a map are not supported", strings.Join(path, "."))
		}
		*out = append(*out, place{path: slices.Clone(path), rules: rules, schema: s})
	}
	if s.Items != nil && (s.Items.Schema != nil && hasRules(s.Items.Schema)) {
		return fmt.Errorf("rules in the items of %s: not supported", strings.Join(path, "."))
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		prop := s.Properties[n]
		if err := collect(&prop, append(path, n), out); err != nil {
			return err
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		return collect(s.AdditionalProperties.Schema, append(path, "*"), out)
	}
	return nil
}

// extraPlace parses a -rule flag: a rule the CRD cannot carry (its estimated cost is over
// the CRD budget, which a policy does not have) but the policy can.
func extraPlace(root *apiextensionsv1.JSONSchemaProps, flagValue string) (place, error) {
	parts := strings.SplitN(flagValue, "|", 3)
	if len(parts) != 3 {
		return place{}, fmt.Errorf("-rule %q: want PATH|RULE|MESSAGE", flagValue)
	}
	s := root
	path := strings.Split(parts[0], ".")
	for _, name := range path {
		prop, ok := s.Properties[name]
		if !ok {
			return place{}, fmt.Errorf("-rule %q: the schema has no %s", flagValue, parts[0])
		}
		s = &prop
	}
	return place{path: path, schema: s, rules: apiextensionsv1.ValidationRules{{Rule: parts[1], Message: parts[2]}}}, nil
}

func hasRules(s *apiextensionsv1.JSONSchemaProps) bool {
	if len(s.XValidations) > 0 {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(&p) {
			return true
		}
	}
	return s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil && hasRules(s.AdditionalProperties.Schema)
}

// fieldPath renders the place of p, followed by the rule's fieldPath (".requests.cpu"),
// in apimachinery's notation: properties joined by dots, map keys in brackets.
func fieldPath(p place, rel string) string {
	var b strings.Builder
	if n := len(p.path); n > 0 && p.path[n-1] == "*" {
		b.WriteString(strings.Join(p.path[:n-1], ".") + "[*]")
	} else {
		b.WriteString(strings.Join(p.path, "."))
	}
	s := p.schema
	for _, part := range strings.Split(strings.TrimPrefix(rel, "."), ".") {
		if part == "" {
			continue
		}
		if prop, ok := s.Properties[part]; ok {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(part)
			s = &prop
			continue
		}
		// A key of a map.
		fmt.Fprintf(&b, "[%s]", part)
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			s = s.AdditionalProperties.Schema
		}
	}
	return b.String()
}

func scope(s apiextensionsv1.ResourceScope) string {
	if s == apiextensionsv1.ClusterScoped {
		return string(admissionregistrationv1.ClusterScope)
	}
	return string(admissionregistrationv1.NamespacedScope)
}

func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// dropEmpty removes the empty fields that the API types marshal to and a manifest does
// not carry: metadata.creationTimestamp and status.
func dropEmpty(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("  creationTimestamp: null\n"), nil)
	return bytes.ReplaceAll(b, []byte("\nstatus: {}\n"), []byte("\n"))
}
