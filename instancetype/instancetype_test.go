package instancetype_test

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/instancetype"
)

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	require.NoError(t, instancetype.AddToScheme(s))
	return s
}

func TestSchemeRecognisesKinds(t *testing.T) {
	s := newScheme(t)
	for _, obj := range []runtime.Object{&instancetype.InstanceType{}, &instancetype.InstanceTypeList{}} {
		gvks, _, err := s.ObjectKinds(obj)
		require.NoError(t, err)
		require.Len(t, gvks, 1)
		assert.Equal(t, instancetype.SchemeGroupVersion, gvks[0].GroupVersion())
	}
	assert.Equal(t, "amlarc.azureml.com/v1alpha1", instancetype.SchemeGroupVersion.String())
	assert.Equal(t, instancetype.SchemeGroupVersion.String(), instancetype.APIVersion)
	assert.Equal(t, "instancetypes.amlarc.azureml.com", instancetype.Resource("instancetypes").String())
}

// TestUniversalDeserializer decodes the seed's manifests the way a controller would.
func TestUniversalDeserializer(t *testing.T) {
	dec := serializer.NewCodecFactory(newScheme(t)).UniversalDeserializer()

	data, err := os.ReadFile("../examples/my_instance_type.yaml")
	require.NoError(t, err)
	obj, gvk, err := dec.Decode(data, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, instancetype.Kind, gvk.Kind)
	it := obj.(*instancetype.InstanceType)
	assert.Equal(t, "myinstancetypename", it.Name)
	assert.Equal(t, map[string]string{"mylabel": "mylabelvalue"}, it.Spec.NodeSelector)
	want := map[instancetype.ResourceName]string{"cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "1"}
	assertAmounts(t, want, it.Spec.Resources.Limits)
	assertAmounts(t, map[instancetype.ResourceName]string{"cpu": "700m", "memory": "1500Mi"}, it.Spec.Resources.Requests)
	gpu, err := it.Spec.Resources.Limits[instancetype.ResourceNvidiaGPU].Quantity()
	require.NoError(t, err)
	assert.EqualValues(t, 1, gpu.Value())

	data, err = os.ReadFile("../examples/my_instance_type_list.yaml")
	require.NoError(t, err)
	obj, _, err = dec.Decode(data, nil, nil)
	require.NoError(t, err)
	list := obj.(*instancetype.InstanceTypeList)
	require.Len(t, list.Items, 2)
	assert.Equal(t, "cpusmall", list.Items[0].Name)
	assert.Equal(t, instancetype.DefaultName, list.Items[1].Name)
	assertAmounts(t, map[instancetype.ResourceName]string{"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "0"}, list.Items[1].Spec.Resources.Limits)
}

func assertAmounts(t *testing.T, want map[instancetype.ResourceName]string, got instancetype.ResourceList) {
	t.Helper()
	require.Len(t, got, len(want))
	for name, text := range want {
		a, ok := got[name]
		require.True(t, ok, "missing %s", name)
		assert.True(t, a.IsValid(), "%s=%q should be valid", name, a)
		assert.Equal(t, text, a.String(), name)
	}
}

// TestRoundTrip: YAML → types → JSON → types is lossless, including the states of Amounts.
func TestRoundTrip(t *testing.T) {
	for _, file := range []string{"../examples/my_instance_type.yaml", "../examples/my_instance_type_list.yaml"} {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		var first instancetype.InstanceTypeList
		var single instancetype.InstanceType
		if file == "../examples/my_instance_type.yaml" {
			require.NoError(t, yaml.UnmarshalStrict(data, &single))
			first.Items = []instancetype.InstanceType{single}
		} else {
			require.NoError(t, yaml.UnmarshalStrict(data, &first))
		}
		b, err := json.Marshal(&first)
		require.NoError(t, err)
		var second instancetype.InstanceTypeList
		require.NoError(t, json.Unmarshal(b, &second))
		assert.True(t, reflect.DeepEqual(first, second), "%s: round trip changed\n%#v\n%#v", file, first, second)
		b2, err := json.Marshal(&second)
		require.NoError(t, err)
		assert.JSONEq(t, string(b), string(b2))
	}
}

func TestDeepCopySharesNothing(t *testing.T) {
	orig := instancetype.Default()
	orig.Labels = map[string]string{"a": "b"}
	orig.Spec.NodeSelector = map[string]string{"pool": "ml"}
	orig.Spec.Resources.Limits[instancetype.ResourceNvidiaGPU] = instancetype.MustParseAmount("1")
	list := &instancetype.InstanceTypeList{Items: []instancetype.InstanceType{*orig}}

	cp := orig.DeepCopy()
	require.Equal(t, orig, cp)
	cp.Labels["a"] = "changed"
	cp.Spec.NodeSelector["pool"] = "changed"
	cp.Spec.Resources.Limits[instancetype.ResourceCPU] = instancetype.MustParseAmount("64")
	cp.Spec.Resources.Requests[instancetype.ResourceMemory] = instancetype.MustParseAmount("1Ti")
	assert.Equal(t, "b", orig.Labels["a"])
	assert.Equal(t, "ml", orig.Spec.NodeSelector["pool"])
	assert.Equal(t, "2", orig.Spec.Resources.Limits[instancetype.ResourceCPU].String())
	assert.Equal(t, "2Gi", orig.Spec.Resources.Requests[instancetype.ResourceMemory].String())

	lcp := list.DeepCopyObject().(*instancetype.InstanceTypeList)
	lcp.Items[0].Name = "other"
	lcp.Items[0].Spec.NodeSelector["pool"] = "other"
	assert.Equal(t, instancetype.DefaultName, list.Items[0].Name)
	assert.Equal(t, "ml", list.Items[0].Spec.NodeSelector["pool"])

	var nilIT *instancetype.InstanceType
	assert.Nil(t, nilIT.DeepCopy())
}

func TestDefaultIsFreshEachCall(t *testing.T) {
	a, b := instancetype.Default(), instancetype.Default()
	require.Equal(t, a, b)
	a.Name = "x"
	a.Spec.Resources.Requests[instancetype.ResourceCPU] = instancetype.MustParseAmount("64")
	a.Spec.Resources.Limits = nil
	c := instancetype.Default()
	assert.Equal(t, instancetype.DefaultName, c.Name)
	assert.Equal(t, "100m", c.Spec.Resources.Requests[instancetype.ResourceCPU].String())
	assert.Equal(t, "2", c.Spec.Resources.Limits[instancetype.ResourceCPU].String())
	assert.Equal(t, b, c)

	// The values of the source document.
	r := c.Spec.Resources
	for name, milli := range map[instancetype.ResourceName][2]int64{
		instancetype.ResourceCPU:    {100, 2000},
		instancetype.ResourceMemory: {2 << 30 * 1000, 2 << 30 * 1000},
	} {
		req, err := r.Requests[name].Quantity()
		require.NoError(t, err)
		lim, err := r.Limits[name].Quantity()
		require.NoError(t, err)
		assert.Equal(t, milli[0], req.MilliValue(), "request %s", name)
		assert.Equal(t, milli[1], lim.MilliValue(), "limit %s", name)
	}
	_, hasGPU := r.Limits[instancetype.ResourceNvidiaGPU]
	assert.False(t, hasGPU)
	assert.Empty(t, c.Spec.NodeSelector)
}

func TestTypeMetaOfDefault(t *testing.T) {
	assert.Equal(t, metav1.TypeMeta{APIVersion: instancetype.APIVersion, Kind: instancetype.Kind}, instancetype.Default().TypeMeta)
}
