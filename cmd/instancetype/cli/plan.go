package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/amlarc-go/instancetypes/internal/yamlout"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/plan"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// planOptions are the settings of a run of plan or suggest.
type planOptions struct {
	output                  string
	paths                   []string
	catalog, nodes, exclude []string
	opts                    plan.Options
	workload                plan.Workload
	podSet                  bool // --overhead-pod given
	// check are the settings the config file may give, as validate's (nodes, catalog,
	// tolerations, the extension's selector, exclusions), with the flags given in set.
	check options
}

// parsePlanFlags parses the flags of plan and suggest, in any order with the PATHs.
func parsePlanFlags(cmd string, args []string, more func(string, *flag.FlagSet)) (planOptions, error) {
	o := planOptions{}
	var sel, catalog, nodes, tolerate, exclude repeated
	var workload, overNode, overPod string
	def := "text"
	if cmd == "suggest" {
		def = "yaml"
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.output, "o", def, "")
	fs.StringVar(&o.output, "output", def, "")
	fs.Var(&sel, "node-selector", "")
	fs.Var(&nodes, "nodes", "")
	fs.Var(&tolerate, "tolerate", "")
	fs.StringVar(&o.opts.PoolLabel, "pool-label", "", "")
	fs.StringVar(&workload, "workload", string(plan.Deployment), "")
	fs.StringVar(&overNode, "overhead-node", "", "")
	fs.StringVar(&overPod, "overhead-pod", "", "")
	fs.StringVar(&o.check.config, "config", "", "")
	if cmd == "plan" {
		fs.Var(&catalog, "catalog", "")
		fs.Var(&exclude, "exclude", "")
	}
	if more != nil {
		more(cmd, fs)
	}
	var after []string
	for i, a := range args {
		if a == "--" {
			args, after = args[:i], args[i+1:]
			break
		}
	}
	args = splitShortOutput(args)
	for {
		if err := fs.Parse(args); err != nil {
			return o, err
		}
		if fs.NArg() == 0 {
			break
		}
		o.paths = append(o.paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	o.paths = append(o.paths, after...)
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	want := []string{"text", "json"}
	if cmd == "suggest" {
		want = []string{"yaml", "json"}
	}
	if o.output != want[0] && o.output != want[1] {
		return o, fmt.Errorf("invalid output format %q: want %s or %s", o.output, want[0], want[1])
	}
	var err error
	if o.opts.NodeSelector, err = parseSelector(sel); err != nil {
		return o, fmt.Errorf("invalid --node-selector: %w", err)
	}
	for _, t := range tolerate {
		tol, err := cluster.ParseToleration(t)
		if err != nil {
			return o, fmt.Errorf("invalid --tolerate %q: %w", t, err)
		}
		o.opts.Tolerations = append(o.opts.Tolerations, tol)
	}
	for _, pat := range exclude {
		if err := lint.ValidExclude(pat); err != nil {
			return o, fmt.Errorf("invalid --exclude %q: %w", pat, err)
		}
	}
	if o.opts.PoolLabel != "" {
		if errs := validate.NodeSelector(map[string]string{o.opts.PoolLabel: ""}, nil); len(errs) > 0 {
			return o, fmt.Errorf("invalid --pool-label %q: not a label key", o.opts.PoolLabel)
		}
	}
	o.workload = plan.Workload(workload)
	if o.workload != plan.Deployment && o.workload != plan.Job {
		return o, fmt.Errorf("invalid --workload %q: want deployment or job", workload)
	}
	o.opts.Overhead = plan.DefaultOverhead(o.workload)
	if set["overhead-node"] {
		if o.opts.Overhead.PerNode, err = plan.ParseResources(overNode); err != nil {
			return o, fmt.Errorf("invalid --overhead-node: %w", err)
		}
	}
	if o.podSet = set["overhead-pod"]; o.podSet {
		if o.opts.Overhead.PerPod, err = plan.ParseResources(overPod); err != nil {
			return o, fmt.Errorf("invalid --overhead-pod: %w", err)
		}
	}
	o.catalog, o.nodes, o.exclude = catalog, nodes, exclude
	o.check.set = set
	return o, nil
}

// planConfig reads the config file as validate does (--config, else .instancetype.yaml found
// upward) and takes from it what plan and suggest use and the command line did not set:
// nodes, catalog, tolerations, the extension's nodeSelector and exclusions. It returns
// the config file's nodes and catalog, read before those of the flags.
func planConfig(o *planOptions) (nodes, catalog []lint.Input, notes []string, err error) {
	c := &o.check
	c.NodeSelector, c.Tolerations, c.Exclude = o.opts.NodeSelector, o.opts.Tolerations, o.exclude
	if err := loadConfig(c); err != nil {
		return nil, nil, c.notes, err
	}
	o.opts.NodeSelector, o.opts.Tolerations, o.exclude = c.NodeSelector, c.Tolerations, c.Exclude
	return c.Nodes, c.Catalog, c.notes, nil
}

// runPlan runs plan or suggest: flags, one call to lint.Run to read the instance types and
// the nodes, then package plan.
func (p Program) runPlan(cmd string, args []string, e Env) int {
	if wantsHelp(args) {
		fmt.Fprint(e.Stdout, p.help(cmd))
		return ExitOK
	}
	name := p.name()
	usageErr := func(msg string) int {
		fmt.Fprintf(e.Stderr, "%s %s: %s\nRun '%s help %s' for usage.\n", name, cmd, EscapeMessage(msg), name, cmd)
		return ExitUsage
	}
	o, err := parsePlanFlags(cmd, args, p.Flags)
	if err != nil {
		return usageErr(err.Error())
	}
	if cmd == "suggest" && len(o.paths) > 0 {
		return usageErr("takes no PATH: give the nodes with --nodes")
	}
	var extra Inputs
	if p.Inputs != nil {
		if extra, err = p.Inputs(cmd, o.paths); err != nil {
			fmt.Fprintf(e.Stderr, "%s %s: %s\n", name, cmd, EscapeMessage(err.Error()))
			return ExitUsage
		}
		for _, n := range extra.Notes {
			fmt.Fprintf(e.Stderr, "%s %s: %s\n", name, cmd, EscapeMessage(n))
		}
	}
	if extra.NodeOverhead != nil { // every node's own, in place of --overhead-node
		o.opts.NodeOverhead = extra.NodeOverhead
		o.opts.Overhead.PerNode = plan.Resources{}
	}
	if cmd == "suggest" { // sizes come from the nodes alone
		extra.Paths, extra.Catalog = nil, nil
	}
	cfgNodes, cfgCatalog, notes, err := planConfig(&o)
	for _, n := range notes {
		fmt.Fprintf(e.Stderr, "%s %s: note: %s\n", name, cmd, EscapeMessage(n))
	}
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s %s: config file: %s\n", name, cmd, EscapeMessage(describe(err)))
		return ExitUsage
	}
	if cmd == "suggest" {
		cfgCatalog = nil
	}
	stdin := stdinOnce(e)
	opts := lint.Options{NodeSelector: o.opts.NodeSelector, Tolerations: o.opts.Tolerations, Exclude: o.exclude, ExcludeDir: o.check.ExcludeDir, NoPlacements: true}
	in := inputs(o.paths, stdin)
	opts.Catalog = append(append(extra.Catalog, cfgCatalog...), inputs(o.catalog, stdin)...)
	opts.Nodes = append(append(extra.Nodes, cfgNodes...), inputs(o.nodes, stdin)...)
	if p.Inputs == nil && len(opts.Nodes) == 0 {
		return usageErr("no nodes: give the cluster's nodes with --nodes (kubectl get nodes -o yaml), or nodes: in the config file")
	}
	r, err := lint.Run(append(in, extra.Paths...), opts)
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s %s: %s\n", name, cmd, EscapeMessage(describe(err)))
		return ExitUsage
	}
	stdout := NewGuard(e.Stdout, "text")
	defer stdout.Flush()
	note := func(format string, a ...any) {
		fmt.Fprintf(e.Stderr, "%s %s: %s\n", name, cmd, EscapeMessage(fmt.Sprintf(format, a...)))
	}
	if n := len(r.Findings); n > 0 {
		note("%s in the inputs ('%s validate' shows them); instance types validate refuses are left out", plural(n, "finding"), name)
	}
	if len(r.ClusterNodes) == 0 {
		note("no node was read: nothing to plan on")
	}
	if cmd == "suggest" {
		err = writeSuggestions(stdout, o, plan.Suggest(r.ClusterNodes, o.opts), note)
	} else {
		err = writePlan(stdout, o, r, note)
	}
	if ferr := stdout.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s %s: writing output: %s\n", name, cmd, EscapeMessage(err.Error()))
		return ExitUsage
	}
	return ExitOK
}

// writePlan plans the catalog's valid instance types on the nodes and prints the plan.
func writePlan(w io.Writer, o planOptions, r *lint.Report, note func(string, ...any)) error {
	var types []*instancetype.InstanceType
	for it := range r.Catalog.All() {
		if errs := validate.InstanceType(it, nil, resolve.Options{NodeSelector: o.opts.NodeSelector}); len(errs) > 0 {
			note("%s left out: %s", it.Name, errs[0].Error())
			continue
		}
		types = append(types, it)
	}
	rep := plan.Compute(types, r.ClusterNodes, o.opts)
	for _, name := range rep.Unplaced {
		note("%s: no schedulable node admits it ('instancetype validate --nodes' says why)", name)
	}
	for _, s := range rep.Skipped {
		note("%s left out: %s", s.InstanceType, s.Reason)
	}
	if o.output == "json" {
		enc := json.NewEncoder(escapedJSON{w})
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	note("overhead counted: per node %s, per pod %s (%s)", rep.Overhead.PerNode, rep.Overhead.PerPod, overheadWords(o))
	return writePlanText(w, rep)
}

// overheadWords says where the overhead of a run comes from.
func overheadWords(o planOptions) string {
	switch {
	case o.opts.NodeOverhead != nil:
		return "per node: the DaemonSet pods bound to each node"
	case o.podSet:
		return "--overhead-pod"
	case o.workload == plan.Job:
		return "--workload job: a training job's pods have no sidecar"
	}
	return "--workload deployment: each pod's identity sidecar"
}

// The columns of plan's text: name, width.
var planColumns = []struct {
	name  string
	width int
	left  bool
}{
	{"INSTANCE TYPE", 24, true}, {"POOL", 12, true}, {"NODES", 5, false}, {"PER NODE", 8, false},
	{"FITS", 7, false}, {"LIMITED BY", 14, true}, {"CPU LEFT", 11, false}, {"MEMORY LEFT", 13, false}, {"GPU LEFT", 8, false},
}

// writePlanText prints the plan as a table of at most 120 columns: stranded amounts on
// each pool's smallest node with their share of what is usable there.
func writePlanText(w io.Writer, rep *plan.Report) error {
	row := func(cells ...string) string {
		var b strings.Builder
		for i, c := range planColumns {
			cell := fitCell(Escape(cells[i]), c.width)
			pad := strings.Repeat(" ", c.width-utf8.RuneCountInString(cell))
			if i > 0 {
				b.WriteString("  ")
			}
			if c.left {
				b.WriteString(cell)
				if i < len(planColumns)-1 {
					b.WriteString(pad)
				}
			} else {
				b.WriteString(pad + cell)
			}
		}
		return strings.TrimRight(b.String(), " ") + "\n"
	}
	heads := make([]string, len(planColumns))
	for i, c := range planColumns {
		heads[i] = c.name
	}
	var b strings.Builder
	b.WriteString(row(heads...))
	for _, e := range rep.Plan {
		limited := string(e.LimitedBy)
		if limited == "" {
			limited = "-"
		}
		b.WriteString(row(e.InstanceType, e.Pool, strconv.Itoa(e.Nodes), strconv.FormatInt(e.PerNode, 10), strconv.FormatInt(e.Fits, 10),
			limited, leftCell(e, instancetype.ResourceCPU), leftCell(e, instancetype.ResourceMemory), leftCell(e, instancetype.ResourceNvidiaGPU)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fitCell clips s to width runes, ending it with … when cut.
func fitCell(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// leftCell is what is stranded of a resource on the entry's smallest node, short, with its
// share of what is usable there: "3.69 23%", "8.1Gi 14%", "0 0%"; "-" when the node has none.
func leftCell(e plan.Entry, name instancetype.ResourceName) string {
	q, ok := e.Stranded[name]
	share, some := e.StrandedShare(name)
	if !ok {
		return "-"
	}
	amount := short(name, q)
	if !some {
		return amount
	}
	return amount + " " + strconv.Itoa(int(math.Round(share*100))) + "%"
}

// short is an amount in a few characters: cores with two decimals, memory in Gi with one
// (Mi below 1Gi), other resources as they are.
func short(name instancetype.ResourceName, q quantity.Quantity) string {
	n := plan.Units(name, q)
	switch name {
	case instancetype.ResourceCPU:
		return strconv.FormatFloat(float64(n)/1000, 'f', 2, 64)
	case instancetype.ResourceMemory:
		if n < 1<<30 {
			return strconv.FormatInt(n>>20, 10) + "Mi"
		}
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + "Gi"
	}
	return q.String()
}

// writeSuggestions prints the suggested InstanceTypeList as YAML (with a comment saying
// what it is) or JSON, and notes the pools it leaves out.
func writeSuggestions(w io.Writer, o planOptions, s plan.Suggestions, note func(string, ...any)) error {
	for _, sk := range s.Skipped {
		note("pool %s: %s", sk.Pool, sk.Reason)
	}
	if len(s.List.Items) == 0 {
		note("no instance type to suggest")
	}
	if o.output == "json" {
		enc := json.NewEncoder(escapedJSON{w})
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(s.List)
	}
	out, err := yamlout.Marshal(s.List)
	if err != nil {
		return err
	}
	head := "# Instance types sized for each node pool by instancetype suggest, counting the overhead\n" +
		"# (per node " + o.opts.Overhead.PerNode.String() + "; per pod " + o.opts.Overhead.PerPod.String() + ", " + overheadWords(o) + ").\n" +
		"# Each one's annotation " + plan.SizedForAnnotation + " says what it is sized for.\n"
	if o.opts.NodeOverhead != nil {
		head = strings.Replace(head, "per node "+o.opts.Overhead.PerNode.String(), "per node the DaemonSet pods bound to it", 1)
	}
	_, err = io.WriteString(w, head+string(out))
	return err
}

// planFlagsHelp is the flags part of the help of plan and suggest.
const planFlagsHelp = `Flags:
      --nodes PATH            the cluster's nodes, as kubectl get nodes -o yaml
                              prints them (repeatable; a file, a directory or -)
      --pool-label KEY        the node label that names a node's pool (default:
                              kubernetes.azure.com/agentpool, else agentpool)
      --workload KIND         deployment (the default: each pod carries Azure
                              ML's identity sidecar, 10m cpu and 100Mi) or job
      --overhead-node cpu=..,memory=..|none
                              what runs on every node before the workload's pods
                              (default: Azure ML's fluent-bit DaemonSet,
                              cpu=10m,memory=100Mi)
      --overhead-pod cpu=..,memory=..|none
                              what each pod adds to its instance type's requests
                              (default: that of --workload)
      --node-selector k=v,... the Azure ML extension's nodeSelector (repeatable)
      --tolerate KEY[=VALUE][:EFFECT]
                              a toleration beside those of Azure ML's pods
                              (repeatable): sku=gpu:NoSchedule
      --config PATH           the config file (default: .instancetype.yaml in the
                              working directory or the nearest parent), whose
                              nodes, catalog, tolerations, nodeSelector and exclude
                              count unless the flags of their names are given
`

func init() {
	commandHelp["plan"] = `Usage: instancetype plan --nodes PATH [flags] PATH...

For each instance type of the catalog (those of PATHs over those of --catalog,
with the built-in defaultinstancetype) and each node pool it may use (nodes
whose labels match its nodeSelector and the extension's, schedulable, whose
taints Azure ML's pods tolerate), prints: NODES, the pool's nodes it may use;
PER NODE, how many of its pods fit on one empty node of the pool (its smallest),
after the overhead; FITS, on all of them; LIMITED BY, the resource that runs
out first; and what is left stranded on that node of cpu, memory and GPUs, with
its share of what is usable there. Instance types that validate refuses are
left out ('instancetype validate' shows why). See docs/plan.md.

  -o, --output FORMAT         text (the default) or json
      --catalog PATH          the cluster's instance types (repeatable)
      --exclude GLOB          skip paths that match GLOB in directory walks
` + planFlagsHelp + `
Examples:
  instancetype plan --nodes nodes.yaml instance_types.yaml
  instancetype plan --nodes nodes.yaml --workload job -o json types/
  kubectl get instancetypes -o yaml | instancetype plan --nodes nodes.yaml -

Exit status: 0 the plan is printed, 2 usage error or unreadable path.
`
	commandHelp["suggest"] = `Usage: instancetype suggest --nodes PATH [flags]

Prints an InstanceTypeList of right-sized instance types for each node pool:
for a CPU pool, a whole, a half and a quarter of a node (POOL-whole, POOL-half,
POOL-quarter); for a GPU pool, one per k GPUs for k = 1, 2, 4, ... that divide
the GPUs of a node, and all of them (POOL-1gpu, ...). Each selects its pool,
requests (and is limited to) its share of the cpu and memory usable on the
pool's smallest node once the overhead is counted, at least 90% of it, and
says so in its annotation ` + plan.SizedForAnnotation + `.
'instancetype validate' accepts the list; 'instancetype plan' shows each
packing as claimed, leaving no GPU over. See docs/plan.md.

  -o, --output FORMAT         yaml (the default) or json
` + planFlagsHelp + `
Examples:
  instancetype suggest --nodes nodes.yaml > instance_types.yaml
  instancetype suggest --nodes nodes.yaml --tolerate sku=gpu --workload job

Exit status: 0 the list is printed, 2 usage error or unreadable path.
`
}
