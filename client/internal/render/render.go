// Package render builds the kustomizations of config/ for the tests of this module, with
// kustomize's own library (sigs.k8s.io/kustomize/api, the code behind kubectl apply -k),
// so that the tests check what a cluster admin would apply.
package render

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// Kustomization builds the kustomization in dir, as kubectl kustomize dir does, and
// returns its objects in the order kustomize emits them.
func Kustomization(dir string) ([]*unstructured.Unstructured, error) {
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resMap, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	var out []*unstructured.Unstructured
	for _, r := range resMap.Resources() {
		b, err := r.AsYAML()
		if err != nil {
			return nil, err
		}
		var u unstructured.Unstructured
		if err := yaml.Unmarshal(b, &u.Object); err != nil {
			return nil, fmt.Errorf("kustomize build %s: %s: %w", dir, r.CurId(), err)
		}
		out = append(out, &u)
	}
	return out, nil
}

// Find returns the object of the given kind and name among objs, or nil.
func Find(objs []*unstructured.Unstructured, kind, name string) *unstructured.Unstructured {
	for _, o := range objs {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	return nil
}

// Into converts o into the typed object out (a pointer), strictly: a field the type does
// not have is an error, so that a typo in a manifest fails the tests.
func Into(o *unstructured.Unstructured, out any) error {
	b, err := yaml.Marshal(o.Object)
	if err != nil {
		return err
	}
	if err := yaml.UnmarshalStrict(b, out); err != nil {
		return fmt.Errorf("%s %s: %w", o.GetKind(), o.GetName(), err)
	}
	return nil
}
