package selector

import "strings"

// labelEntry is a failing entry of a label map: its key and value, and which of them
// fails, collected once so that nothing is looked up or checked again.
type labelEntry struct {
	k, v             string
	badKey, badValue bool
}

// insertionMax is the size of a group of entries that sortEntries sorts by insertion.
const insertionMax = 24

// sortEntries sorts es by key; keys must be unique (a map's). It sorts most significant
// byte first: the entries are dealt into groups by their key's byte at a depth, which
// puts the groups in order, and each group is then sorted from the next byte on, until
// a group is small enough to sort by insertion. Its time is linear in the bytes that
// tell the keys apart, where a comparison sort makes n·log n comparisons of keys (which
// makes 30,000 keys cost thirteen times what 3,000 do, not ten). The largest group is
// sorted in the loop and only the others by recursion, each at most half as large as
// the one it comes from: the recursion is at most log₂ n deep whatever the keys.
func sortEntries(es []labelEntry) {
	if len(es) <= insertionMax {
		insertionSort(es, 0)
		return
	}
	sortFrom(es, make([]labelEntry, len(es)), make([]uint16, len(es)), 0)
}

// sortFrom sorts es, whose keys share their first depth bytes, using scratch (as long as
// es) to deal them into groups and bytes (as long too) to hold each key's byte at the
// depth, read once.
func sortFrom(es, scratch []labelEntry, bytes []uint16, depth int) {
	for len(es) > insertionMax {
		// count[0] is the keys that end at depth, count[b+1] those whose byte there is b.
		var count [257]int
		for i := range es {
			b := keyByte(es[i].k, depth)
			bytes[i] = uint16(b)
			count[b]++
		}
		if first := bytes[0]; count[first] == len(es) {
			if first == 0 {
				return // every key ends here: they are equal
			}
			// One group: the byte tells none apart. Go past every byte the keys share,
			// reading each key once.
			depth = sharedPrefix(es, depth+1)
			continue
		}
		var next [257]int
		largest, sum := 0, 0
		for b, n := range count {
			next[b] = sum
			sum += n
			if n > count[largest] {
				largest = b
			}
		}
		for i := range es {
			b := bytes[i]
			scratch[next[b]] = es[i]
			next[b]++
		}
		copy(es, scratch)
		// Group 0 holds one key at most (keys are unique): it needs no sorting.
		var big, bigScratch []labelEntry
		var bigBytes []uint16
		lo := count[0]
		for b := 1; b < len(count); b++ {
			n := count[b]
			switch {
			case b == largest:
				big, bigScratch, bigBytes = es[lo:lo+n], scratch[lo:lo+n], bytes[lo:lo+n]
			case n > insertionMax:
				sortFrom(es[lo:lo+n], scratch[lo:lo+n], bytes[lo:lo+n], depth+1)
			case n > 1:
				insertionSort(es[lo:lo+n], depth+1)
			}
			lo += n
		}
		es, scratch, bytes = big, bigScratch, bigBytes
		depth++
	}
	insertionSort(es, depth)
}

// sharedPrefix returns how many first bytes the keys of es share, knowing they share at
// least depth.
func sharedPrefix(es []labelEntry, depth int) int {
	n := len(es[0].k)
	for _, e := range es[1:] {
		n = min(n, len(e.k))
		i := depth
		for i < n && e.k[i] == es[0].k[i] {
			i++
		}
		n = i
	}
	return n
}

// keyByte returns 0 when k ends before depth, else 1 more than its byte there.
func keyByte(k string, depth int) int {
	if depth < len(k) {
		return int(k[depth]) + 1
	}
	return 0
}

// insertionSort sorts the few entries es, whose keys share their first depth bytes.
func insertionSort(es []labelEntry, depth int) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && strings.Compare(es[j].k[depth:], es[j-1].k[depth:]) < 0; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}
