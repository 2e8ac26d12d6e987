package integration_test

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/amlarc-go/instancetypes/client/applyconfiguration/amlarc/v1alpha1"
	"github.com/amlarc-go/instancetypes/client/clientset/versioned"
	"github.com/amlarc-go/instancetypes/client/informers/externalversions"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/workload"
)

// resolveLimits resolves a deployment naming instance type name against the store and
// returns its instance type, whether it is the built-in one, and its cpu limit ("" when
// it does not resolve). It is the one place these tests call Store.Resolve.
func resolveLimits(s *resolve.Store, name string) string {
	p, errs := s.Resolve(&workload.Workload{Kind: workload.OnlineDeployment, Name: "probe", InstanceType: name}, nil, resolve.Options{})
	if len(errs) > 0 {
		return "unresolved"
	}
	return fmt.Sprintf("%s builtin=%v cpu=%s", p.InstanceType, p.BuiltIn, p.Limit(instancetype.ResourceCPU).String())
}

// TestInformersKeepStoreInStep: a typed informer (the generated one) and a dynamic
// informer each feed a resolve.Store; after every create, update and delete through the
// typed clientset (server-side apply included), both stores resolve as the cluster says.
func TestInformersKeepStoreInStep(t *testing.T) {
	cfg := crdEnv.Start(t)
	cs, err := versioned.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()

	typed, dynamicStore := resolve.NewStore(), resolve.NewStore()
	factory := externalversions.NewSharedInformerFactory(cs, 0)
	typedReg, err := factory.Amlarc().V1alpha1().InstanceTypes().Informer().AddEventHandler(typed)
	if err != nil {
		t.Fatal(err)
	}
	dynFactory := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0)
	dynReg, err := dynFactory.ForResource(gvr).Informer().AddEventHandler(dynamicStore)
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	dynFactory.Start(ctx.Done())
	t.Cleanup(factory.Shutdown)
	t.Cleanup(dynFactory.Shutdown)
	// Each store has been handed its informer's initial list.
	if !cache.WaitForCacheSync(ctx.Done(), typedReg.HasSynced, dynReg.HasSynced) {
		t.Fatal("the informers did not sync")
	}

	// expect waits until both stores resolve name as want.
	expect := func(step, name, want string) {
		t.Helper()
		eventually(t, 10*time.Second, func() error {
			for store, which := range map[*resolve.Store]string{typed: "typed", dynamicStore: "dynamic"} {
				if got := resolveLimits(store, name); got != want {
					return fmt.Errorf("%s: the %s informer's store resolves %s to %q; want %q", step, which, name, got, want)
				}
			}
			return nil
		})
	}

	api := cs.AmlarcV1alpha1().InstanceTypes()
	res := func(cpu string) instancetype.ResourceRequirements {
		return instancetype.ResourceRequirements{
			Requests: instancetype.ResourceList{"cpu": instancetype.MustParseAmount("100m"), "memory": instancetype.MustParseAmount("1Gi")},
			Limits:   instancetype.ResourceList{"cpu": instancetype.MustParseAmount(cpu), "memory": instancetype.MustParseAmount("2Gi")},
		}
	}

	expect("before anything", "informer-small", "unresolved")
	expect("before anything", instancetype.DefaultName, "defaultinstancetype builtin=true cpu=2")

	small := &instancetype.InstanceType{ObjectMeta: metav1.ObjectMeta{Name: "informer-small"}, Spec: instancetype.InstanceTypeSpec{Resources: res("1")}}
	created, err := api.Create(ctx, small, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expect("create", "informer-small", "informer-small builtin=false cpu=1")

	created.Spec.Resources = res("1500m")
	if _, err := api.Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	expect("update", "informer-small", "informer-small builtin=false cpu=1500m")

	// Server-side apply through the generated apply configurations.
	apply := v1alpha1.InstanceType("informer-applied").WithSpec(v1alpha1.InstanceTypeSpec().
		WithResources(v1alpha1.ResourceRequirements().
			WithRequests(res("3").Requests).
			WithLimits(res("3").Limits)))
	applied, err := api.Apply(ctx, apply, metav1.ApplyOptions{FieldManager: "integration-test"})
	if err != nil {
		t.Fatal(err)
	}
	expect("apply", "informer-applied", "informer-applied builtin=false cpu=3")
	extracted, err := v1alpha1.ExtractInstanceType(applied, "integration-test")
	if err != nil {
		t.Fatalf("ExtractInstanceType: %v", err)
	}
	if l := extracted.Spec.Resources.Limits; l == nil || (*l)[instancetype.ResourceCPU].String() != "3" {
		t.Errorf("ExtractInstanceType: limits %v; want cpu 3, as applied", l)
	}

	// Override the built-in default, then delete the override to restore it.
	custom := &instancetype.InstanceType{ObjectMeta: metav1.ObjectMeta{Name: instancetype.DefaultName}, Spec: instancetype.InstanceTypeSpec{Resources: res("4")}}
	if _, err := api.Create(ctx, custom, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	expect("override the default", instancetype.DefaultName, "defaultinstancetype builtin=false cpu=4")
	if err := api.Delete(ctx, instancetype.DefaultName, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	expect("delete the override", instancetype.DefaultName, "defaultinstancetype builtin=true cpu=2")

	if err := api.Delete(ctx, "informer-small", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	expect("delete", "informer-small", "unresolved")
	expect("delete of another", "informer-applied", "informer-applied builtin=false cpu=3")

	if typed.Dropped() != 0 || dynamicStore.Dropped() != 0 {
		t.Errorf("dropped events: typed %d, dynamic %d; want none", typed.Dropped(), dynamicStore.Dropped())
	}
}
