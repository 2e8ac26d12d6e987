package main

import (
	"strings"
	"testing"
)

const want = `WORKLOAD                   INSTANCE TYPE                   NODE SELECTOR         REQUESTS                LIMITS
deployment.yaml            myinstancetypename              mylabel=mylabelvalue  cpu=700m memory=1500Mi  cpu=1 memory=2Gi nvidia.com/gpu=1
deployment_resources.yaml  cpusmall                        -                     cpu=0.1 memory=0.2Gi    cpu=0.2 memory=0.5Gi
job.yaml                   myinstancetypename              mylabel=mylabelvalue  cpu=700m memory=1500Mi  cpu=1 memory=2Gi nvidia.com/gpu=1
job train-small            cpusmall                        -                     cpu=100m memory=100Mi   cpu=2 memory=2Gi nvidia.com/gpu=0
deployment green           defaultinstancetype (built-in)  -                     cpu=100m memory=2Gi     cpu=2 memory=2Gi
`

// Run with -race: the workers read the store while the informer writes to it.
func TestRun(t *testing.T) {
	for range 3 { // the interleaving differs from run to run; the outcome must not
		var out strings.Builder
		if err := run(t.Context(), "", &out); err != nil {
			t.Fatalf("run: %v", err)
		}
		if got := out.String(); got != want {
			t.Fatalf("run output:\n%s\nwant:\n%s", got, want)
		}
	}
}
