// Controller-store shows a controller's view of instance types: a resolve.Store kept up to
// date by informer events while worker goroutines resolve workloads against it.
//
// The store is filled from the informer's initial list (the instance types of the source
// document's manifests) before the workers start, as a controller waits for its cache to
// sync. Then, while several workers resolve the source document's job and deployments
// (plus a job naming cpusmall and a deployment naming no instance type) over and over,
// the informer delivers an update that raises cpusmall's limits and the deletion of the
// custom defaultinstancetype, as a tombstone, so that the built-in one comes back. Each
// worker resolves a round against one snapshot of the catalog, never a half-applied
// change. Once the events have settled, the program prints the placement each workload
// ends up with. Run it with
//
//	go run ./examples/controller-store
//
// With client-go, the store is registered on a shared informer directly
// (informer.AddEventHandler(store)); this example calls the handlers itself, so that it
// needs no cluster.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/resolve"
)

const (
	workers = 4
	rounds  = 500 // rounds of resolution per worker
)

// tombstone stands for client-go's cache.DeletedFinalStateUnknown, which an informer
// hands to OnDelete when it missed the deletion and knows only the last state it saw.
type tombstone struct {
	Key string
	Obj any
}

// workload is a workload with a label to print.
type workload struct {
	label string
	*resolve.Workload
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "controller-store:", err)
		os.Exit(1)
	}
}

// run plays the informer events against a store while workers resolve, then prints the
// placements to w.
func run(w io.Writer) error {
	types, workloads, err := load()
	if err != nil {
		return err
	}
	workloads = append(workloads,
		workload{"job train-small", &resolve.Workload{Kind: resolve.Job, Name: "train-small", InstanceType: "cpusmall"}},
		workload{"deployment green", &resolve.Workload{Kind: resolve.Deployment, Name: "green"}},
	)

	var store resolve.Store // the zero Store holds the built-in default alone
	for _, it := range types {
		store.OnAdd(it, true)
	}

	var wg sync.WaitGroup
	errs := make([]error, workers)
	for i := range workers {
		wg.Go(func() { errs[i] = work(&store, workloads) })
	}
	wg.Go(func() { informer(&store, types) })
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKLOAD\tINSTANCE TYPE\tNODE SELECTOR\tREQUESTS\tLIMITS")
	catalog := store.Catalog()
	for _, wl := range workloads {
		p, errs := resolve.Resolve(catalog, wl.Workload, nil, resolve.Options{})
		if len(errs) > 0 {
			return fmt.Errorf("%s: %v", wl.label, errs.ToAggregate())
		}
		name := p.InstanceType
		if p.BuiltIn {
			name += " (built-in)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", wl.label, name, selector(p.NodeSelector()), resources(p.Requests()), resources(p.Limits()))
	}
	return tw.Flush()
}

// informer delivers the events that follow the initial list, whose objects are seen: an
// update raising cpusmall's limits, then the deletion of the custom defaultinstancetype.
func informer(store *resolve.Store, seen []*instancetype.InstanceType) {
	for _, it := range seen {
		switch it.Name {
		case "cpusmall":
			// An update brings a new object: the old one is shared and must not change.
			bigger := it.DeepCopy()
			bigger.Spec.Resources.Limits[instancetype.ResourceCPU] = instancetype.MustParseAmount("2")
			bigger.Spec.Resources.Limits[instancetype.ResourceMemory] = instancetype.MustParseAmount("2Gi")
			store.OnUpdate(it, bigger)
		case instancetype.DefaultName:
			store.OnDelete(tombstone{Key: it.Name, Obj: it})
		}
	}
}

// work resolves every workload, rounds times, each round against one snapshot, as a
// reconcile loop does. Every workload fits every catalog the events produce, so any
// error is a failure.
func work(store *resolve.Store, workloads []workload) error {
	for range rounds {
		catalog := store.Catalog()
		for _, wl := range workloads {
			if _, errs := resolve.Resolve(catalog, wl.Workload, nil, resolve.Options{}); len(errs) > 0 {
				return fmt.Errorf("%s: %v", wl.label, errs.ToAggregate())
			}
		}
	}
	return nil
}

// load returns the instance types and the workloads of the source document's manifests.
func load() ([]*instancetype.InstanceType, []workload, error) {
	r, err := lint.Run([]lint.Input{lint.FS(examples.Manifests, ".")}, lint.Options{})
	if err != nil {
		return nil, nil, err
	}
	if len(r.Findings) > 0 {
		return nil, nil, fmt.Errorf("%v", r.Findings[0])
	}
	var types []*instancetype.InstanceType
	for it := range r.Catalog.All() {
		if !r.Catalog.IsBuiltIn(it.Name) {
			types = append(types, it)
		}
	}
	var workloads []workload
	for _, p := range r.Placements {
		workloads = append(workloads, workload{p.File, p.Workload})
	}
	return types, workloads, nil
}

// selector renders a node selector as k=v,k=v, sorted, or "-" when empty.
func selector(m map[string]string) string {
	var kv []string
	for k, v := range m {
		kv = append(kv, k+"="+v)
	}
	if len(kv) == 0 {
		return "-"
	}
	slices.Sort(kv)
	return strings.Join(kv, ",")
}

// resources renders a resource list as name=amount, sorted by name, amounts as written.
func resources(l instancetype.ResourceList) string {
	var kv []string
	for name, a := range l {
		if a.IsSet() {
			kv = append(kv, string(name)+"="+a.String())
		}
	}
	slices.Sort(kv)
	return strings.Join(kv, " ")
}
