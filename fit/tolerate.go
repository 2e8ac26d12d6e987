package fit

import "github.com/amlarc-go/instancetypes/cluster"

// tolerated reports whether one of tols tolerates the taint.
func tolerated(taint cluster.Taint, tols []cluster.Toleration) bool {
	for _, t := range tols {
		if t.Tolerates(taint) {
			return true
		}
	}
	return false
}

// The taints of Azure ML's Kubernetes compute (Azure Machine Learning's "Reference for
// configuring Kubernetes cluster", section "Supported Azure Machine Learning taints and
// tolerations": https://learn.microsoft.com/azure/machine-learning/reference-kubernetes),
// which a cluster's operator puts on nodes dedicated to Azure ML, and which the extension's
// pods tolerate: ml.azure.com/amlarc=true, the overall taint, by all of them; the workload
// taint, ml.azure.com/amlarc-workload=true, by the training and inference pods, not the
// extension's system services (which alone tolerate ml.azure.com/amlarc-system); and, by
// the workload pods created from that resource group, workspace or compute target,
// ml.azure.com/resource-group=<resource group>, ml.azure.com/workspace=<workspace> and
// ml.azure.com/compute=<compute name>. Any of the three effects.
const (
	TaintAMLArc         = "ml.azure.com/amlarc"
	TaintAMLArcWorkload = "ml.azure.com/amlarc-workload"
	TaintResourceGroup  = "ml.azure.com/resource-group"
	TaintWorkspace      = "ml.azure.com/workspace"
	TaintCompute        = "ml.azure.com/compute"
)

// Workload returns the tolerations of an Azure ML workload's pods (a training job's, an
// online or batch deployment's) as the reference above documents them: the overall and
// workload taints with their value true, and the resource-group, workspace and compute
// taints with the workload's own, for each that is known (not ""). What is not known is
// not tolerated: a node tainted for another workspace, or for one the caller cannot name,
// stays excluded, and the finding names its taint. For an instance type, which no compute
// is known for, Workload("", "", "").
func Workload(resourceGroup, workspace, compute string) []cluster.Toleration {
	tols := []cluster.Toleration{{Key: TaintAMLArc, Value: "true"}, {Key: TaintAMLArcWorkload, Value: "true"}}
	for _, t := range [...]cluster.Toleration{{Key: TaintResourceGroup, Value: resourceGroup}, {Key: TaintWorkspace, Value: workspace}, {Key: TaintCompute, Value: compute}} {
		if t.Value != "" {
			tols = append(tols, t)
		}
	}
	return tols
}
