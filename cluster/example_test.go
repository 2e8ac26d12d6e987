package cluster_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/cluster"
)

// A toleration written as the instancetype command's --tolerate takes it, against the
// taints of a node pool dedicated to GPUs.
func ExampleParseToleration() {
	tol, err := cluster.ParseToleration("sku=gpu:NoSchedule")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, taint := range []cluster.Taint{
		{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule},
		{Key: "sku", Value: "gpu", Effect: cluster.NoExecute},
		{Key: "spot", Value: "true", Effect: cluster.PreferNoSchedule},
	} {
		fmt.Printf("%v excludes: %v, %v tolerates it: %v\n", taint, taint.Excludes(), tol, tol.Tolerates(taint))
	}
	_, err = cluster.ParseToleration("sku=gpu:Never")
	fmt.Println(err)
	// Output:
	// sku=gpu:NoSchedule excludes: true, sku=gpu:NoSchedule tolerates it: true
	// sku=gpu:NoExecute excludes: true, sku=gpu:NoSchedule tolerates it: false
	// spot=true:PreferNoSchedule excludes: false, sku=gpu:NoSchedule tolerates it: false
	// effect "Never": want NoSchedule, PreferNoSchedule or NoExecute
}
