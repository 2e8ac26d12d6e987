package plan

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/selector"
)

// SizedForAnnotation is the annotation of a suggested instance type that says what it was
// sized for: the pool, the share of a node, and the overhead counted.
const SizedForAnnotation = "instancetypes.amlarc-go.github.io/sized-for"

// MinShare is the least share of what it is sized for that a suggested instance type
// requests, in tenths: 9 is 90%.
const MinShare = 9

// Suggestions are the instance types Suggest proposes, and the pools it proposes none for.
type Suggestions struct {
	// List holds the suggested instance types: per pool by name, a CPU pool's whole, half
	// and quarter node, a GPU pool's one per k GPUs.
	List *instancetype.InstanceTypeList
	// Claims says, for each item of List (same order), how many of its pods fit on each
	// node of its pool.
	Claims []Claim
	// Skipped are the pools, or sizes, with no suggestion, and why.
	Skipped []PoolSkip
}

// Claim is the packing a suggested instance type is sized for.
type Claim struct {
	InstanceType string
	Pool         string
	// PerNode is how many of its pods fit on the pool's smallest node, with the overhead
	// counted: Plan's PerNode for it.
	PerNode int64
}

// PoolSkip is a pool, or one size in a pool, that Suggest proposes nothing for.
type PoolSkip struct {
	Pool   string
	Reason string
}

// Suggest proposes a right-sized catalog for the nodes' pools. For each pool with a name,
// the nodes an instance type with nodeSelector {pool label: pool} (merged with
// Options.NodeSelector) may use are taken, and what is usable on them: per resource, the
// least that any of them has once the per-node overhead is taken (for a pool of one node
// size, what its nodes have). A pool whose nodes have a GPU resource (nvidia.com/gpu, or
// another whose name ends in /gpu) is a GPU pool, with G the GPUs of each node; a pool
// whose nodes have different numbers of GPUs is skipped (no one size can use every GPU of
// each of its nodes).
//
//   - a CPU pool gets a whole, a half and a quarter node: 1, 2 and 4 pods per node;
//   - a GPU pool gets one instance type per k GPUs, for each k = 1, 2, 4, … below G that
//     divides G, and k = G: G/k pods per node, so that no GPU is left over.
//
// Each pod of a share of n per node gets the nth part of the usable cpu and memory, less
// the per-pod overhead, as its requests and its limits, rounded down to 10m and to 1Mi
// while that keeps at least MinShare tenths of the nth part. A size where the overhead or
// the pods a node allows leave less than that is skipped, with why. Names are the pool's
// name made a DNS label (lowercase, with a hash of the pool's name when that changed it)
// and the size: cpupool-whole, cpupool-half, cpupool-quarter, gpupool-1gpu. Each carries
// SizedForAnnotation.
func (p *Planner) Suggest() Suggestions {
	s := Suggestions{List: &instancetype.InstanceTypeList{
		TypeMeta: metav1.TypeMeta{APIVersion: instancetype.SchemeGroupVersion.String(), Kind: "InstanceTypeList"},
		Items:    []instancetype.InstanceType{},
	}}
	var cands []int
	for k, pool := range p.pools {
		if pool == "" {
			continue
		}
		key := p.poolKey[k]
		sel, err := selector.Merge(p.opts.NodeSelector, map[string]string{key: pool})
		if err != nil {
			s.Skipped = append(s.Skipped, PoolSkip{pool, err.Error()})
			continue
		}
		cands = p.ix.AppendCandidates(cands[:0], fit.Demand{NodeSelector: sel, Tolerations: p.tols})
		if len(cands) == 0 {
			s.Skipped = append(s.Skipped, PoolSkip{pool, "no schedulable node of the pool admits Azure ML's workload pods (a taint they do not tolerate? see --tolerate)"})
			continue
		}
		p.suggestPool(&s, pool, key, cands)
	}
	return s
}

// suggestPool adds the suggestions of one pool, whose candidate nodes are cands.
func (p *Planner) suggestPool(s *Suggestions, pool, key string, cands []int) {
	usable := make([]int64, p.ncols)
	copy(usable, p.free[cands[0]*p.ncols:])
	pods := p.pods[cands[0]]
	smallest := cands[0]
	for _, i := range cands[1:] {
		row := p.free[i*p.ncols : (i+1)*p.ncols]
		for c := range usable {
			usable[c] = min(usable[c], row[c])
		}
		if p.pods[i] >= 0 && (pods < 0 || p.pods[i] < pods) {
			pods = p.pods[i]
		}
		if row[0] < p.free[smallest*p.ncols] || row[0] == p.free[smallest*p.ncols] && row[1] < p.free[smallest*p.ncols+1] {
			smallest = i
		}
	}
	gpu, gpus := instancetype.ResourceName(""), int64(0)
	for c, name := range p.colNames {
		if !strings.HasSuffix(string(name), "/gpu") {
			continue
		}
		most := int64(0)
		for _, i := range cands {
			most = max(most, p.free[i*p.ncols+c])
		}
		if most != usable[c] { // one size cannot use every GPU of each node
			s.Skipped = append(s.Skipped, PoolSkip{pool, fmt.Sprintf("its nodes have from %d to %d %s usable: give nodes of each size a pool of their own", usable[c], most, name)})
			return
		}
		if usable[c] > 0 && (gpu == "" || name < gpu) {
			gpu, gpus = name, usable[c]
		}
	}
	type size struct {
		word string
		n, k int64 // pods per node, GPUs per pod
	}
	var sizes []size
	if gpu == "" {
		sizes = []size{{"whole", 1, 0}, {"half", 2, 0}, {"quarter", 4, 0}}
	} else {
		for k := int64(1); k < gpus; k *= 2 {
			if gpus%k == 0 {
				sizes = append(sizes, size{strconv.FormatInt(k, 10) + "gpu", gpus / k, k})
			}
		}
		sizes = append(sizes, size{strconv.FormatInt(gpus, 10) + "gpu", 1, gpus})
	}
	base := dnsName(pool)
	cpuCol, memCol := p.cols[instancetype.ResourceCPU], p.cols[instancetype.ResourceMemory]
	for _, z := range sizes {
		name := base + "-" + z.word
		if pods >= 0 && pods < z.n {
			s.Skipped = append(s.Skipped, PoolSkip{pool, fmt.Sprintf("%s: a node allows %d more pods, not %d", name, pods, z.n)})
			continue
		}
		cpu, okCPU := sized(usable[cpuCol], z.n, p.perPod[instancetype.ResourceCPU], 10)
		mem, okMem := sized(usable[memCol], z.n, p.perPod[instancetype.ResourceMemory], 1<<20)
		if !okCPU || !okMem {
			s.Skipped = append(s.Skipped, PoolSkip{pool, fmt.Sprintf("%s: with the per-pod overhead, a pod would request less than %d0%% of its share of the node", name, MinShare)})
			continue
		}
		bad := ""
		for other, n := range p.perPod { // overhead of other resources must fit too
			if other == instancetype.ResourceCPU || other == instancetype.ResourceMemory {
				continue
			}
			var have int64
			if c, ok := p.cols[other]; ok {
				have = usable[c]
			}
			if other == gpu {
				have -= z.n * z.k
			}
			if other != ResourcePods && n*z.n > have {
				bad = string(other)
			}
		}
		if bad != "" {
			s.Skipped = append(s.Skipped, PoolSkip{pool, fmt.Sprintf("%s: the per-pod overhead of %s does not fit %d pods", name, bad, z.n)})
			continue
		}
		cpuQ := fromUnits(instancetype.ResourceCPU, cpu, quantity.DecimalSI)
		memQ := fromUnits(instancetype.ResourceMemory, mem, quantity.BinarySI)
		it := instancetype.InstanceType{
			TypeMeta: metav1.TypeMeta{APIVersion: instancetype.SchemeGroupVersion.String(), Kind: "InstanceType"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{
				SizedForAnnotation: p.sizedFor(pool, z.word, z.n, gpu, z.k, usable, smallest),
			}},
			Spec: instancetype.InstanceTypeSpec{
				NodeSelector: map[string]string{key: pool},
				Resources: instancetype.ResourceRequirements{
					Requests: instancetype.ResourceList{instancetype.ResourceCPU: instancetype.AmountOf(cpuQ), instancetype.ResourceMemory: instancetype.AmountOf(memQ)},
					Limits:   instancetype.ResourceList{instancetype.ResourceCPU: instancetype.AmountOf(cpuQ), instancetype.ResourceMemory: instancetype.AmountOf(memQ)},
				},
			},
		}
		if gpu != "" {
			it.Spec.Resources.Limits[gpu] = instancetype.AmountOf(fromUnits(gpu, z.k, quantity.DecimalSI))
		}
		s.List.Items = append(s.List.Items, it)
		s.Claims = append(s.Claims, Claim{InstanceType: name, Pool: pool, PerNode: z.n})
	}
}

// sized returns the request of one of n pods sharing usable, each with the per-pod
// overhead over: usable/n less over, rounded down to a multiple of step while that keeps
// at least MinShare tenths of usable/n; false when even unrounded it would not.
func sized(usable, n, over, step int64) (int64, bool) {
	r := usable/n - over
	enough := func(x int64) bool { return x > 0 && x*10 >= MinShare*(usable/n) }
	if !enough(r) {
		return 0, false
	}
	if down := r - r%step; enough(down) {
		return down, true
	}
	return r, true
}

// sizedFor is the text of SizedForAnnotation.
func (p *Planner) sizedFor(pool, word string, n int64, gpu instancetype.ResourceName, k int64, usable []int64, smallest int) string {
	share := map[string]string{"whole": "a whole node", "half": "half a node", "quarter": "a quarter of a node"}[word]
	if gpu != "" {
		share = fmt.Sprintf("%d %s of a node", k, gpu)
	}
	var parts []string
	for c, name := range p.colNames {
		if c < 2 || name == gpu {
			parts = append(parts, fromUnits(name, usable[c], p.formats[smallest*p.ncols+c]).String()+" "+string(name))
		}
	}
	return fmt.Sprintf("%s of pool %s, %d per node, on %s usable per node after the overhead (per node %s; per pod %s)",
		share, pool, n, strings.Join(parts, ", "), p.opts.Overhead.PerNode, p.opts.Overhead.PerPod)
}

// dnsName makes a pool's name the start of an object name: lowercase letters, digits
// and '-', starting and ending with a letter or digit, at most 40 bytes. When that changes
// it, a hash of the pool's name is added, so that two pools never share a name.
func dnsName(pool string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(pool) {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-")
	if len(name) > 40 {
		name = strings.Trim(name[:40], "-")
	}
	if name == pool && len(validation.IsDNS1123Label(name)) == 0 {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(pool))
	if name == "" {
		name = "pool"
	}
	return name + "-" + strconv.FormatUint(uint64(h.Sum32()), 16)
}

// Suggest proposes a right-sized catalog for the pools of the nodes: New(nodes,
// opts).Suggest().
func Suggest(nodes []cluster.Node, opts Options) Suggestions { return New(nodes, opts).Suggest() }
