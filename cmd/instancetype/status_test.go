package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestResolveStatusFollowsFit: a placement that fits no node is not ok, in text (STATUS
// beside NODES) and in JSON ("resolved" beside "fits"); one that fits some node and has
// no finding is.
func TestResolveStatusFollowsFit(t *testing.T) {
	dir := workdir(t)
	args := []string{"resolve", "--nodes", "examples/cluster/nodes.yaml", "--catalog", "examples/cluster/instancetypes.yaml", "examples/manifests", "azureml/command-job.yml"}
	r := runCommand(t, dir, "", args...)
	lines := strings.Split(r.stdout, "\n")
	// The columns are aligned: STATUS and NODES start where their headings do (other
	// columns, such as COMPUTE, may hold several words).
	statusAt, nodesAt := strings.Index(lines[0], "STATUS"), strings.Index(lines[0], "NODES")
	if statusAt < 0 || nodesAt < statusAt || strings.TrimSpace(lines[0][nodesAt:]) != "NODES" {
		t.Fatalf("header %q", lines[0])
	}
	var ok, unfit int
	for _, l := range lines[1:] {
		if len(l) <= nodesAt || l[statusAt-1] != ' ' || l[nodesAt-1] != ' ' {
			continue // a finding, or the end
		}
		status, nodes := strings.TrimSpace(l[statusAt:nodesAt]), strings.TrimSpace(l[nodesAt:])
		if !strings.Contains(nodes, "/") {
			continue
		}
		switch {
		case strings.HasPrefix(nodes, "0/"):
			unfit++
			if status != "unresolved" {
				t.Errorf("fits no node but STATUS %s: %s", status, l)
			}
		case status == "ok":
			ok++
		}
	}
	if ok == 0 || unfit == 0 {
		t.Fatalf("%d placements ok, %d fitting no node; want some of each:\n%s", ok, unfit, r.stdout)
	}

	r = runCommand(t, dir, "", append([]string{"resolve", "-o", "json"}, args[1:]...)...)
	var v struct {
		Placements []struct {
			Name     string `json:"name"`
			Resolved bool   `json:"resolved"`
			Fits     *int   `json:"fits"`
		} `json:"placements"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatal(err)
	}
	var jsonOK, jsonUnfit int
	for _, p := range v.Placements {
		if p.Fits != nil && *p.Fits == 0 {
			jsonUnfit++
			if p.Resolved {
				t.Errorf("placement %s fits no node but is resolved", p.Name)
			}
		}
		if p.Resolved {
			jsonOK++
		}
	}
	if jsonOK != ok || jsonUnfit != unfit {
		t.Errorf("JSON: %d resolved, %d fitting no node; text: %d ok, %d", jsonOK, jsonUnfit, ok, unfit)
	}
}
