package capacity_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/instancetype"
)

// A synthetic cluster for the benchmarks: nodes in pools of 500 (CPU pools of three sizes,
// GPU pools), pods spread over them with one or two containers, some with a sidecar, and
// instance types with and without pool selectors. Everything is derived from indexes, so
// that a page of pods is made on demand and never kept.
type synth struct {
	nodes, pods, types int
}

func (s synth) pool(i int) string { return fmt.Sprintf("pool%02d", i/500) }

func (s synth) node(i int) *corev1.Node {
	pool := i / 500
	cpu, mem, gpus := []string{"7820m", "15740m", "31580m"}[pool%3], []string{"27Gi", "56Gi", "112Gi"}[pool%3], int64(0)
	if pool%4 == 3 {
		cpu, mem, gpus = "23660m", "200Gi", 4
	}
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("aks-%s-%05d", s.pool(i), i), Labels: map[string]string{
		capacity.AKSPoolLabel:              s.pool(i),
		"kubernetes.io/hostname":           fmt.Sprintf("aks-%s-%05d", s.pool(i), i),
		"kubernetes.io/os":                 "linux",
		"kubernetes.io/arch":               "amd64",
		"node.kubernetes.io/instance-type": "Standard_D8s_v5",
		"topology.kubernetes.io/zone":      fmt.Sprintf("eastus-%d", 1+i%3),
		"topology.kubernetes.io/region":    "eastus",
	}}}
	n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem), corev1.ResourcePods: resource.MustParse("110")}
	if gpus > 0 {
		n.Status.Allocatable["nvidia.com/gpu"] = *resource.NewQuantity(gpus, resource.DecimalSI)
		n.Spec.Taints = nil
	}
	if i%97 == 0 {
		n.Spec.Unschedulable = true
	}
	return n
}

func (s synth) pod(i int) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%06d", i), Namespace: fmt.Sprintf("team-%02d", i%50),
		Labels: map[string]string{"app": fmt.Sprintf("app-%d", i%300)}}}
	p.Spec.NodeName = fmt.Sprintf("aks-%s-%05d", s.pool(i%s.nodes), i%s.nodes)
	for c := range 1 + i%2 {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: fmt.Sprintf("c%d", c), Image: "mcr.microsoft.com/azureml/app:1",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU:    *resource.NewMilliQuantity(int64(50*(1+i%7)), resource.DecimalSI),
				corev1.ResourceMemory: *resource.NewQuantity(int64(64<<20)*int64(1+i%9), resource.BinarySI),
			}}})
	}
	if i%5 == 0 {
		always := corev1.ContainerRestartPolicyAlways
		p.Spec.InitContainers = []corev1.Container{{Name: "proxy", Image: "proxy:1", RestartPolicy: &always,
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}}}}
	}
	p.Status.Phase = corev1.PodRunning
	return p
}

func (s synth) instanceType(i int) map[string]any {
	it := map[string]any{"apiVersion": instancetype.APIVersion, "kind": instancetype.Kind,
		"metadata": map[string]any{"name": fmt.Sprintf("type-%02d", i)},
		"spec": map[string]any{"resources": map[string]any{
			"requests": map[string]any{"cpu": fmt.Sprintf("%dm", 250*(1+i%8)), "memory": fmt.Sprintf("%dGi", 1+i%16)},
			"limits":   map[string]any{"cpu": fmt.Sprintf("%dm", 250*(1+i%8)), "memory": fmt.Sprintf("%dGi", 1+i%16)},
		}}}
	if i%3 != 0 {
		it["spec"].(map[string]any)["nodeSelector"] = map[string]any{capacity.AKSPoolLabel: fmt.Sprintf("pool%02d", i%(s.nodes/500))}
	}
	return it
}

// server serves the synthetic cluster as an API server would its lists: nodes and pods
// in protobuf, instance types in JSON, page by page (limit, continue).
func (s synth) server(b *testing.B) *httptest.Server {
	pb := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	enc := scheme.Codecs.EncoderForVersion(pb, corev1.SchemeGroupVersion)
	page := func(r *http.Request, total int) (int, int, string) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		from, _ := strconv.Atoi(r.URL.Query().Get("continue"))
		to := min(from+limit, total)
		next := ""
		if to < total {
			next = strconv.Itoa(to)
		}
		return from, to, next
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/nodes":
			from, to, next := page(r, s.nodes)
			list := &corev1.NodeList{ListMeta: metav1.ListMeta{Continue: next}}
			for i := from; i < to; i++ {
				list.Items = append(list.Items, *s.node(i))
			}
			w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf")
			if err := enc.Encode(list, w); err != nil {
				b.Error(err)
			}
		case "/api/v1/pods":
			from, to, next := page(r, s.pods)
			list := &corev1.PodList{ListMeta: metav1.ListMeta{Continue: next}}
			for i := from; i < to; i++ {
				list.Items = append(list.Items, *s.pod(i))
			}
			w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf")
			if err := enc.Encode(list, w); err != nil {
				b.Error(err)
			}
		case "/apis/amlarc.azureml.com/v1alpha1/instancetypes":
			items := make([]map[string]any, s.types)
			for i := range items {
				items[i] = s.instanceType(i)
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"apiVersion": instancetype.APIVersion, "kind": "InstanceTypeList", "metadata": map[string]any{}, "items": items})
		default:
			http.NotFound(w, r)
		}
	}))
}

// peakHeap samples the heap's live objects until stop is closed, and returns the largest.
func peakHeap(stop <-chan struct{}) func() uint64 {
	var peak atomic.Uint64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	return func() uint64 { wg.Wait(); return peak.Load() }
}

func heapObjects() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

var big = synth{nodes: 5000, pods: 150_000, types: 50}

var (
	bigOnce    sync.Once
	bigCluster *capacity.Cluster
)

// readBig reads the big synthetic cluster once, for BenchmarkCompute.
func readBig(b *testing.B) *capacity.Cluster {
	bigOnce.Do(func() {
		srv := big.server(b)
		defer srv.Close()
		r, err := capacity.NewReader(&rest.Config{Host: srv.URL, QPS: -1})
		if err != nil {
			b.Fatal(err)
		}
		if bigCluster, err = r.Read(b.Context()); err != nil {
			b.Fatal(err)
		}
	})
	return bigCluster
}

// BenchmarkRead reads 5,000 nodes and 150,000 pods (pages of 500, protobuf, over HTTP from
// an in-process stub of the API server) and 50 instance types: peak-heap-MB is the largest
// heap of live objects sampled during a read (the stub's pages included), retained-MB what
// the Cluster read keeps.
func BenchmarkRead(b *testing.B) {
	srv := big.server(b)
	defer srv.Close()
	r, err := capacity.NewReader(&rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	base := heapObjects()
	var peak, retained uint64
	b.ReportAllocs()
	for b.Loop() {
		stop := make(chan struct{})
		done := peakHeap(stop)
		c, err := r.Read(b.Context())
		close(stop)
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, done()-min(base, done()))
		if c.Pods != big.pods || len(c.Nodes) != big.nodes {
			b.Fatalf("read %d pods on %d nodes", c.Pods, len(c.Nodes))
		}
		retained = heapObjects() - min(base, heapObjects())
		runtime.KeepAlive(c)
	}
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(retained)/1e6, "retained-MB")
}

// BenchmarkCompute computes the capacity of 50 instance types and the built-in default on
// 5,000 nodes holding 150,000 pods.
func BenchmarkCompute(b *testing.B) {
	c := readBig(b)
	opts := capacity.Options{}
	base := heapObjects()
	var r *capacity.Report
	b.ReportAllocs()
	for b.Loop() {
		r = c.Compute(opts)
	}
	if len(r.Capacity) != big.types+1 {
		b.Fatalf("%d instance types", len(r.Capacity))
	}
	b.ReportMetric(float64(heapObjects()-min(base, heapObjects()))/1e6, "retained-MB")
}
