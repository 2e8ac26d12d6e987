package cli_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

// Read the settings of a config file, as the command reads .instancetype.yaml: each
// problem is a finding at its line, and the setting is left out.
func ExampleParseConfig() {
	c, _ := cli.ParseConfig(".instancetype.yaml", []byte(`nodeSelector: {agentpool: cpupool}
exclude: [charts]
ignore: [R10=legacy/*, R99]
`))
	fmt.Println(c.NodeSelector, c.Exclude, c.Ignore[0].Rule, c.Ignore[0].Glob, c.Ignore[0].Source)
	for _, f := range c.ConfigFindings {
		fmt.Println(f)
	}
	// Output:
	// map[agentpool:cpupool] [charts] R10 legacy/* .instancetype.yaml:3
	// .instancetype.yaml:3: ignore[1]: Invalid value: "R99": unknown rule "R99" ('instancetype rules' lists the rules) [config]
}
