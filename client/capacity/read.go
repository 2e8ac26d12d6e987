package capacity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// DefaultPageSize is the limit of each list call when Reader.PageSize is 0.
const DefaultPageSize = 500

// ErrNoCRD is returned by Reader.ReadInstanceTypes when the cluster has no InstanceType
// resource: the CustomResourceDefinition instancetypes.amlarc.azureml.com is not
// installed (the Azure ML extension installs it). The catalog is then the built-in
// default alone.
var ErrNoCRD = errors.New("the InstanceType resource (CRD instancetypes.amlarc.azureml.com) is not installed in this cluster")

// ListError is a list the API server refused to the user: RBAC does not grant the verb on
// the resource. Err is the server's error (apierrors.IsForbidden), which names the user.
type ListError struct {
	// Verb and Resource are what is missing: "list" of "pods". Group is the resource's API
	// group, "" for the core group.
	Verb, Resource, Group string
	Err                   error
}

// Error says what is not allowed, then the server's reason: "not allowed to list pods:
// pods is forbidden: User "alice" cannot list resource "pods" ...".
func (e *ListError) Error() string {
	res := e.Resource
	if e.Group != "" {
		res += "." + e.Group
	}
	return fmt.Sprintf("not allowed to %s %s: %v", e.Verb, res, e.Err)
}

// Unwrap returns the server's error.
func (e *ListError) Unwrap() error { return e.Err }

// Reader lists from a cluster what Compute needs: InstanceTypes, Nodes and the Pods bound
// to them, page by page (limit and continue), keeping of each node only its name, labels,
// allocatable, taints, cordon and the sum of its pods' requests, and nothing of the pods,
// so that its memory is that of the nodes and one page, whatever the number of pods.
//
// What one list brings is bounded whatever the API server sends: a continue token that
// an earlier page of the list gave is an *AnswerError (ErrRepeatedContinue), as are an
// answer cut off (ErrTruncated) and one that does not decode (ErrMalformed); more objects
// than MaxObjects, or answers of more bytes than MaxBytes, or one of more than
// MaxPageBytes, a *LimitError.
type Reader struct {
	// Core lists nodes, pods and instance types (the latter as JSON, through its
	// core v1 REST client). With protobuf as its content type (NewReader sets it),
	// lists of nodes and pods cost less to send and decode.
	Core kubernetes.Interface
	// PageSize is the limit of each list call; 0 means DefaultPageSize.
	PageSize int64
	// MaxObjects is the most objects one list may hold; 0 means DefaultMaxObjects. A
	// page that says more follow counts as PageSize objects, however few it holds, so
	// that a list takes at most MaxObjects/PageSize+1 requests (and as many again for
	// each time it starts over when its continue token expires, at most three times).
	MaxObjects int64
	// MaxBytes is the most bytes the answers to one list may come to, all its pages
	// together, as read (after any decompression); 0 means DefaultMaxBytes. MaxPageBytes
	// is the most bytes of one answer; 0 means DefaultMaxPageBytes. An answer that
	// announces more is not read; one that comes in more is cut there, before client-go
	// decodes it. Both hold only over the transport of NewReader, which counts the bytes;
	// with another Core, MaxObjects and the continue tokens are still checked.
	MaxBytes, MaxPageBytes int64
}

// NewReader returns a Reader over the cluster of cfg: nodes and pods read as protobuf,
// instance types as JSON (custom resources have no protobuf form).
func NewReader(cfg *rest.Config) (*Reader, error) {
	core := rest.CopyConfig(cfg)
	core.ContentType = runtime.ContentTypeProtobuf
	core.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	core.Wrap(func(rt http.RoundTripper) http.RoundTripper { return boundedTransport{rt} })
	kube, err := kubernetes.NewForConfig(core)
	if err != nil {
		return nil, err
	}
	return &Reader{Core: kube}, nil
}

// Cluster is what Reader.Read found.
type Cluster struct {
	// InstanceTypes are the cluster's InstanceType objects, in the order listed (by name).
	InstanceTypes []InstanceType
	// Nodes are the cluster's nodes, with the requests of their pods.
	Nodes []Node
	// Pods is the number of pods counted: bound to one of Nodes, not terminated.
	Pods int
	// NoCRD reports that the InstanceType resource is not installed (ErrNoCRD).
	NoCRD bool
	// Unread are the lists the user may not make (RBAC), each a *ListError: the rest is
	// read. Without nodes, no pods are listed (they are of no use) and no instance type
	// fits; without pods, nothing counts as used.
	Unread []*ListError
}

// InstanceType is one InstanceType object of the cluster.
type InstanceType struct {
	// Name is its metadata.name.
	Name string
	// JSON is the object as the API server sent it, indented, metadata.managedFields left
	// out: what a linter reads.
	JSON []byte
	// Object is the object decoded, nil when it does not decode (a value of the wrong
	// type, under a CRD that does not check it); Err says why.
	Object *instancetype.InstanceType
	Err    error
}

// Compute is Compute of the cluster's instance types and nodes. Instance types that did
// not decode are in Report.Skipped.
func (c *Cluster) Compute(opts Options) *Report {
	var types []*instancetype.InstanceType
	var skipped []Skip
	for _, it := range c.InstanceTypes {
		if it.Object == nil {
			skipped = append(skipped, Skip{InstanceType: it.Name, Reason: "cannot decode: " + it.Err.Error()})
			continue
		}
		types = append(types, it.Object)
	}
	r := Compute(types, c.Nodes, opts)
	if len(skipped) > 0 {
		r.Skipped = append(skipped, r.Skipped...)
		slices.SortStableFunc(r.Skipped, func(a, b Skip) int { return strings.Compare(a.InstanceType, b.InstanceType) })
	}
	return r
}

// Read lists the instance types, the nodes and, when nodes could be listed, the pods. A
// list that RBAC forbids is recorded in Cluster.Unread and the rest read; the CRD missing
// sets Cluster.NoCRD. Any other error (the server unreachable, a timeout, a bad answer
// (*AnswerError), a bound of the Reader passed (*LimitError)) is returned.
func (r *Reader) Read(ctx context.Context) (*Cluster, error) {
	c := &Cluster{}
	var err error
	var le *ListError
	if c.InstanceTypes, err = r.ReadInstanceTypes(ctx); errors.Is(err, ErrNoCRD) {
		c.NoCRD = true
	} else if errors.As(err, &le) {
		c.Unread = append(c.Unread, le)
	} else if err != nil {
		return nil, err
	}
	if c.Nodes, err = r.ReadNodes(ctx); errors.As(err, &le) {
		c.Unread = append(c.Unread, le)
		return c, nil
	} else if err != nil {
		return nil, err
	}
	if c.Pods, err = r.ReadPods(ctx, c.Nodes); errors.As(err, &le) {
		c.Unread = append(c.Unread, le)
	} else if err != nil {
		return nil, err
	}
	return c, nil
}

func (r *Reader) pageSize() int64 {
	if r.PageSize > 0 {
		return r.PageSize
	}
	return DefaultPageSize
}

// maxRestarts is how many times a paginated list starts again when its continue token
// expires (the list took longer than etcd keeps the revision it started from).
const maxRestarts = 3

// bound is v, or def when v is not positive.
func bound(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}

// paginate calls page with list options until the server has no more, starting again
// (after reset) when the continue token expires, so that what is read is one snapshot.
// page returns the continue token of its answer and the number of objects in it; it must
// make its request with the context it is given, which carries the list's budget of
// bytes. paginate stops the list at a repeated continue token, or once a bound of the
// Reader is passed; an answer that came but does not decode is an *AnswerError.
func (r *Reader) paginate(ctx context.Context, resource, group string, opts metav1.ListOptions, reset func(), page func(context.Context, metav1.ListOptions) (string, int, error)) error {
	opts.Limit = r.pageSize()
	maxObjects := bound(r.MaxObjects, DefaultMaxObjects)
	budget := &listBudget{maxBytes: bound(r.MaxBytes, DefaultMaxBytes), maxPageBytes: bound(r.MaxPageBytes, DefaultMaxPageBytes)}
	ctx = context.WithValue(ctx, budgetKey{}, budget)
	tokens := map[string]int{} // continue token → the answer that gave it
	var objects int64
	for restarts, answer := 0, 1; ; answer++ {
		budget.start()
		next, n, err := page(ctx, opts)
		if berr := budget.outcome(ctx, resource, group, answer); berr != nil {
			return berr // what was read is not what the server sent: err is of no use
		}
		if err != nil {
			if opts.Continue != "" && apierrors.IsResourceExpired(err) && restarts < maxRestarts {
				restarts++
				opts.Continue = ""
				reset()
				clear(tokens)
				objects = 0
				continue
			}
			var status apierrors.APIStatus
			if budget.answered && !errors.As(err, &status) && ctx.Err() == nil {
				// The server answered, with a body read whole, which does not decode.
				return &AnswerError{Resource: resource, Group: group, Page: answer, Err: fmt.Errorf("%w: %v", ErrMalformed, err)}
			}
			return err
		}
		if next != "" && int64(n) < opts.Limit {
			n = int(opts.Limit) // a page that says more follow counts as full
		}
		if objects += int64(n); objects > maxObjects {
			return &LimitError{Resource: resource, Group: group, Bound: BoundObjects, Limit: maxObjects, Page: answer}
		}
		if next == "" {
			return nil
		}
		if first, ok := tokens[next]; ok {
			return repeatedContinue(resource, group, next, first, answer)
		}
		tokens[next] = answer
		opts.Continue = next
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// listError turns a Forbidden error of listing resource into a *ListError.
func listError(err error, resource, group string) error {
	if apierrors.IsForbidden(err) {
		return &ListError{Verb: "list", Resource: resource, Group: group, Err: err}
	}
	return err
}

// ReadInstanceTypes lists the cluster's instance types: ErrNoCRD when the resource is not
// installed, a *ListError when RBAC forbids listing them.
func (r *Reader) ReadInstanceTypes(ctx context.Context) ([]InstanceType, error) {
	var out []InstanceType
	// The raw list, through the core v1 client (whose scheme decodes the server's errors):
	// the objects as the server sent them, for a linter.
	rc := r.Core.CoreV1().RESTClient()
	err := r.paginate(ctx, "instancetypes", instancetype.GroupName, metav1.ListOptions{}, func() { out = out[:0] }, func(ctx context.Context, opts metav1.ListOptions) (string, int, error) {
		req := rc.Get().AbsPath("/apis", instancetype.GroupName, instancetype.Version, "instancetypes").
			Param("limit", strconv.FormatInt(opts.Limit, 10))
		if opts.Continue != "" {
			req = req.Param("continue", opts.Continue)
		}
		res := req.Do(ctx)
		if err := res.Error(); err != nil { // Error, not Raw's error, has the server's Status
			return "", 0, err
		}
		raw, err := res.Raw()
		if err != nil {
			return "", 0, err
		}
		var list struct {
			Metadata metav1.ListMeta  `json:"metadata"`
			Items    []map[string]any `json:"items"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber() // numbers written back as the server sent them
		if err := dec.Decode(&list); err != nil {
			return "", 0, fmt.Errorf("decoding the list of instance types: %w", err)
		}
		for _, item := range list.Items {
			out = append(out, instanceTypeOf(item))
		}
		return list.Metadata.Continue, len(list.Items), nil
	})
	if apierrors.IsNotFound(err) {
		return nil, ErrNoCRD
	}
	if err != nil {
		return nil, listError(err, "instancetypes", instancetype.GroupName)
	}
	return out, nil
}

// instanceTypeOf is one item of a list of instance types.
func instanceTypeOf(item map[string]any) InstanceType {
	var it InstanceType
	if meta, ok := item["metadata"].(map[string]any); ok {
		it.Name, _ = meta["name"].(string)
		delete(meta, "managedFields")
	}
	var err error
	if it.JSON, err = json.MarshalIndent(item, "", "  "); err != nil {
		it.Err = err
		return it
	}
	obj := new(instancetype.InstanceType)
	if err := json.Unmarshal(it.JSON, obj); err != nil {
		it.Err = err
		return it
	}
	it.Object = obj
	return it
}

// ReadNodes lists the cluster's nodes, keeping what Compute needs of each (NodeOf): a
// *ListError when RBAC forbids listing them. An allocatable amount beyond what package
// quantity holds is left out of Node.Allocatable, and counted as the scheduler counts it
// (Node.AllocatableUnits).
func (r *Reader) ReadNodes(ctx context.Context) ([]Node, error) {
	var out []Node
	err := r.paginate(ctx, "nodes", "", metav1.ListOptions{}, func() { out = out[:0] }, func(ctx context.Context, opts metav1.ListOptions) (string, int, error) {
		list, err := r.Core.CoreV1().Nodes().List(ctx, opts)
		if err != nil {
			return "", 0, err
		}
		for i := range list.Items {
			out = append(out, NodeOf(&list.Items[i]))
		}
		return list.Continue, len(list.Items), nil
	})
	if err != nil {
		return nil, listError(err, "nodes", "")
	}
	return out, nil
}

// NodeOf returns what Compute needs of a v1 Node, with no pods: its name, labels
// (shared with n), allocatable (in Allocatable, amounts that package quantity cannot hold
// left out; in AllocatableUnits, every amount as the scheduler counts it, by
// apimachinery's MilliValue and Value of n's quantities), taints and cordon.
func NodeOf(n *corev1.Node) Node {
	x := Node{Node: cluster.Node{Name: n.Name, Labels: n.Labels, Unschedulable: n.Spec.Unschedulable}}
	if len(n.Status.Allocatable) > 0 {
		x.Allocatable = make(map[instancetype.ResourceName]quantity.Quantity, len(n.Status.Allocatable))
		x.AllocatableUnits = make(map[instancetype.ResourceName]int64, len(n.Status.Allocatable))
		for name, q := range n.Status.Allocatable {
			x.AllocatableUnits[instancetype.ResourceName(name)] = schedulerUnits(name, q)
			if v, err := quantity.FromResource(q); err == nil {
				x.Allocatable[instancetype.ResourceName(name)] = v
			}
		}
	}
	for _, t := range n.Spec.Taints {
		x.Taints = append(x.Taints, cluster.Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
	}
	return x
}

// boundAndRunning is the field selector of the pods that use a node's resources: bound to
// one, not terminated.
const boundAndRunning = "spec.nodeName!=,status.phase!=" + string(corev1.PodSucceeded) + ",status.phase!=" + string(corev1.PodFailed)

// ReadPods lists the pods bound to a node and not terminated, in every namespace, and adds
// the requests of each to its node among nodes (Node.Requested, Node.Pods), as AddPod
// does. Pods bound to a node not among nodes are not counted. It returns the number of
// pods counted, and a *ListError when RBAC forbids listing pods (in every namespace);
// nodes are then left as they were.
func (r *Reader) ReadPods(ctx context.Context, nodes []Node) (int, error) {
	byName := make(map[string]int, len(nodes))
	for i := range nodes {
		byName[nodes[i].Name] = i // the last of a name, as Compute uses it
	}
	type saved struct {
		req  map[instancetype.ResourceName]int64
		pods int
	}
	before := make([]saved, len(nodes))
	for i := range nodes {
		before[i] = saved{nodes[i].Requested, nodes[i].Pods}
	}
	counted := 0
	start := func() { // from the nodes as given, again when the list starts over
		for i := range nodes {
			nodes[i].Requested, nodes[i].Pods = clone(before[i].req), before[i].pods
		}
		counted = 0
	}
	start()
	err := r.paginate(ctx, "pods", "", metav1.ListOptions{FieldSelector: boundAndRunning}, start, func(ctx context.Context, opts metav1.ListOptions) (string, int, error) {
		list, err := r.Core.CoreV1().Pods(metav1.NamespaceAll).List(ctx, opts)
		if err != nil {
			return "", 0, err
		}
		for i := range list.Items {
			p := &list.Items[i]
			if j, ok := byName[p.Spec.NodeName]; ok && AddPod(&nodes[j], p) {
				counted++
			}
		}
		return list.Continue, len(list.Items), nil
	})
	if err != nil {
		for i := range nodes {
			nodes[i].Requested, nodes[i].Pods = before[i].req, before[i].pods
		}
		return 0, listError(err, "pods", "")
	}
	return counted, nil
}

// clone returns a copy of m, never nil.
func clone(m map[instancetype.ResourceName]int64) map[instancetype.ResourceName]int64 {
	out := make(map[instancetype.ResourceName]int64, len(m)+3)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// PodRequestOptions are the options of the scheduler of Kubernetes 1.37, by its default
// feature gates, for the requests of a pod (k8s.io/component-helpers/resource.PodRequests):
// the resources allocated to a resized pod (InPlacePodVerticalScaling, GA), pod-level
// resources (PodLevelResources, beta) and their resizes (beta), pod overhead.
var PodRequestOptions = resourcehelper.PodResourcesOptions{
	UseStatusResources: true,
	InPlacePodLevelResourcesVerticalScalingEnabled: true,
}

// AddPod adds the requests of pod p to node x, as the scheduler counts them
// (PodRequestOptions: containers summed, init containers as their maximum, sidecar init
// containers added, pod overhead, pod-level resources), and reports whether it counted
// it: a pod whose phase is Succeeded or Failed is not counted. Only the resources the
// node allocates are kept (Node.Requested), and the pod counts against its pods.
func AddPod(x *Node, p *corev1.Pod) bool {
	if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		return false
	}
	if x.Requested == nil {
		x.Requested = map[instancetype.ResourceName]int64{}
	}
	for name, q := range resourcehelper.PodRequests(p, PodRequestOptions) {
		rn := instancetype.ResourceName(name)
		if !allocates(x, rn) {
			continue
		}
		x.Requested[rn] = addSat(x.Requested[rn], schedulerUnits(name, q))
	}
	x.Pods++
	return true
}

// allocates reports whether node x allocates the resource: in AllocatableUnits when it
// is set (Compute counts with it then), else in Allocatable.
func allocates(x *Node, name instancetype.ResourceName) bool {
	if x.AllocatableUnits != nil {
		_, ok := x.AllocatableUnits[name]
		return ok
	}
	_, ok := x.Allocatable[name]
	return ok
}

// schedulerUnits is q as the scheduler counts it (framework.Resource.Add): MilliValue for
// cpu, Value otherwise, apimachinery's own methods, overflow included.
func schedulerUnits(name corev1.ResourceName, q resource.Quantity) int64 {
	if name == corev1.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}
