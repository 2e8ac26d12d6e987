// Controller-store is a controller's view of instance types: the generated shared informer
// of this module keeps a resolve.Store up to date while worker goroutines resolve
// workloads against it.
//
// With no flags it needs no cluster: the clientset is the generated fake, seeded with the
// instance types of the source document's manifests. The informer lists them into the
// store, as a controller waits for its cache to sync; then, while several workers resolve
// the source document's job and deployments (plus a job naming cpusmall and a deployment
// naming no instance type) over and over, the program updates cpusmall through the
// clientset, raising its limits, and deletes the custom defaultinstancetype, so that the
// built-in one comes back. The informer delivers both events to the store; each worker
// resolves a round against one snapshot of the catalog, never a half-applied change.
// Once the store shows both changes, the program prints the placement each workload ends
// up with:
//
//	go run ./examples/controller-store
//
// With -kubeconfig it runs against that cluster instead, read-only: it syncs the
// cluster's instance types into the store and prints where the same workloads would go.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/amlarc-go/instancetypes/client/clientset/versioned"
	"github.com/amlarc-go/instancetypes/client/clientset/versioned/fake"
	"github.com/amlarc-go/instancetypes/client/informers/externalversions"
	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/workload"
)

const (
	workers = 4
	rounds  = 500 // rounds of resolution per worker
)

// labeled is a workload with a label to print.
type labeled struct {
	label string
	*workload.Workload
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "run against the cluster of this kubeconfig file, read-only (default: a fake clientset)")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, *kubeconfig, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "controller-store:", err)
		os.Exit(1)
	}
}

// run syncs a store from the informer and prints the placements to w: after the
// simulated events with the fake clientset, or as the cluster of kubeconfig has it.
func run(ctx context.Context, kubeconfig string, w io.Writer) error {
	types, workloads, err := load()
	if err != nil {
		return err
	}
	workloads = append(workloads,
		labeled{"job train-small", &workload.Workload{Kind: workload.ComputeJob, Name: "train-small", InstanceType: "cpusmall"}},
		labeled{"deployment green", &workload.Workload{Kind: workload.OnlineDeployment, Name: "green"}},
	)

	var client versioned.Interface
	if kubeconfig != "" {
		cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
		if err != nil {
			return err
		}
		if client, err = versioned.NewForConfig(cfg); err != nil {
			return err
		}
	} else {
		objs := make([]runtime.Object, len(types))
		for i, it := range types {
			objs[i] = it
		}
		client = fake.NewClientset(objs...)
	}

	store := resolve.NewStore()
	store.SetDropHandler(func(d resolve.Drop) {
		fmt.Fprintf(os.Stderr, "controller-store: %s event dropped: %v\n", d.Event, d.Err)
	})
	factory := externalversions.NewSharedInformerFactory(client, 0)
	reg, err := factory.Amlarc().V1alpha1().InstanceTypes().Informer().AddEventHandler(store)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer func() { stop(); factory.Shutdown() }()
	factory.Start(ctx.Done())
	// The informer's cache syncing is not enough: wait until the store has been handed
	// the initial list too.
	if !cache.WaitForCacheSync(ctx.Done(), reg.HasSynced) {
		return errors.New("the informer did not sync")
	}

	if kubeconfig == "" {
		var wg sync.WaitGroup
		errs := make([]error, workers+1)
		for i := range workers {
			wg.Go(func() { errs[i] = work(store, workloads) })
		}
		wg.Go(func() { errs[workers] = events(ctx, client, store) })
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return print(w, store.Catalog(), workloads)
}

// events changes the cluster as an operator would (cpusmall's limits raised, the custom
// defaultinstancetype deleted) and waits until the informer has brought both changes to
// the store.
func events(ctx context.Context, client versioned.Interface, store *resolve.Store) error {
	api := client.AmlarcV1alpha1().InstanceTypes()
	small, err := api.Get(ctx, "cpusmall", metav1.GetOptions{})
	if err != nil {
		return err
	}
	// The informer's objects are shared: change a copy. (Get on the fake returns one.)
	small = small.DeepCopy()
	small.Spec.Resources.Limits[instancetype.ResourceCPU] = instancetype.MustParseAmount("2")
	small.Spec.Resources.Limits[instancetype.ResourceMemory] = instancetype.MustParseAmount("2Gi")
	if _, err := api.Update(ctx, small, metav1.UpdateOptions{}); err != nil {
		return err
	}
	if err := api.Delete(ctx, instancetype.DefaultName, metav1.DeleteOptions{}); err != nil {
		return err
	}
	for {
		c := store.Catalog()
		if it, ok := c.Get("cpusmall"); ok && it.Spec.Resources.Limits[instancetype.ResourceCPU].String() == "2" && c.IsBuiltIn(instancetype.DefaultName) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the store did not see the events: %w", ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// work resolves every workload, rounds times, each round against one snapshot, as a
// reconcile loop does. Every workload fits every catalog the events produce, so any
// error is a failure.
func work(store *resolve.Store, workloads []labeled) error {
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

// print writes the placement of each workload in catalog as a table.
func print(w io.Writer, catalog *resolve.Catalog, workloads []labeled) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKLOAD\tINSTANCE TYPE\tNODE SELECTOR\tREQUESTS\tLIMITS")
	for _, wl := range workloads {
		p, errs := resolve.Resolve(catalog, wl.Workload, nil, resolve.Options{})
		if len(errs) > 0 {
			fmt.Fprintf(tw, "%s\t%s\t%v\t\t\n", wl.label, p.InstanceType, errs.ToAggregate())
			continue
		}
		name := p.InstanceType
		if p.BuiltIn {
			name += " (built-in)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", wl.label, name, selector(p.NodeSelector()), resources(p.Requests()), resources(p.Limits()))
	}
	return tw.Flush()
}

// load returns the instance types and the workloads of the source document's manifests.
func load() ([]*instancetype.InstanceType, []labeled, error) {
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
	var workloads []labeled
	for _, p := range r.Placements {
		workloads = append(workloads, labeled{p.File, p.Workload})
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
