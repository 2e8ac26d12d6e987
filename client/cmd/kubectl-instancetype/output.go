package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

// writeJSON prints the report as the DESIGN's contract has it:
// {"capacity":[{"instanceType","fits","limitedBy","pools":[{"pool","nodes","fits","limitedBy"}]}],"nodes":N,"pods":N}
// (and "skipped", when instance types were left out). The names are the API server's,
// as it sent them: what encoding/json leaves of their control characters is written
// escaped too (cli.EscapeJSON), so that a JSON reader gets the same values and a terminal
// no control character.
func writeJSON(w io.Writer, r *capacity.Report) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.Write(cli.EscapeJSON(b.Bytes()))
	return err
}

// writeText prints one line per instance type and pool: the type's total on its first.
// Names, pools and resources are the API server's text, each escaped (cli.Escape), so
// that none breaks a line or a column, or drives the terminal.
func writeText(w io.Writer, r *capacity.Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "INSTANCE TYPE\tFITS\tLIMITED BY\tPOOL\tNODES\tPOOL FITS\tPOOL LIMITED BY")
	for _, c := range r.Capacity {
		head := cli.Escape(c.InstanceType) + "\t" + strconv.FormatInt(c.Fits, 10) + "\t" + dash(string(c.LimitedBy))
		if len(c.Pools) == 0 {
			fmt.Fprintln(tw, head+"\t-\t0\t-\t-")
			continue
		}
		for i, p := range c.Pools {
			if i > 0 {
				head = "\t\t"
			}
			pool := cli.Escape(p.Pool)
			if pool == "" {
				pool = "(no pool label)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", head, pool, p.Nodes, p.Fits, dash(string(p.LimitedBy)))
		}
	}
	return tw.Flush()
}

// dash is s escaped, or "-" for nothing.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return cli.Escape(s)
}

const usage = `kubectl instancetype checks Azure ML instance types and the workloads that use them
against the cluster of the current kubeconfig context.

Usage:
  kubectl instancetype validate [flags] [PATH...]   check instance types, deployments and jobs
  kubectl instancetype resolve  [flags] [PATH...]   what each deployment and job really gets
  kubectl instancetype list     [flags] [PATH...]   the catalog: the cluster's instance types
  kubectl instancetype capacity [flags]             how many more pods of each fit now
  kubectl instancetype plan     [flags] [PATH...]   how each instance type packs on each node pool
  kubectl instancetype suggest  [flags]             right-sized instance types for each node pool
  kubectl instancetype rules                        the rules: ids, what each checks, docs
  kubectl instancetype completion SHELL             a completion script: bash, zsh or fish
  kubectl instancetype version                      print the version
  kubectl instancetype help [COMMAND]               show help for a command

validate, resolve and list are instancetype's commands, with the cluster's
instance types as the catalog (--catalog) and its nodes as the nodes (--nodes).
With no PATH, validate and resolve check the cluster's own instance types.
plan and suggest are instancetype's too, on the cluster's nodes, counting the
DaemonSet pods bound to each node as its overhead.

Exit status: 0 no findings, 1 findings, 2 usage error, unreadable path, or a
cluster that cannot be read.
Run 'kubectl instancetype help COMMAND' for its flags and examples.
`

const clusterHelp = `
From the cluster (the current kubeconfig context, or --context):
  its InstanceTypes are the catalog, as --catalog gives one (files of --catalog
  are read after them and replace them by name); its Nodes are the nodes, as
  --nodes gives them (the fit check). With no PATH, validate and resolve check
  the cluster's own instance types against its nodes. Findings name what came
  from the cluster cluster:instancetypes/NAME and cluster:nodes. Without RBAC
  to list nodes, the fit check is skipped, and said so on standard error.
`

const capacityHelp = `Usage: kubectl instancetype capacity [flags]

For each instance type of the cluster, and the built-in defaultinstancetype
unless the cluster overrides it: how many more pods of its requests fit now
on the nodes it may use (its nodeSelector merged with the extension's, not
cordoned, no NoSchedule or NoExecute taint its pods do not tolerate: they
tolerate Azure ML's workload taints, ml.azure.com/amlarc=true and
ml.azure.com/amlarc-workload=true, and those of --tolerate; as the fit check
of validate has it), counting the requests of the pods already bound to each
node (not Succeeded or Failed), as the scheduler counts them; per node pool,
and which resource runs out first (LIMITED BY: cpu, memory, an extended
resource such as nvidia.com/gpu, or the node's pods).

Flags:
  -o, --output text|json      output format (default text); -ojson works too
      --pool-label LABEL      the node label that names a node's pool (default
                              kubernetes.azure.com/agentpool, else agentpool)
      --node-selector k=v,... the Azure ML extension's nodeSelector (repeatable;
                              all pairs count), merged with each instance type's
      --tolerate KEY[=VALUE][:EFFECT]
                              a toleration the pods have besides Azure ML's
                              (repeatable), as validate's: sku=gpu:NoSchedule,
                              dedicated (any value, any effect)

With -o json: {"capacity":[{"instanceType","fits","limitedBy","pools":[{"pool",
"nodes","fits","limitedBy"}]}],"nodes":N,"pods":N}, and "skipped" (instance
types left out because they are invalid, and why) when there are any.

Without RBAC to list pods in every namespace, nothing counts as used, and a
note says so; without the InstanceType CRD, or RBAC to list instance types,
the built-in defaultinstancetype alone is answered.

Examples:
  kubectl instancetype capacity
  kubectl instancetype capacity --context prod -o json | jq '.capacity[] | {instanceType, fits}'
  kubectl instancetype capacity --pool-label topology.kubernetes.io/zone
  kubectl instancetype capacity --tolerate sku=gpu:NoSchedule

Exit status: 0 answered, 2 usage error or a cluster that cannot be read.
`

// boundsHelp is the help of the bounds of the lists, after the connection flags.
const boundsHelp = `
Bounds of each list (nodes, pods, instance types), whatever the API server sends:
      --max-objects int                the most objects of one list; a page that says
                                       more follow counts as --chunk-size objects
                                       (default 500000)
      --max-bytes SIZE                 the most bytes of the answers to one list, all
                                       its pages together (default 2Gi)
      --max-page-bytes SIZE            the most bytes of one answer, refused as it
                                       comes, before it is decoded (default 128Mi)
  A continue token that an earlier page of the list gave is an error, as are an
  answer cut off before its end and one that does not decode.
`
