package integration_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/client/clientset/versioned"
	"github.com/amlarc-go/instancetypes/client/internal/testenv"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
)

// The API servers of the capacity and plugin tests, each started on first use.
var (
	// clusterEnv has the generated CRD, and the nodes, pods and instance types of
	// theCluster once clusterOnce has created them.
	clusterEnv = &testenv.Environment{Setup: func(e *envtest.Environment) error {
		crd, err := generatedCRD()
		e.CRDs = []*apiextensionsv1.CustomResourceDefinition{crd}
		return err
	}}
	// bareEnv has no CRD: a cluster without the Azure ML extension.
	bareEnv = &testenv.Environment{}
)

// A tnode is a node of the test cluster, as the test writes it down.
type tnode struct {
	name   string
	labels map[string]string
	cpu    int64 // millicores
	memory int64 // bytes
	gpus   int64
	pods   int64 // 0: no pods allocatable
	taint  bool  // sku=gpu:NoSchedule
	cordon bool
}

// A tpod is a pod bound to a node (or to none), as the test writes it down: its containers'
// requests, maybe a sidecar (a restartable init container, declared first) and an init
// container, maybe a runtime class with an overhead, and its phase.
type tpod struct {
	name, node string
	containers [][3]int64 // cpu millicores, memory bytes, GPUs (limit = request)
	sidecar    *[2]int64
	init       *[2]int64
	overhead   bool // runtime class "kata": overhead cpu 250m, memory 160Mi
	phase      corev1.PodPhase
}

const (
	overheadCPU    = 250
	overheadMemory = 160 << 20
)

// A ttype is an instance type of the test cluster.
type ttype struct {
	name        string
	cpu, memory string
	gpus        int64
	sel         map[string]string
}

// testCluster is the cluster the tests create: three pools under both pool labels, a
// cordoned node, a tainted pool, a node without a pool label, and pods of every shape.
type testCluster struct {
	nodes []tnode
	pods  []tpod
	types []ttype
}

const gi = int64(1) << 30

// newTestCluster draws the cluster from a fixed seed: the same every run, and varied
// enough that a page boundary falls in the middle of a node's pods.
func newTestCluster() *testCluster {
	rng := rand.New(rand.NewPCG(22, 7))
	c := &testCluster{}
	aks := func(pool string) map[string]string { return map[string]string{capacity.AKSPoolLabel: pool} }
	for i := range 4 {
		c.nodes = append(c.nodes, tnode{name: fmt.Sprintf("aks-cpupool-%d", i), labels: aks("cpupool"), cpu: 7820, memory: 27 * gi, pods: 30, cordon: i == 3})
	}
	for i := range 2 {
		c.nodes = append(c.nodes, tnode{name: fmt.Sprintf("aks-gpupool-%d", i), labels: aks("gpupool"), cpu: 23660, memory: 200 * gi, gpus: 4, pods: 30})
	}
	c.nodes = append(c.nodes,
		tnode{name: "aks-spot-0", labels: aks("spot"), cpu: 7820, memory: 27 * gi, pods: 30, taint: true},
		tnode{name: "edge-0", labels: map[string]string{capacity.PoolLabel: "edge"}, cpu: 3860, memory: 12 * gi, pods: 12},
		tnode{name: "bare-0", labels: map[string]string{}, cpu: 1900, memory: 6 * gi},
	)
	for i := range 70 {
		n := c.nodes[rng.IntN(len(c.nodes))]
		p := tpod{name: fmt.Sprintf("p%02d", i), node: n.name}
		switch rng.IntN(10) {
		case 0:
			p.node = "" // pending, unbound
		case 1:
			p.phase = corev1.PodSucceeded
		case 2:
			p.phase = corev1.PodFailed
		case 3:
			p.phase = corev1.PodPending
		default:
			p.phase = corev1.PodRunning
		}
		for range 1 + rng.IntN(2) {
			ctr := [3]int64{int64(50 * (1 + rng.IntN(20))), int64(64<<20) * int64(1+rng.IntN(40)), 0}
			if n.gpus > 0 && rng.IntN(3) == 0 {
				ctr[2] = 1
			}
			p.containers = append(p.containers, ctr)
		}
		if rng.IntN(4) == 0 {
			p.sidecar = &[2]int64{int64(100 * (1 + rng.IntN(3))), 128 << 20}
		}
		if rng.IntN(4) == 0 {
			p.init = &[2]int64{int64(500 * (1 + rng.IntN(8))), int64(512<<20) * int64(1+rng.IntN(8))}
		}
		p.overhead = rng.IntN(5) == 0
		c.pods = append(c.pods, p)
	}
	c.types = []ttype{
		{name: "cpu-small", cpu: "500m", memory: "1Gi", sel: map[string]string{capacity.AKSPoolLabel: "cpupool"}},
		{name: "gpu", cpu: "2", memory: "8Gi", gpus: 1, sel: map[string]string{capacity.AKSPoolLabel: "gpupool"}},
		{name: "anywhere", cpu: "1", memory: "2Gi"},
		{name: "spot", cpu: "1", memory: "1Gi", sel: map[string]string{capacity.AKSPoolLabel: "spot"}},
		{name: "huge", cpu: "1000", memory: "1Gi"},
	}
	return c
}

// The naive model: the requests of a pod as the scheduler's documentation states them
// (containers summed with the sidecars; an init container runs beside the sidecars
// declared before it; the largest of the two phases; the overhead on top), and pods added
// one at a time on each node an instance type may use.

func (p tpod) requests() (cpu, memory, gpus int64) {
	for _, c := range p.containers {
		cpu, memory, gpus = cpu+c[0], memory+c[1], gpus+c[2]
	}
	var sc, sm int64
	if p.sidecar != nil {
		sc, sm = p.sidecar[0], p.sidecar[1]
	}
	cpu, memory = cpu+sc, memory+sm
	if p.init != nil {
		cpu, memory = max(cpu, sc+p.init[0]), max(memory, sm+p.init[1])
	}
	if p.overhead {
		cpu, memory = cpu+overheadCPU, memory+overheadMemory
	}
	return cpu, memory, gpus
}

// counted reports whether the pod uses its node's resources.
func (p tpod) counted() bool {
	return p.node != "" && p.phase != corev1.PodSucceeded && p.phase != corev1.PodFailed
}

type used struct{ cpu, memory, gpus, pods int64 }

// used sums the requests of the counted pods per node; with pods false, nothing.
func (c *testCluster) used(pods bool) map[string]used {
	u := map[string]used{}
	if !pods {
		return u
	}
	for _, p := range c.pods {
		if p.counted() {
			cpu, mem, gpus := p.requests()
			x := u[p.node]
			u[p.node] = used{x.cpu + cpu, x.memory + mem, x.gpus + gpus, x.pods + 1}
		}
	}
	return u
}

type naiveType struct {
	name              string
	cpu, memory, gpus int64
	sel               map[string]string
}

func (c *testCluster) naiveTypes(withCluster bool) []naiveType {
	out := []naiveType{{name: instancetype.DefaultName, cpu: 100, memory: 2 * gi}}
	if !withCluster {
		return out
	}
	for _, t := range c.types {
		cpu, mem := resource.MustParse(t.cpu), resource.MustParse(t.memory)
		out = append(out, naiveType{t.name, cpu.MilliValue(), mem.Value(), t.gpus, t.sel})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// naive is the capacity of each instance type by adding pods one at a time.
func (c *testCluster) naive(types []naiveType, pods bool) *capacity.Report {
	return c.naiveTolerating(types, pods, false)
}

// naiveTolerating is naive, with the pods tolerating the taint sku=gpu:NoSchedule of the
// spot pool when sku is set.
func (c *testCluster) naiveTolerating(types []naiveType, pods, sku bool) *capacity.Report {
	u := c.used(pods)
	r := &capacity.Report{Capacity: []capacity.TypeCapacity{}, Nodes: len(c.nodes)}
	for _, x := range u {
		r.Pods += int(x.pods)
	}
	order := func(name instancetype.ResourceName) string {
		return map[instancetype.ResourceName]string{"nvidia.com/gpu": "0", "cpu": "1", "memory": "2", "pods": "3"}[name]
	}
	most := func(m map[instancetype.ResourceName]int) instancetype.ResourceName {
		var best instancetype.ResourceName
		n := 0
		for name, k := range m {
			if k > n || k == n && order(name) < order(best) {
				best, n = name, k
			}
		}
		return best
	}
	for _, t := range types {
		tc := capacity.TypeCapacity{InstanceType: t.name, Pools: []capacity.PoolCapacity{}}
		pools := map[string]*capacity.PoolCapacity{}
		lims := map[string]map[instancetype.ResourceName]int{}
		all := map[instancetype.ResourceName]int{}
	nodes:
		for _, n := range c.nodes {
			if n.cordon || n.taint && !sku {
				continue
			}
			for k, v := range t.sel {
				if n.labels[k] != v {
					continue nodes
				}
			}
			x := u[n.name]
			var fits int64
			var lim instancetype.ResourceName
			for {
				var short []instancetype.ResourceName
				if x.cpu+t.cpu > n.cpu {
					short = append(short, "cpu")
				}
				if x.memory+t.memory > n.memory {
					short = append(short, "memory")
				}
				if t.gpus > 0 && x.gpus+t.gpus > n.gpus {
					short = append(short, "nvidia.com/gpu")
				}
				if n.pods > 0 && x.pods+1 > n.pods {
					short = append(short, "pods")
				}
				if len(short) > 0 {
					sort.Slice(short, func(i, j int) bool { return order(short[i]) < order(short[j]) })
					lim = short[0]
					break
				}
				x = used{x.cpu + t.cpu, x.memory + t.memory, x.gpus + t.gpus, x.pods + 1}
				fits++
			}
			pool := n.labels[capacity.AKSPoolLabel]
			if pool == "" {
				pool = n.labels[capacity.PoolLabel]
			}
			p := pools[pool]
			if p == nil {
				p = &capacity.PoolCapacity{Pool: pool}
				pools[pool] = p
				lims[pool] = map[instancetype.ResourceName]int{}
			}
			p.Nodes++
			p.Fits += fits
			tc.Fits += fits
			lims[pool][lim]++
			all[lim]++
		}
		var names []string
		for name := range pools {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			pools[name].LimitedBy = most(lims[name])
			tc.Pools = append(tc.Pools, *pools[name])
		}
		tc.LimitedBy = most(all)
		r.Capacity = append(r.Capacity, tc)
	}
	return r
}

// The objects of the cluster.

func quantityOf(n int64, milli bool) resource.Quantity {
	if milli {
		return *resource.NewMilliQuantity(n, resource.DecimalSI)
	}
	return *resource.NewQuantity(n, resource.BinarySI)
}

func (c *testCluster) create(t *testing.T, cfg *rest.Config) { c.createParallel(t, cfg, 1) }

// createParallel creates the cluster's objects, nodes and pods from the given number of
// goroutines.
func (c *testCluster) createParallel(t testing.TB, cfg *rest.Config, workers int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	parallel(t, workers, len(c.nodes), func(i int) error { return createNode(ctx, cs, c.nodes[i]) })
	rc := &nodev1.RuntimeClass{ObjectMeta: metav1.ObjectMeta{Name: "kata"}, Handler: "kata",
		Overhead: &nodev1.Overhead{PodFixed: corev1.ResourceList{corev1.ResourceCPU: quantityOf(overheadCPU, true), corev1.ResourceMemory: quantityOf(overheadMemory, false)}}}
	if _, err := cs.NodeV1().RuntimeClasses().Create(ctx, rc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	namespaces := []string{"team-a", "team-b", "team-c"}
	for _, ns := range namespaces {
		if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	parallel(t, workers, len(c.pods), func(j int) error { return createPod(ctx, cs, namespaces[j%3], c.pods[j]) })
	amlarc, err := versioned.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range c.types {
		it := &instancetype.InstanceType{}
		it.Name = tt.name
		it.Spec.NodeSelector = tt.sel
		res := instancetype.ResourceList{instancetype.ResourceCPU: instancetype.MustParseAmount(tt.cpu), instancetype.ResourceMemory: instancetype.MustParseAmount(tt.memory)}
		it.Spec.Resources.Requests = res
		lim := instancetype.ResourceList{instancetype.ResourceCPU: instancetype.MustParseAmount(tt.cpu), instancetype.ResourceMemory: instancetype.MustParseAmount(tt.memory)}
		if tt.gpus > 0 {
			lim[instancetype.ResourceNvidiaGPU] = instancetype.MustParseAmount(fmt.Sprint(tt.gpus))
		}
		it.Spec.Resources.Limits = lim
		if _, err := amlarc.AmlarcV1alpha1().InstanceTypes().Create(ctx, it, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// parallel calls f for 0 ≤ i < n from workers goroutines, and fails t with the first error.
func parallel(t testing.TB, workers, n int, f func(int) error) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(i); err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if first != nil {
		t.Fatal(first)
	}
}

// createNode creates the node n, without the not-ready taint the API server gives a new
// node until its kubelet says it is ready (there is no kubelet), with its allocatable set
// through the status subresource.
func createNode(ctx context.Context, cs *kubernetes.Clientset, n tnode) error {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.name, Labels: n.labels}}
	node.Spec.Unschedulable = n.cordon
	created, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	created.Spec.Taints = nil
	if n.taint {
		created.Spec.Taints = []corev1.Taint{{Key: "sku", Value: "gpu", Effect: corev1.TaintEffectNoSchedule}}
	}
	if created, err = cs.CoreV1().Nodes().Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		return err
	}
	alloc := corev1.ResourceList{corev1.ResourceCPU: quantityOf(n.cpu, true), corev1.ResourceMemory: quantityOf(n.memory, false)}
	if n.gpus > 0 {
		alloc["nvidia.com/gpu"] = quantityOf(n.gpus, false)
	}
	if n.pods > 0 {
		alloc[corev1.ResourcePods] = *resource.NewQuantity(n.pods, resource.DecimalSI)
	}
	created.Status.Allocatable, created.Status.Capacity = alloc, alloc
	_, err = cs.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{})
	return err
}

// createPod creates the pod p in namespace ns, its phase set through the status
// subresource.
func createPod(ctx context.Context, cs *kubernetes.Clientset, ns string, p tpod) error {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: ns}}
	pod.Spec.NodeName = p.node
	for i, c := range p.containers {
		req := corev1.ResourceList{corev1.ResourceCPU: quantityOf(c[0], true), corev1.ResourceMemory: quantityOf(c[1], false)}
		ctr := corev1.Container{Name: fmt.Sprintf("c%d", i), Image: "busybox", Resources: corev1.ResourceRequirements{Requests: req}}
		if c[2] > 0 {
			ctr.Resources.Requests["nvidia.com/gpu"] = quantityOf(c[2], false)
			ctr.Resources.Limits = corev1.ResourceList{"nvidia.com/gpu": quantityOf(c[2], false)}
		}
		pod.Spec.Containers = append(pod.Spec.Containers, ctr)
	}
	if p.sidecar != nil {
		always := corev1.ContainerRestartPolicyAlways
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, corev1.Container{Name: "sidecar", Image: "busybox", RestartPolicy: &always,
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: quantityOf(p.sidecar[0], true), corev1.ResourceMemory: quantityOf(p.sidecar[1], false)}}})
	}
	if p.init != nil {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, corev1.Container{Name: "init", Image: "busybox",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: quantityOf(p.init[0], true), corev1.ResourceMemory: quantityOf(p.init[1], false)}}})
	}
	if p.overhead {
		pod.Spec.RuntimeClassName = new("kata")
	}
	created, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	if p.overhead && created.Spec.Overhead.Cpu().MilliValue() != overheadCPU {
		return fmt.Errorf("pod %s: the RuntimeClass admission set no overhead: %v", p.name, created.Spec.Overhead)
	}
	if p.phase != "" {
		created.Status.Phase = p.phase
		_, err = cs.CoreV1().Pods(ns).UpdateStatus(ctx, created, metav1.UpdateOptions{})
	}
	return err
}

var (
	clusterOnce sync.Once
	theCluster  *testCluster
	clusterErr  bool
)

// startCluster returns the admin config of clusterEnv, with the test cluster created.
func startCluster(t *testing.T) (*rest.Config, *testCluster) {
	t.Helper()
	cfg := clusterEnv.Start(t)
	clusterOnce.Do(func() {
		clusterErr = true
		c := newTestCluster()
		c.create(t, cfg)
		theCluster, clusterErr = c, false
	})
	if clusterErr {
		t.Fatal("creating the test cluster failed (see the first test that tried)")
	}
	return cfg, theCluster
}

// countingConfig is cfg with a transport that counts the list requests of each resource
// and those that carry a continue token.
func countingConfig(cfg *rest.Config, lists, continued map[string]*atomic.Int64) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripper(func(req *http.Request) (*http.Response, error) {
			for res, n := range lists {
				if strings.HasSuffix(req.URL.Path, "/"+res) {
					n.Add(1)
					if req.URL.Query().Get("continue") != "" {
						continued[res].Add(1)
					}
				}
			}
			return rt.RoundTrip(req)
		})
	}
	return cfg
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The library against the real API server: read page by page (7 objects a page, so the
// pods take 9 pages and the nodes 2), the counts of the naive model on every instance type
// and pool.
func TestCapacityAgainstNaiveModel(t *testing.T) {
	cfg, c := startCluster(t)
	resources := []string{"instancetypes", "nodes", "pods"}
	lists, continued := map[string]*atomic.Int64{}, map[string]*atomic.Int64{}
	for _, r := range resources {
		lists[r], continued[r] = new(atomic.Int64), new(atomic.Int64)
	}
	r, err := capacity.NewReader(countingConfig(cfg, lists, continued))
	if err != nil {
		t.Fatal(err)
	}
	r.PageSize = 7
	cl, err := r.Read(stepContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(cl.Unread) > 0 || cl.NoCRD {
		t.Fatalf("unread %v, no CRD %v", cl.Unread, cl.NoCRD)
	}
	got := cl.Compute(capacity.Options{})
	want := c.naive(c.naiveTypes(true), true)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Compute:\n%s\nnaive model:\n%s", show(got), show(want))
	}
	counted := 0
	for _, p := range c.pods {
		if p.counted() {
			counted++
		}
	}
	if cl.Pods != counted || got.Pods != counted {
		t.Errorf("pods counted: read %d, report %d; want %d", cl.Pods, got.Pods, counted)
	}
	// Pages: every list went past its first page when it had more than 7 objects.
	for res, n := range map[string]int{"instancetypes": len(c.types), "nodes": len(c.nodes), "pods": counted} {
		pages := (n + 6) / 7
		if int(lists[res].Load()) < pages || int(continued[res].Load()) < pages-1 {
			t.Errorf("%s: %d objects, %d list requests of which %d continued; want at least %d pages", res, n, lists[res].Load(), continued[res].Load(), pages)
		}
	}
	if continued["pods"].Load() == 0 {
		t.Errorf("pods were not paginated")
	}
	// The figures are worth checking: some types fit, on several pools, limited by
	// several resources.
	var limits []string
	for _, tc := range got.Capacity {
		limits = append(limits, string(tc.LimitedBy))
	}
	if fits := got.Capacity[slices.IndexFunc(got.Capacity, func(tc capacity.TypeCapacity) bool { return tc.InstanceType == "anywhere" })]; len(fits.Pools) < 3 || fits.Fits == 0 {
		t.Errorf("anywhere: %+v; want pods fitting on three pools or more", fits)
	}
	t.Logf("limited by %v", limits)

	// Tolerations (Options.Tolerations, the plugin's --tolerate): the spot pool's taint
	// tolerated, its node counts; tolerated for another value or effect, it does not.
	for tol, tolerated := range map[string]bool{"sku=gpu:NoSchedule": true, "sku": true, "*": true, "sku=cpu": false, "sku=gpu:NoExecute": false, "other": false} {
		ft, err := cluster.ParseToleration(tol)
		if err != nil {
			t.Fatal(err)
		}
		got, want := cl.Compute(capacity.Options{Tolerations: []cluster.Toleration{ft}}), c.naiveTolerating(c.naiveTypes(true), true, tolerated)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("tolerating %s:\n%s\nnaive model:\n%s", tol, show(got), show(want))
		}
		if spot := spotPools(got); spot != tolerated {
			t.Errorf("tolerating %s: the spot pool counted %v; want %v", tol, spot, tolerated)
		}
	}
}

// A page of one object: every list is read one object a request, continue token after
// continue token, and the answer is the same, the naive model's.
func TestCapacityPageSizeOne(t *testing.T) {
	cfg, c := startCluster(t)
	r, err := capacity.NewReader(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.PageSize = 1
	cl, err := r.Read(stepContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cl.Compute(capacity.Options{}), c.naive(c.naiveTypes(true), true); !reflect.DeepEqual(got, want) {
		t.Fatalf("page size 1:\n%s\nnaive model:\n%s", show(got), show(want))
	}
}

// spotPools reports whether the instance type spot, whose selector picks the pool of one
// node tainted sku=gpu:NoSchedule, has that pool in r: whether the taint was tolerated.
func spotPools(r *capacity.Report) bool {
	i := slices.IndexFunc(r.Capacity, func(tc capacity.TypeCapacity) bool { return tc.InstanceType == "spot" })
	return i >= 0 && len(r.Capacity[i].Pools) == 1 && r.Capacity[i].Pools[0].Nodes == 1
}

func show(r *capacity.Report) string {
	var b strings.Builder
	for _, c := range r.Capacity {
		fmt.Fprintf(&b, "  %s: %d %s\n", c.InstanceType, c.Fits, c.LimitedBy)
		for _, p := range c.Pools {
			fmt.Fprintf(&b, "    %q: %d nodes, %d %s\n", p.Pool, p.Nodes, p.Fits, p.LimitedBy)
		}
	}
	fmt.Fprintf(&b, "  nodes %d, pods %d, skipped %v", r.Nodes, r.Pods, r.Skipped)
	return b.String()
}

// limitedUser adds a user to env bound to a ClusterRole that may list only the given
// resources (group "" or amlarc's), and returns its config and kubeconfig file.
func limitedUser(t *testing.T, env *testenv.Environment, admin *rest.Config, user string, resources ...string) (*rest.Config, string) {
	t.Helper()
	ctx := stepContext(t)
	cs := clientset(t, admin)
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: user}}
	for _, res := range resources {
		group := ""
		if res == "instancetypes" {
			group = instancetype.GroupName
		}
		role.Rules = append(role.Rules, rbacv1.PolicyRule{APIGroups: []string{group}, Resources: []string{res}, Verbs: []string{"list", "get"}})
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: user},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: user},
		Subjects: []rbacv1.Subject{{Kind: "User", APIGroup: "rbac.authorization.k8s.io", Name: user}}}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	u, err := env.Env().AddUser(envtest.User{Name: user}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := u.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	file := t.TempDir() + "/kubeconfig"
	if err := os.WriteFile(file, kc, 0o600); err != nil {
		t.Fatal(err)
	}
	return u.Config(), file
}

// RBAC: what a user may not list is recorded with the verb and the resource, and the rest
// answered.
func TestCapacityRBAC(t *testing.T) {
	admin, c := startCluster(t)
	read := func(cfg *rest.Config) *capacity.Cluster {
		r, err := capacity.NewReader(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := r.Read(stepContext(t))
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	unread := func(cl *capacity.Cluster) []string {
		var out []string
		for _, le := range cl.Unread {
			out = append(out, le.Verb+" "+le.Resource)
			if !strings.Contains(le.Error(), "cannot list resource") {
				t.Errorf("%v: the server's reason is lost", le)
			}
		}
		return out
	}

	noPods, _ := limitedUser(t, clusterEnv, admin, "lib-no-pods", "nodes", "instancetypes")
	cl := read(noPods)
	if got := unread(cl); !slices.Equal(got, []string{"list pods"}) {
		t.Errorf("no pods: unread %v", got)
	}
	if got, want := cl.Compute(capacity.Options{}), c.naive(c.naiveTypes(true), false); !reflect.DeepEqual(got, want) {
		t.Errorf("no pods:\n%s\nnaive model of empty nodes:\n%s", show(got), show(want))
	}

	noNodes, _ := limitedUser(t, clusterEnv, admin, "lib-no-nodes", "pods", "instancetypes")
	cl = read(noNodes)
	if got := unread(cl); !slices.Equal(got, []string{"list nodes"}) || len(cl.Nodes) != 0 || cl.Pods != 0 || len(cl.InstanceTypes) != len(c.types) {
		t.Errorf("no nodes: unread %v, %d nodes, %d pods, %d types", got, len(cl.Nodes), cl.Pods, len(cl.InstanceTypes))
	}

	noTypes, _ := limitedUser(t, clusterEnv, admin, "lib-no-types", "pods", "nodes")
	cl = read(noTypes)
	if got := unread(cl); !slices.Equal(got, []string{"list instancetypes"}) {
		t.Errorf("no instance types: unread %v", got)
	}
	if got, want := cl.Compute(capacity.Options{}), c.naive(c.naiveTypes(false), true); !reflect.DeepEqual(got, want) {
		t.Errorf("no instance types:\n%s\nnaive model of the default alone:\n%s", show(got), show(want))
	}
}

// Without the CRD: the built-in default alone, and NoCRD says why.
func TestCapacityWithoutCRD(t *testing.T) {
	cfg := bareEnv.Start(t)
	cs := clientset(t, cfg)
	ctx := stepContext(t)
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n0"}}
	created, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Spec.Taints = nil // the not-ready taint of a new node
	if created, err = cs.CoreV1().Nodes().Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	created.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("5Gi")}
	if _, err := cs.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := capacity.NewReader(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := r.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := cl.Compute(capacity.Options{})
	if !cl.NoCRD || len(cl.Unread) != 0 || len(got.Capacity) != 1 || got.Capacity[0].InstanceType != instancetype.DefaultName || got.Capacity[0].Fits != 2 {
		t.Fatalf("no CRD: NoCRD %v, unread %v, report %s", cl.NoCRD, cl.Unread, show(got))
	}
}
