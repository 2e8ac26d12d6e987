// Command sigsdecode is the baseline of scripts/e2e.sh: the bare decode a Go program would
// otherwise do to read an InstanceTypeList. It reads FILE, unmarshals it with
// sigs.k8s.io/yaml (YAML to JSON, then encoding/json) into an instancetype.InstanceTypeList,
// and prints the number of items. It checks nothing: no strictness, no positions, no rules.
//
//	go run ./scripts/sigsdecode FILE
package main

import (
	"fmt"
	"os"

	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/instancetype"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: sigsdecode FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "sigsdecode:", err)
		os.Exit(2)
	}
	var list instancetype.InstanceTypeList
	if err := yaml.Unmarshal(data, &list); err != nil {
		fmt.Fprintln(os.Stderr, "sigsdecode:", err)
		os.Exit(1)
	}
	fmt.Println(len(list.Items))
}
