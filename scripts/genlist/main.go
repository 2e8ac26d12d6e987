// Command genlist writes an InstanceTypeList of n valid, distinct instance types to
// standard output, for the end-to-end measurement of scripts/e2e.sh:
//
//	go run ./scripts/genlist -n 20000 > list.yaml
//
// Item i is named it-i and has a one-label node selector, cpu and memory requests below
// their limits, and a GPU limit of 0 or 1, in the block style of the source document's
// examples; the values vary with i so that no two items are alike. The output is the same
// for the same n.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
)

func main() {
	n := flag.Int("n", 20000, "number of items")
	flag.Parse()
	if *n < 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: genlist [-n COUNT] > FILE")
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprint(w, "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range *n {
		fmt.Fprintf(w, `  - metadata:
      name: it-%d
    spec:
      nodeSelector:
        pool: pool-%d
      resources:
        requests:
          cpu: "%dm"
          memory: "%dMi"
        limits:
          cpu: "%d"
          memory: "%dGi"
          nvidia.com/gpu: %d
`, i, i%7, 100+i%900, 256+i%1024, 1+i%8, 2+i%16, i%2)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "genlist:", err)
		os.Exit(1)
	}
}
