package instancetype_test

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/instancetype"
)

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	noErr(t, instancetype.AddToScheme(s))
	return s
}

func TestSchemeRecognisesKinds(t *testing.T) {
	s := newScheme(t)
	for _, obj := range []runtime.Object{&instancetype.InstanceType{}, &instancetype.InstanceTypeList{}} {
		gvks, _, err := s.ObjectKinds(obj)
		noErr(t, err)
		mustLen(t, len(gvks), 1)
		eq(t, instancetype.SchemeGroupVersion, gvks[0].GroupVersion())
	}
	eq(t, "amlarc.azureml.com/v1alpha1", instancetype.SchemeGroupVersion.String())
	eq(t, instancetype.SchemeGroupVersion.String(), instancetype.APIVersion)
	eq(t, "instancetypes.amlarc.azureml.com", instancetype.Resource("instancetypes").String())
}

// TestUniversalDeserializer decodes the seed's manifests the way a controller would.
func TestUniversalDeserializer(t *testing.T) {
	dec := serializer.NewCodecFactory(newScheme(t)).UniversalDeserializer()

	data, err := os.ReadFile("../examples/manifests/my_instance_type.yaml")
	noErr(t, err)
	obj, gvk, err := dec.Decode(data, nil, nil)
	noErr(t, err)
	eq(t, instancetype.Kind, gvk.Kind)
	it := obj.(*instancetype.InstanceType)
	eq(t, "myinstancetypename", it.Name)
	eq(t, map[string]string{"mylabel": "mylabelvalue"}, it.Spec.NodeSelector)
	want := map[instancetype.ResourceName]string{"cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "1"}
	assertAmounts(t, want, it.Spec.Resources.Limits)
	assertAmounts(t, map[instancetype.ResourceName]string{"cpu": "700m", "memory": "1500Mi"}, it.Spec.Resources.Requests)
	gpu, err := it.Spec.Resources.Limits[instancetype.ResourceNvidiaGPU].Quantity()
	noErr(t, err)
	eqValues(t, 1, gpu.Value())

	data, err = os.ReadFile("../examples/manifests/my_instance_type_list.yaml")
	noErr(t, err)
	obj, _, err = dec.Decode(data, nil, nil)
	noErr(t, err)
	list := obj.(*instancetype.InstanceTypeList)
	mustLen(t, len(list.Items), 2)
	eq(t, "cpusmall", list.Items[0].Name)
	eq(t, instancetype.DefaultName, list.Items[1].Name)
	assertAmounts(t, map[instancetype.ResourceName]string{"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "0"}, list.Items[1].Spec.Resources.Limits)
}

func assertAmounts(t *testing.T, want map[instancetype.ResourceName]string, got instancetype.ResourceList) {
	t.Helper()
	mustLen(t, len(got), len(want))
	for name, text := range want {
		a, ok := got[name]
		mustTrue(t, ok, "missing %s", name)
		isTrue(t, a.IsValid(), "%s=%q should be valid", name, a)
		eq(t, text, a.String(), name)
	}
}

// TestRoundTrip: YAML → types → JSON → types is lossless, including the states of Amounts.
func TestRoundTrip(t *testing.T) {
	for _, file := range []string{"../examples/manifests/my_instance_type.yaml", "../examples/manifests/my_instance_type_list.yaml"} {
		data, err := os.ReadFile(file)
		noErr(t, err)
		var first instancetype.InstanceTypeList
		var single instancetype.InstanceType
		if file == "../examples/manifests/my_instance_type.yaml" {
			noErr(t, yaml.UnmarshalStrict(data, &single))
			first.Items = []instancetype.InstanceType{single}
		} else {
			noErr(t, yaml.UnmarshalStrict(data, &first))
		}
		b, err := json.Marshal(&first)
		noErr(t, err)
		var second instancetype.InstanceTypeList
		noErr(t, json.Unmarshal(b, &second))
		isTrue(t, reflect.DeepEqual(first, second), "%s: round trip changed\n%#v\n%#v", file, first, second)
		b2, err := json.Marshal(&second)
		noErr(t, err)
		jsonEq(t, string(b), string(b2))
	}
}

func TestDeepCopySharesNothing(t *testing.T) {
	orig := instancetype.Default()
	orig.Labels = map[string]string{"a": "b"}
	orig.Spec.NodeSelector = map[string]string{"pool": "ml"}
	orig.Spec.Resources.Limits[instancetype.ResourceNvidiaGPU] = instancetype.MustParseAmount("1")
	list := &instancetype.InstanceTypeList{Items: []instancetype.InstanceType{*orig}}

	cp := orig.DeepCopy()
	mustEq(t, orig, cp)
	cp.Labels["a"] = "changed"
	cp.Spec.NodeSelector["pool"] = "changed"
	cp.Spec.Resources.Limits[instancetype.ResourceCPU] = instancetype.MustParseAmount("64")
	cp.Spec.Resources.Requests[instancetype.ResourceMemory] = instancetype.MustParseAmount("1Ti")
	eq(t, "b", orig.Labels["a"])
	eq(t, "ml", orig.Spec.NodeSelector["pool"])
	eq(t, "2", orig.Spec.Resources.Limits[instancetype.ResourceCPU].String())
	eq(t, "2Gi", orig.Spec.Resources.Requests[instancetype.ResourceMemory].String())

	lcp := list.DeepCopyObject().(*instancetype.InstanceTypeList)
	lcp.Items[0].Name = "other"
	lcp.Items[0].Spec.NodeSelector["pool"] = "other"
	eq(t, instancetype.DefaultName, list.Items[0].Name)
	eq(t, "ml", list.Items[0].Spec.NodeSelector["pool"])

	var nilIT *instancetype.InstanceType
	isTrue(t, nilIT.DeepCopy() == nil, "nilIT.DeepCopy() == nil")
}

func TestDefaultIsFreshEachCall(t *testing.T) {
	a, b := instancetype.Default(), instancetype.Default()
	mustEq(t, a, b)
	a.Name = "x"
	a.Spec.Resources.Requests[instancetype.ResourceCPU] = instancetype.MustParseAmount("64")
	a.Spec.Resources.Limits = nil
	c := instancetype.Default()
	eq(t, instancetype.DefaultName, c.Name)
	eq(t, "100m", c.Spec.Resources.Requests[instancetype.ResourceCPU].String())
	eq(t, "2", c.Spec.Resources.Limits[instancetype.ResourceCPU].String())
	eq(t, b, c)

	// The values of the source document.
	r := c.Spec.Resources
	for name, milli := range map[instancetype.ResourceName][2]int64{
		instancetype.ResourceCPU:    {100, 2000},
		instancetype.ResourceMemory: {2 << 30 * 1000, 2 << 30 * 1000},
	} {
		req, err := r.Requests[name].Quantity()
		noErr(t, err)
		lim, err := r.Limits[name].Quantity()
		noErr(t, err)
		eq(t, milli[0], req.MilliValue(), "request %s", name)
		eq(t, milli[1], lim.MilliValue(), "limit %s", name)
	}
	_, hasGPU := r.Limits[instancetype.ResourceNvidiaGPU]
	isTrue(t, !(hasGPU), "!(hasGPU)")
	isTrue(t, len(c.Spec.NodeSelector) == 0, "len(c.Spec.NodeSelector) == 0")
}

func TestTypeMetaOfDefault(t *testing.T) {
	eq(t, metav1.TypeMeta{APIVersion: instancetype.APIVersion, Kind: instancetype.Kind}, instancetype.Default().TypeMeta)
}

// The assertions of these tests, with the standard library.

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func eq(t *testing.T, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Errorf("got %#v; want %#v %v", got, want, msg)
	}
}

func mustEq(t *testing.T, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("got %#v; want %#v %v", got, want, msg)
	}
}

func eqValues(t *testing.T, want, got int64) {
	t.Helper()
	if want != got {
		t.Errorf("got %d; want %d", got, want)
	}
}

func mustLen(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Fatalf("length %d; want %d", got, want)
	}
}

func mustTrue(t *testing.T, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Fatalf(format, args...)
	}
}

func isTrue(t *testing.T, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Errorf(format, args...)
	}
}

func jsonEq(t *testing.T, want, got string) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal([]byte(want), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(got), &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("JSON %s; want %s", got, want)
	}
}
