package fit_test

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/selector"
)

// AppendCandidates lists exactly the nodes Check counts as candidates: as many as
// Result.Candidates, and the same ones a naive scan picks (the last of each name, labels
// matching, schedulable, no NoSchedule or NoExecute taint), by their position in the input.
func TestAppendCandidatesAgreesWithCheck(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genCluster(300).Draw(t, "cluster")
		d := genDemand.Draw(t, "demand")
		if rapid.Bool().Draw(t, "sparse") && len(nodes) > 0 {
			d.NodeSelector = map[string]string{"kubernetes.io/hostname": hostname(rapid.IntRange(0, len(nodes)-1).Draw(t, "host"))}
		}
		ix := fit.NewIndex(nodes)
		prefix := []int{-7}
		got := ix.AppendCandidates(slices.Clone(prefix), d)
		if got[0] != -7 {
			t.Fatalf("AppendCandidates overwrote dst: %v", got)
		}
		got = got[1:]
		if r := ix.Check(d); len(got) != r.Candidates {
			t.Fatalf("AppendCandidates = %d nodes, Check counts %d candidates", len(got), r.Candidates)
		}
		last := map[string]int{}
		for i, x := range nodes {
			if x.Name != "" {
				last[x.Name] = i
			}
		}
		var want []int
		for i, x := range nodes {
			if x.Name != "" && last[x.Name] != i {
				continue
			}
			if selector.Matches(d.NodeSelector, x.Labels) && !x.Unschedulable && len(excludingTaints(x, d.Tolerations)) == 0 {
				want = append(want, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("AppendCandidates = %v; want %v", got, want)
		}
	})
}

func TestAppendCandidatesOfNothing(t *testing.T) {
	var ix *fit.Index
	if got := ix.AppendCandidates(nil, fit.Demand{}); got != nil {
		t.Errorf("nil index: %v", got)
	}
	ix = fit.NewIndex([]cluster.Node{{Name: "a", Labels: map[string]string{"pool": "x"}}})
	if got := ix.AppendCandidates(nil, fit.Demand{NodeSelector: map[string]string{"pool": "y"}}); len(got) != 0 {
		t.Errorf("no node carries pool=y: %v", got)
	}
	if got := fmt.Sprint(ix.AppendCandidates(nil, fit.Demand{})); got != "[0]" {
		t.Errorf("empty selector: %s", got)
	}
}
