// Command gennodes writes what kubectl get nodes -o yaml prints for a large cluster to
// standard output (internal/fixtures.NodeList), for the memory measurement of
// scripts/nodes.sh:
//
//	go run ./scripts/gennodes -n 3000 -images 50 > nodes.yaml
//
// 3,000 nodes of 50 container images each make 51 MB. The output is the same for the same
// flags.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/amlarc-go/instancetypes/internal/fixtures"
)

func main() {
	n := flag.Int("n", 3000, "number of nodes")
	images := flag.Int("images", 50, "container images listed for each node (up to 50)")
	flag.Parse()
	if *n < 0 || *images < 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gennodes [-n COUNT] [-images COUNT] > FILE")
		os.Exit(2)
	}
	if _, err := os.Stdout.Write(fixtures.NodeList(*n, *images)); err != nil {
		fmt.Fprintln(os.Stderr, "gennodes:", err)
		os.Exit(1)
	}
}
