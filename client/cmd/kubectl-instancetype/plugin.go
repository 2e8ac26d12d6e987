package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
	"github.com/amlarc-go/instancetypes/lint"
)

// name is the plugin's name, as kubectl users type it.
const name = "kubectl instancetype"

// Names of what comes from the cluster, in findings.
const (
	// clusterTypePrefix, then an instance type's name, names that instance type.
	clusterTypePrefix = "cluster:instancetypes/"
	// clusterNodes names the cluster's nodes.
	clusterNodes = "cluster:nodes"
)

// plugin is one run of the plugin: its connection flags and the bounds of its lists, set
// by the command line.
type plugin struct {
	config *genericclioptions.ConfigFlags
	chunk  int64
	// warnings are the API server's warnings (Warning headers), printed as notes.
	warnings warnings
	// maxObjects, maxBytes and maxPageBytes are the capacity.Reader's bounds.
	maxObjects             int64
	maxBytes, maxPageBytes byteSize
}

func newPlugin() *plugin {
	return &plugin{config: genericclioptions.NewConfigFlags(true), chunk: capacity.DefaultPageSize,
		maxObjects: capacity.DefaultMaxObjects, maxBytes: capacity.DefaultMaxBytes, maxPageBytes: capacity.DefaultMaxPageBytes}
}

// main runs one command line of the plugin: the Program's Main, which guards standard
// error against CI runners' commands (its messages repeat the API server's text).
// Standard output is guarded by each command, as its format has it (-o github writes
// workflow commands on purpose).
func (pl *plugin) main(args []string, e cli.Env) int { return pl.program().Main(args, e) }

// program is the plugin as an internal/cli Program.
func (pl *plugin) program() cli.Program {
	return cli.Program{
		Name:      name,
		Usage:     usage,
		Flags:     func(_ string, fs *flag.FlagSet) { pl.addFlags(fs) },
		FlagsHelp: clusterHelp + pl.flagUsages(),
		Inputs:    pl.inputs,
		Commands: []cli.Command{
			{Name: "capacity", Help: capacityHelp + pl.flagUsages(), Run: pl.capacity},
			{Name: "completion", Help: completionHelp, Run: pl.completion},
		},
	}
}

// connectionFlags are kubectl's connection flags, as pflags.
func (pl *plugin) connectionFlags() *pflag.FlagSet {
	pfs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	pl.config.AddFlags(pfs)
	return pfs
}

// addFlags adds the connection flags and --chunk-size to fs: pflag values are flag.Values,
// and the bool ones say so (IsBoolFlag), so --insecure-skip-tls-verify takes no value.
func (pl *plugin) addFlags(fs *flag.FlagSet) {
	pl.connectionFlags().VisitAll(func(f *pflag.Flag) {
		fs.Var(f.Value, f.Name, f.Usage)
		if f.Shorthand != "" && fs.Lookup(f.Shorthand) == nil {
			fs.Var(f.Value, f.Shorthand, f.Usage)
		}
	})
	fs.Int64Var(&pl.chunk, "chunk-size", capacity.DefaultPageSize, "")
	fs.Int64Var(&pl.maxObjects, "max-objects", capacity.DefaultMaxObjects, "")
	fs.Var(&pl.maxBytes, "max-bytes", "")
	fs.Var(&pl.maxPageBytes, "max-page-bytes", "")
}

// flagUsages is the help of the connection flags.
func (pl *plugin) flagUsages() string {
	pfs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	genericclioptions.NewConfigFlags(true).AddFlags(pfs)
	return "\nConnection flags (kubectl's):\n" + pfs.FlagUsages() +
		"      --chunk-size int                 objects per page of each list (default 500)\n" + boundsHelp
}

// errNoKubeconfig is the error of a run with no kubeconfig, no --server and not in a pod.
var errNoKubeconfig = errors.New("no kubeconfig: give --kubeconfig, set KUBECONFIG, or create ~/.kube/config (kubectl config view shows what kubectl uses)")

// reader connects to the cluster of the kubeconfig, as the flags select it. It returns the
// server's address, for messages.
func (pl *plugin) reader() (*capacity.Reader, string, error) {
	// kubectl falls back to http://localhost:8080 when there is no kubeconfig at all; say
	// what is missing instead.
	raw, err := pl.config.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return nil, "", fmt.Errorf("reading the kubeconfig: %w", err)
	}
	if len(raw.Clusters) == 0 && len(raw.Contexts) == 0 && *pl.config.APIServer == "" && os.Getenv("KUBERNETES_SERVICE_HOST") == "" {
		return nil, "", errNoKubeconfig
	}
	cfg, err := pl.config.ToRESTConfig()
	if err != nil {
		if clientcmd.IsEmptyConfig(err) {
			return nil, "", errNoKubeconfig
		}
		return nil, "", fmt.Errorf("reading the kubeconfig: %w", err)
	}
	// client-go would log the server's warnings raw on standard error; they are notes,
	// escaped as every note is.
	cfg.WarningHandler = &pl.warnings
	r, err := capacity.NewReader(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("connecting to %s: %w", cfg.Host, err)
	}
	if pl.chunk <= 0 {
		return nil, "", fmt.Errorf("invalid --chunk-size %d: want a positive number of objects", pl.chunk)
	}
	r.PageSize = pl.chunk
	if pl.maxObjects <= 0 {
		return nil, "", fmt.Errorf("invalid --max-objects %d: want a positive number of objects", pl.maxObjects)
	}
	r.MaxObjects, r.MaxBytes, r.MaxPageBytes = pl.maxObjects, int64(pl.maxBytes), int64(pl.maxPageBytes)
	return r, cfg.Host, nil
}

// clusterError words an error of reading the cluster at host that is not RBAC's.
func clusterError(err error, host string) error {
	switch {
	case apierrors.IsUnauthorized(err):
		return fmt.Errorf("the API server at %s refused the kubeconfig's credentials (401 Unauthorized): %v", host, err)
	case errors.Is(err, context.Canceled):
		return errors.New("interrupted")
	case apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the API server at %s did not answer in time: %v", host, err)
	}
	var (
		limit  *capacity.LimitError
		answer *capacity.AnswerError
		status apierrors.APIStatus
	)
	switch {
	case errors.As(err, &limit):
		return limitError(limit, host)
	case errors.As(err, &answer):
		return fmt.Errorf("bad answer of the API server at %s to the list of %s (answer %d): %v", host, listed(answer.Resource, answer.Group), answer.Page, answer.Err)
	case errors.As(err, &status):
		return fmt.Errorf("the API server at %s: %v", host, err)
	}
	var timeout interface{ Timeout() bool }
	if errors.As(err, &timeout) && timeout.Timeout() {
		return fmt.Errorf("the API server at %s did not answer in time: %v", host, err)
	}
	return fmt.Errorf("cannot reach the API server at %s: %v", host, err)
}

// limitError words a bound of the lists passed: which, and the flag that raises it.
func limitError(e *capacity.LimitError, host string) error {
	res := listed(e.Resource, e.Group)
	switch e.Bound {
	case capacity.BoundObjects:
		return fmt.Errorf("the API server at %s sent more than %d %s in %d pages (--max-objects %d; a page that says more follow counts as --chunk-size objects): if the cluster has that many, give a larger --max-objects", host, e.Limit, res, e.Page, e.Limit)
	case capacity.BoundBytes:
		return fmt.Errorf("the API server at %s sent more than %s in its answers to the list of %s (--max-bytes %s): if the cluster's %s come to that much, give a larger --max-bytes", host, byteSize(e.Limit), res, byteSize(e.Limit), res)
	}
	return fmt.Errorf("the API server at %s sent an answer of more than %s to the list of %s, answer %d (--max-page-bytes %s): give a larger --max-page-bytes, or a smaller --chunk-size", host, byteSize(e.Limit), res, e.Page, byteSize(e.Limit))
}

// listed names a resource in messages: "nodes", "instancetypes.amlarc.azureml.com".
func listed(resource, group string) string {
	if group != "" {
		return resource + "." + group
	}
	return resource
}

// byteSize is a number of bytes, given as a quantity ("128Mi", "2G", "1000000") and
// printed in binary SI.
type byteSize int64

func (b byteSize) String() string { return resource.NewQuantity(int64(b), resource.BinarySI).String() }

// Set reads a positive whole number of bytes, with or without a suffix.
func (b *byteSize) Set(v string) error {
	q, err := resource.ParseQuantity(v)
	if err != nil {
		return fmt.Errorf("%q is not a size (a number of bytes, or 128Mi, 2Gi)", v)
	}
	n, ok := q.AsInt64()
	if !ok || n <= 0 || q.Cmp(*resource.NewQuantity(n, resource.BinarySI)) != 0 {
		return fmt.Errorf("%q is not a positive whole number of bytes", v)
	}
	*b = byteSize(n)
	return nil
}

// signalContext is canceled by an interrupt.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// inputs is the Inputs hook of validate, resolve and list: the cluster's instance types,
// as the catalog (or, for validate and resolve without PATH, as the inputs), and its nodes.
func (pl *plugin) inputs(cmd string, paths []string) (cli.Inputs, error) {
	r, host, err := pl.reader()
	if err != nil {
		return cli.Inputs{}, err
	}
	ctx, cancel := signalContext()
	defer cancel()
	var in cli.Inputs
	own := len(paths) == 0 && cmd != "list" // the cluster's instance types are what is checked
	types, err := r.ReadInstanceTypes(ctx)
	var le *capacity.ListError
	switch {
	case errors.Is(err, capacity.ErrNoCRD):
		in.CatalogHint = "the cluster has no InstanceType resource (its CRD is not installed)"
		if own {
			in.Notes = append(in.Notes, capacity.ErrNoCRD.Error()+": no instance type to check beyond the built-in defaultinstancetype")
		} else {
			in.Notes = append(in.Notes, capacity.ErrNoCRD.Error()+": the catalog is the built-in defaultinstancetype alone")
		}
	case errors.As(err, &le):
		if own {
			return cli.Inputs{}, fmt.Errorf("%v; with no PATH, the cluster's instance types are what is checked", le)
		}
		in.CatalogHint = "not allowed to list the cluster's instance types"
		in.Notes = append(in.Notes, le.Error()+"; workloads are checked without the cluster's catalog")
	case err != nil:
		return cli.Inputs{}, clusterError(err, host)
	default:
		objs := make([]lint.Input, 0, len(types))
		for _, it := range types {
			objs = append(objs, lint.Bytes(clusterTypePrefix+it.Name, it.JSON))
		}
		if len(types) == 0 {
			in.CatalogHint = "the cluster has no InstanceType (kubectl get instancetypes)"
			if own {
				in.Notes = append(in.Notes, "the cluster has no InstanceType: nothing to check beyond the built-in defaultinstancetype")
			}
		}
		if own {
			in.Paths = objs
		} else {
			in.Catalog = objs
		}
	}
	nodes, err := r.ReadNodes(ctx)
	for _, w := range pl.warnings.take() {
		in.Notes = append(in.Notes, w)
	}
	switch {
	case errors.As(err, &le):
		in.Notes = append(in.Notes, le.Error()+"; the fit check is skipped")
	case err != nil:
		return cli.Inputs{}, clusterError(err, host)
	default:
		plain := make([]cluster.Node, len(nodes))
		for i, n := range nodes {
			plain[i] = n.Node
		}
		in.Nodes = []lint.Input{lint.NodeObjects(clusterNodes, plain)}
		if cmd == "plan" || cmd == "suggest" {
			// The per-node overhead is what the DaemonSets have bound to each node.
			over, err := r.ReadDaemonSetOverhead(ctx, nodes)
			for _, w := range pl.warnings.take() {
				in.Notes = append(in.Notes, w)
			}
			switch {
			case errors.As(err, &le):
				in.Notes = append(in.Notes, le.Error()+"; --overhead-node counts on every node instead of its DaemonSet pods")
			case err != nil:
				return cli.Inputs{}, clusterError(err, host)
			default:
				in.NodeOverhead = over
			}
		}
	}
	return in, nil
}

// wantsHelp reports -h, -help or --help among args, before any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// splitShortOutput turns -ojson into -o json, as kubectl accepts it.
func splitShortOutput(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if len(a) > 2 && strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "-output") && a[2] != '=' {
			out = append(out, "-o", a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// repeated is a flag that may be given many times, each value kept.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// capacity runs kubectl instancetype capacity.
func (pl *plugin) capacity(args []string, e cli.Env) int {
	if wantsHelp(args) {
		fmt.Fprint(e.Stdout, capacityHelp+pl.flagUsages())
		return cli.ExitOK
	}
	usageError := func(err error) int {
		fmt.Fprintf(e.Stderr, "%s capacity: %s\nRun '%s help capacity' for usage.\n", name, cli.EscapeMessage(err.Error()), name)
		return cli.ExitUsage
	}
	fs := flag.NewFlagSet("capacity", flag.ContinueOnError)
	fs.SetOutput(discard{})
	var output, poolLabel string
	var sel, tolerate repeated
	fs.StringVar(&output, "o", "text", "")
	fs.StringVar(&output, "output", "text", "")
	fs.StringVar(&poolLabel, "pool-label", "", "")
	fs.Var(&sel, "node-selector", "")
	fs.Var(&tolerate, "tolerate", "")
	pl.addFlags(fs)
	if err := fs.Parse(splitShortOutput(args)); err != nil {
		return usageError(err)
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Errorf("takes no arguments, got %q", fs.Arg(0)))
	}
	if output != "text" && output != "json" {
		return usageError(fmt.Errorf("invalid output format %q: want text or json", output))
	}
	ext, err := cli.ParseNodeSelector(sel)
	if err != nil {
		return usageError(fmt.Errorf("invalid --node-selector: %w", err))
	}
	var tols []cluster.Toleration
	for _, t := range tolerate {
		tol, err := cluster.ParseToleration(t)
		if err != nil {
			return usageError(fmt.Errorf("invalid --tolerate %q: %w", t, err))
		}
		tols = append(tols, tol)
	}
	// What is printed from here on repeats the API server's text (its errors, names, label
	// values): each message is cut and escaped (cli.EscapeMessage), each name escaped
	// (writeText), and every line guarded against CI runners' commands.
	fail := func(err error) int {
		fmt.Fprintf(e.Stderr, "%s capacity: %s\n", name, cli.EscapeMessage(err.Error()))
		return cli.ExitUsage
	}
	note := func(s string) { fmt.Fprintf(e.Stderr, "%s capacity: %s\n", name, cli.EscapeMessage(s)) }
	r, host, err := pl.reader()
	if err != nil {
		return fail(err)
	}
	ctx, cancel := signalContext()
	defer cancel()
	c, err := r.Read(ctx)
	for _, w := range pl.warnings.take() {
		note(w)
	}
	if err != nil {
		return fail(clusterError(err, host))
	}
	if c.NoCRD {
		note(capacity.ErrNoCRD.Error() + ": the built-in defaultinstancetype alone")
	}
	for _, le := range c.Unread {
		switch le.Resource {
		case "nodes":
			return fail(fmt.Errorf("%v; capacity needs the nodes", le))
		case "pods":
			note(le.Error() + "; nothing counts as used: these are the figures of empty nodes")
		default:
			note(le.Error() + "; the built-in defaultinstancetype alone")
		}
	}
	report := c.Compute(capacity.Options{NodeSelector: ext, PoolLabel: poolLabel, Tolerations: tols})
	for _, s := range report.Skipped {
		note("instance type " + s.InstanceType + " left out: " + s.Reason)
	}
	stdout := cli.NewGuard(e.Stdout, output)
	if output == "json" {
		err = writeJSON(stdout, report)
	} else {
		err = writeText(stdout, report)
		if err == nil {
			counted := ", " + plural(report.Pods, "pod") + " counted"
			for _, le := range c.Unread {
				if le.Resource == "pods" {
					counted = ", pods not counted"
				}
			}
			_, err = fmt.Fprintf(e.Stderr, "%s of %s%s\n", plural(len(report.Capacity), "instance type"), plural(report.Nodes, "node"), counted)
		}
	}
	if ferr := stdout.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fail(fmt.Errorf("writing output: %w", err))
	}
	return cli.ExitOK
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// maxWarnings is how many different warnings of the API server are printed; the rest
// are counted.
const maxWarnings = 10

// warnings collects the API server's warnings (rest.WarningHandler), each once.
type warnings struct {
	mu    sync.Mutex
	seen  map[string]bool
	list  []string
	extra int
}

// HandleWarningHeader keeps the warning message, unless it is a repeat.
func (w *warnings) HandleWarningHeader(code int, agent, message string) {
	if code != 299 || message == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen[message] {
		return
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	w.seen[message] = true
	if len(w.list) < maxWarnings {
		w.list = append(w.list, message)
	} else {
		w.extra++
	}
}

// take returns the warnings kept since the last call, worded as notes.
func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, m := range w.list {
		out = append(out, "warning from the API server: "+m)
	}
	if w.extra > 0 {
		out = append(out, fmt.Sprintf("and %d more warnings from the API server", w.extra))
	}
	w.list, w.extra = nil, 0
	return out
}

// discard is an io.Writer that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
