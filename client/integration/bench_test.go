package integration_test

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/client/internal/testenv"
)

// benchEnv has the CRD and, once benchCluster has run, a larger cluster for
// BenchmarkReadThroughAPIServer.
var benchEnv = &testenv.Environment{Setup: func(e *envtest.Environment) error {
	crd, err := generatedCRD()
	e.CRDs = []*apiextensionsv1.CustomResourceDefinition{crd}
	return err
}}

// benchSize is the cluster of the benchmark: 500 nodes in pools of 50, 5,000 pods.
const benchNodes, benchPods = 500, 5000

// BenchmarkReadThroughAPIServer reads 500 nodes, 5,000 pods and the instance types from a
// real kube-apiserver (pages of 500, nodes and pods as protobuf) and computes the capacity:
// the time of one Read and one Compute, and the peak heap of live objects sampled during
// the read.
func BenchmarkReadThroughAPIServer(b *testing.B) {
	cfg := benchEnv.Start(b)
	c := &testCluster{}
	for i := range benchNodes {
		c.nodes = append(c.nodes, tnode{name: fmt.Sprintf("aks-pool%02d-%04d", i/50, i), labels: map[string]string{capacity.AKSPoolLabel: fmt.Sprintf("pool%02d", i/50)},
			cpu: 15740, memory: 56 * gi, pods: 110, cordon: i%97 == 0})
	}
	for i := range benchPods {
		p := tpod{name: fmt.Sprintf("p%05d", i), node: c.nodes[i%benchNodes].name, phase: "Running",
			containers: [][3]int64{{int64(50 * (1 + i%7)), int64(64<<20) * int64(1+i%9), 0}}}
		if i%5 == 0 {
			p.sidecar = &[2]int64{100, 128 << 20}
		}
		c.pods = append(c.pods, p)
	}
	for i := range 20 {
		c.types = append(c.types, ttype{name: fmt.Sprintf("type-%02d", i), cpu: fmt.Sprintf("%dm", 250*(1+i%8)), memory: fmt.Sprintf("%dGi", 1+i%16),
			sel: map[string]string{capacity.AKSPoolLabel: fmt.Sprintf("pool%02d", i%10)}})
	}
	start := time.Now()
	c.createParallel(b, cfg, 8)
	b.Logf("created %d nodes and %d pods in %v", benchNodes, benchPods, time.Since(start).Round(time.Millisecond))

	r, err := capacity.NewReader(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var peak uint64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		runtime.GC()
		base := liveHeap()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var top uint64
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				top = max(top, liveHeap())
				select {
				case <-stop:
					return
				case <-time.After(200 * time.Microsecond):
				}
			}
		}()
		cl, err := r.Read(b.Context())
		close(stop)
		wg.Wait()
		if err != nil {
			b.Fatal(err)
		}
		if cl.Pods != benchPods || len(cl.Nodes) != benchNodes {
			b.Fatalf("read %d pods, %d nodes", cl.Pods, len(cl.Nodes))
		}
		if rep := cl.Compute(capacity.Options{}); len(rep.Capacity) != 21 {
			b.Fatalf("%d instance types", len(rep.Capacity))
		}
		peak = max(peak, top-min(base, top))
	}
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
