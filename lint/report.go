package lint

import (
	"github.com/amlarc-go/instancetypes/azureml"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/workload"
)

// Report is the outcome of checking a set of inputs.
type Report struct {
	// Findings are every problem found, sorted by file, line and column: reading,
	// decoding, the rules of instance types and workloads, and, with nodes, the fit. Of a
	// file with more than Options.MaxFindings, the first ones by line are kept, and one
	// more (TooManyFindings), placed at the last kept, counts the rest: it comes
	// after every other finding of its file.
	Findings []Finding
	// Notes are what the inputs say that is accepted but has no effect, which a person
	// may want to know, sorted as Findings are: an InstanceType's metadata.namespace,
	// which the API server drops (an InstanceType is cluster-scoped). They are not
	// findings: they change neither Findings nor the exit status, carry no rule id, and
	// are not suppressed. At most 100 a file.
	Notes []Finding
	// Skipped are the documents and files not checked, each with why, sorted by file and
	// line.
	Skipped []Skip
	// Suppressed are the findings suppression comments and Options.Ignore kept out of
	// Findings, each with what suppressed it, sorted as Findings are: the first
	// Options.MaxFindings of each file. SuppressedCount is how many there were in all.
	Suppressed      []Suppressed
	SuppressedCount int
	// Placements are what each deployment and job gets, in the order of the inputs: of
	// the first MaxPlacements workloads (a finding says where the rest begin).
	Placements []Placement
	// Catalog is the catalog workloads were checked against: the built-in default, the
	// cluster's instance types (Options.Catalog) and, over them, those of the inputs, at
	// most MaxInstanceTypes of them. Its instance types hold their name and spec, not the
	// rest of their metadata.
	Catalog *resolve.Catalog
	// NamesChecked reports that the catalog holds instance types of the cluster or the
	// inputs, so that a workload's instance type was looked up in it. Without any, names
	// are checked for their form only: the catalog of the cluster is unknown.
	NamesChecked bool
	// Files is the number of files read, or met in a walk and not readable (a dangling
	// symlink); Documents the number of documents checked;
	// Workloads the number of deployments and jobs among them (Placements holds one for each
	// unless Options.NoPlacements).
	Files, Documents, Workloads int
	// NotLiteral is the number of values of azure-ai-ml calls in Python files and
	// notebooks that are not literal (an f-string, os.environ[...], a name bound twice):
	// they are not read, and no rule is checked on a workload that has one (but for its
	// name).
	NotLiteral int
	// Nodes is the number of nodes given (Options.Nodes), after duplicates; 0 without.
	Nodes int
	// ClusterNodes are the nodes of Options.Nodes as read, in order, duplicates included
	// (package fit and package plan use the last of each name), for a caller that plans
	// on them (instancetype plan and suggest); nil without nodes.
	ClusterNodes []cluster.Node

	origins map[string]*typeDef
	fits    map[string]fit.Result // of the catalog's instance types, with nodes
}

// Fit returns the fit check of the catalog's instance type named name against the nodes:
// how many nodes match its effective selector, how many are candidates, how many it fits.
// It reports false without nodes, and for an instance type whose selector conflicts with
// the extension's (which fits no node).
func (r *Report) Fit(name string) (fit.Result, bool) {
	res, ok := r.fits[name]
	return res, ok
}

// Skip is a document, or a whole file, that is not checked, and why.
type Skip struct {
	// File and Line are where it is: the document's first line, or 1 for a file.
	File string
	Line int
	// Reason says why it is not checked.
	Reason string
}

// Origin is where an instance type of the catalog is defined.
type Origin struct {
	// File and Line are the place of its metadata.name.
	File string
	Line int
	// Cluster reports an instance type of Options.Catalog, the cluster's.
	Cluster bool
}

// Origin returns where the instance type of the catalog named name is defined: the
// definition in effect, the last one given. It reports false for the built-in default and
// for names the catalog lacks.
func (r *Report) Origin(name string) (Origin, bool) {
	t, ok := r.origins[name]
	if !ok {
		return Origin{}, false
	}
	return Origin{File: t.file, Line: t.namePos().Line, Cluster: t.cluster}, true
}

// Placement is what one deployment or job gets, and where it is.
type Placement struct {
	// File and Line are where the workload is: its document's first line, or its own, for
	// a step of a pipeline or a deployment inside an endpoint.
	File string
	Line int
	// DocumentKind is the kind of the document it is in: KubernetesOnlineDeployment,
	// CommandJob, PipelineJob, SweepJob, AutoMLJob, BatchDeployment; for a deployment
	// written inside an endpoint (an older form), KubernetesOnlineDeployment, its Path
	// saying where (deployments[0]).
	DocumentKind azureml.Kind
	// Path is where the workload is in its document: nil for the document, jobs.train for a
	// pipeline step, deployments[0] for a deployment inside an endpoint.
	Path *field.Path
	// Workload is the workload as read.
	Workload *workload.Workload
	// Placement is what it gets: its instance type, node selector, requests and limits.
	resolve.Placement
	// Compute is the name of the compute target the workload runs on: its own, or its
	// pipeline's default; "" when it names none (an online deployment runs on its
	// endpoint's compute); as written when it is an expression bound when the job is
	// submitted (${{parent.inputs.compute}}) or a placeholder not filled in ($COMPUTE,
	// which has a finding of rule placeholder). ComputeType is
	// that compute's type when the computes given (Options.Computes) or among the inputs
	// say it: "kubernetes" (a workload on a compute of another type is skipped, not
	// placed); "" when the type is not known, and the workload is checked as if it ran on
	// Kubernetes.
	Compute, ComputeType string
	// Resolved reports a placement that holds: the instance type was found and nothing
	// about the workload is wrong. An unresolved placement has findings (or an instance
	// type the catalog does not hold, when names are not checked): a controller must not
	// build a pod from it.
	Resolved bool
	// Fit is the fit check of one pod of the placement against the nodes (Options.Nodes):
	// Fit.Fits is the number of nodes it can land on. It is nil without nodes, and when
	// the instance type was not found. A placement that fits no node is not Resolved.
	Fit *fit.Result
}
