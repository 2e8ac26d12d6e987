package python_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/internal/python"
)

func ExampleParse() {
	src := []byte(`from azure.ai.ml import command

job = command(
    command="python train.py",
    compute="k8s-compute",
    instance_type="cpu-small",
)
`)
	mod, err := python.Parse(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	python.Walk(mod, func(n python.Node) bool {
		if call, ok := n.(*python.Call); ok {
			fmt.Printf("call at %d:%d\n", call.Pos.Line, call.Pos.Col)
			for _, kw := range call.Keywords {
				if c, ok := kw.Value.(*python.Constant); ok && c.Kind == python.Str {
					fmt.Printf("  %s=%q at %d:%d\n", kw.Name, c.Value, c.Pos.Line, c.Pos.Col)
				}
			}
		}
		return true
	})
	_, err = python.Parse([]byte("command(compute='k8s', 'cpu-small')"))
	fmt.Println(err)
	// Output:
	// call at 3:6
	//   command="python train.py" at 4:12
	//   compute="k8s-compute" at 5:12
	//   instance_type="cpu-small" at 6:18
	// python: line 1, column 24: positional argument follows keyword argument
}
