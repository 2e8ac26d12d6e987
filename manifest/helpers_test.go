package manifest_test

import (
	"bytes"
	"fmt"
)

// bigList returns an InstanceTypeList of n valid items, each with a node selector,
// requests and limits, in flow and block style.
func bigList(n int) []byte {
	var b bytes.Buffer
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, `- metadata:
    name: it-%d
  spec:
    nodeSelector:
      pool: pool-%d
    resources:
      requests: {cpu: "%dm", memory: "%dMi"}
      limits: {cpu: "%d", memory: "%dGi", nvidia.com/gpu: %d}
`, i, i%7, 100+i%900, 256+i%1024, 1+i%8, 2+i%16, i%2)
	}
	return b.Bytes()
}
