package pysdk_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/pysdk"
)

func ExampleReadScript() {
	src := []byte(`from azure.ai.ml import KubernetesOnlineDeployment, ResourceRequirementsSettings, ResourceSettings
import os

limits = ResourceSettings(cpu="2", memory="4Gi", gpu=1)
blue = KubernetesOnlineDeployment(
    name="blue",
    instance_type="gpu-a100",
    resources=ResourceRequirementsSettings(
        requests=ResourceSettings(cpu=os.environ["CPU"], memory="2Gi"),
        limits=limits,
    ),
)
`)
	res, err := pysdk.ReadScript(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, it := range res.Workloads {
		w := it.Workload
		fmt.Printf("%s %s at line %d: instance type %q\n", it.Class, w.Name, it.Pos.Line, w.InstanceType)
		fmt.Printf("  limits: cpu %s, memory %s, gpu %s (line %d)\n", w.Resources.Limits["cpu"], w.Resources.Limits["memory"],
			w.Resources.Limits["nvidia.com/gpu"], it.At["resources.limits[nvidia.com/gpu]"].Line)
	}
	for _, u := range res.NotLiteral {
		fmt.Printf("not read: %s at line %d: %s\n", u.Path, u.Pos.Line, u.Why)
	}
	// Output:
	// KubernetesOnlineDeployment blue at line 5: instance type "gpu-a100"
	//   limits: cpu 2, memory 4Gi, gpu 1 (line 4)
	// not read: resources.requests[cpu] at line 9: a subscript
}

func ExampleReadNotebook() {
	nb := []byte(`{
 "cells": [
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": [
    "from azure.ai.ml import command\n",
    "instance_type = \"gpu-a100\"\n"
  ]},
  {"cell_type": "markdown", "metadata": {}, "source": ["## Train\n"]},
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": [
    "job = command(\n",
    "    compute=\"k8s-compute\",\n",
    "    instance_type=instance_type,\n",
    ")\n"
  ]}
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}`)
	res, err := pysdk.ReadNotebook(nb)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, it := range res.Workloads {
		at := it.At["resources.instance_type"]
		fmt.Printf("%s on %s: instance type %q, written on line %d of the .ipynb (cell %d, line %d)\n",
			it.Class, it.Workload.Compute, it.Workload.InstanceType, at.Line, at.Cell, at.CellLine)
	}
	// Output:
	// command on k8s-compute: instance type "gpu-a100", written on line 5 of the .ipynb (cell 1, line 2)
}
