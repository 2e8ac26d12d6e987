package lint

import (
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// MaxInstanceTypes is the most instance types a run keeps for its catalog: those of
// Options.Catalog, then those of the inputs, in the order of the inputs (files as given
// and walked, and in each file as written). An instance type past it is still checked
// alone (its decoding, the rules of package validate, its fit), but it is not in the
// catalog: no workload is resolved against it, its name is not checked against the others,
// and Report.Catalog does not hold it. Each file holding some has one finding of type
// InputLimit (rule input-limit), at the first. No cluster has near as many; the
// limit bounds the memory of a run of millions of them (each kept costs about 2 KB).
const MaxInstanceTypes = 25_000

// maxInstanceTypes is MaxInstanceTypes, a variable for tests.
var maxInstanceTypes = MaxInstanceTypes

// compact returns what the catalog keeps of an instance type: its name and spec, not the
// rest of its metadata, which nothing reads once it is checked.
func compact(it *instancetype.InstanceType) *instancetype.InstanceType {
	return &instancetype.InstanceType{ObjectMeta: metav1.ObjectMeta{Name: it.Name}, Spec: it.Spec}
}

// keptTypes are the instance types of the inputs a run keeps for its catalog: the first
// room of them in the order of the inputs, whatever the order the files are read in. When
// one more than room are held, the last in that order is let go: so the types held are
// always the first room of those met, and once every file is read, the first room of all.
// It is safe for concurrent use.
type keptTypes struct {
	mu    sync.Mutex
	room  int
	n     int // held, in all files
	files [][]*typeDef
	// last is the highest index of files holding some, or -1.
	last int
	// dropped[i] is the first instance type of file i let go, when some were.
	dropped []*typeDef
	// seq[i] counts the instance types of file i added, in order.
	seq []int
}

func newKeptTypes(files, room int) *keptTypes {
	return &keptTypes{room: room, files: make([][]*typeDef, files), dropped: make([]*typeDef, files), seq: make([]int, files), last: -1}
}

// add keeps t, an instance type of file i, which comes after those of the file added
// before it.
func (k *keptTypes) add(i int, t *typeDef) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.files[i] = append(k.files[i], t)
	t.seq = k.seq[i]
	k.seq[i]++
	k.n++
	k.last = max(k.last, i)
	for k.n > k.room {
		j := k.last
		gone := k.files[j][len(k.files[j])-1]
		k.files[j] = k.files[j][:len(k.files[j])-1]
		k.n--
		if p := k.dropped[j]; p == nil || gone.seq < p.seq {
			k.dropped[j] = gone
		}
		for k.last >= 0 && len(k.files[k.last]) == 0 {
			k.last--
		}
	}
}

// tooMany is the finding of a file some instance types of which are not in the catalog,
// at the first of them.
func tooMany(file string, at Position) Finding {
	f := fileProblemAt(file, at.Line, InputLimit, fmt.Sprintf(
		"instance type left out of the catalog, with those after it: more than %d instance types in all "+
			"(the most a run keeps); each is still checked alone, but no workload is resolved against it and its name is not checked against the others",
		maxInstanceTypes))
	f.Position = at
	return f
}

// MaxPlacements is the most placements a report lists (Report.Placements): the workloads
// past it are still resolved and checked, their findings reported and counted in
// Report.Workloads, and the first of them has one finding of type InputLimit
// (rule input-limit). It bounds the memory of a run over millions of workloads (a
// placement costs about 1 KB until the report is printed).
const MaxPlacements = 50_000

// maxPlacements is MaxPlacements, a variable for tests.
var maxPlacements = MaxPlacements

// placementsCut is the finding of the first workload left out of Report.Placements.
func placementsCut(file string, line int) Finding {
	return fileProblemAt(file, line, InputLimit, fmt.Sprintf(
		"workload left out of the placements listed, with those after it: more than %d workloads (the most a report lists); each is still resolved and checked", maxPlacements))
}
