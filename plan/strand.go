package plan

import "github.com/amlarc-go/instancetypes/instancetype"

// Strand is a resource of which an instance type leaves more than a share stranded on
// every node it may use and fits: the inefficiency validate --nodes reports (rule
// "stranded").
type Strand struct {
	// Resource is the resource stranded: cpu, memory or an extended resource.
	Resource instancetype.ResourceName
	// Requested reports that the instance type requests the resource (or its pods do,
	// through the per-pod overhead).
	Requested bool
	// Share is the least share of the usable amount left stranded, over those nodes.
	Share float64
	// At is the plan on the node where the least is left (Entry.Nodes is 1, Entry.Fits
	// its PerNode): the node, its pool, how many pods fit, what limits them, what is left
	// and what was usable.
	At Entry
	// Nodes is the number of nodes the instance type may use and fits.
	Nodes int
}

// Strands returns the resources of which the instance type leaves more than share (0.5:
// half) of what is usable stranded on every node it may use and fits at least one of its
// pods, in the order of LimitedBy's ties; none when it fits no node, or when some such
// node has none of the resource usable. The reason is that of Plan. Its cost is that of
// Plan.
func (p *Planner) Strands(it *instancetype.InstanceType, share float64) ([]Strand, string) {
	d, reason := p.demandOf(it)
	if reason != "" {
		return nil, reason
	}
	cands := p.ix.AppendCandidates(nil, d.fit)
	asked := map[instancetype.ResourceName]int64{}
	for _, r := range d.reqs {
		asked[r.name] = r.n
	}
	type track struct {
		ok    bool
		least float64
		node  int
		n     int64
		lim   int
	}
	tracks := make([]track, p.ncols)
	for c := range tracks {
		tracks[c].ok = strandable(p.colNames[c])
	}
	used := 0
	for _, i := range cands {
		n, lim := p.fitsOn(i, &d)
		if n == 0 {
			continue
		}
		used++
		row := p.free[i*p.ncols : (i+1)*p.ncols]
		for c := range tracks {
			t := &tracks[c]
			if !t.ok {
				continue
			}
			if row[c] <= 0 {
				t.ok = false
				continue
			}
			s := float64(row[c]-n*asked[p.colNames[c]]) / float64(row[c])
			if s <= share {
				t.ok = false
				continue
			}
			if used == 1 || s < t.least {
				t.least, t.node, t.n, t.lim = s, i, n, lim
			}
		}
	}
	if used == 0 {
		return nil, ""
	}
	var out []Strand
	for c, t := range tracks {
		if !t.ok {
			continue
		}
		name := p.colNames[c]
		_, requested := asked[name]
		e := Entry{InstanceType: it.Name, Pool: p.pools[p.pool[t.node]], Nodes: 1, PerNode: t.n, Fits: t.n, Node: p.nodes[t.node].Name}
		if t.lim >= 0 {
			e.LimitedBy = d.reqs[t.lim].name
		}
		e.Stranded, e.Usable = p.left(t.node, t.n, &d)
		out = append(out, Strand{Resource: name, Requested: requested, Share: t.least, At: e, Nodes: used})
	}
	sortStrands(out)
	return out, ""
}

func sortStrands(s []Strand) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && compareResources(s[j].Resource, s[j-1].Resource) < 0; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// PerPod returns the per-pod overhead of resource name in the scheduler's units.
func (p *Planner) PerPod(name instancetype.ResourceName) int64 { return p.perPod[name] }
