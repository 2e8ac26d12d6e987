package source

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"

	sigsjson "sigs.k8s.io/json"
)

// A long list (a List or an InstanceTypeList of thousands of items, as kubectl get -o yaml
// prints a large cluster's nodes) is read item by item, so that memory holds the values of
// one run of items at a time and not the parse of the whole. The values are still what
// sigs.k8s.io/yaml makes of the text, run by run, and they are the values of the whole
// document, for a reason that holds of the text alone:
//
// The document is cut at lines, where the YAML reader is at the same place reading the
// whole document and reading a part alone: the header (the lines before "items:", a key at
// the top of the mapping), runs of items (each starting with "- " at the items'
// indentation), and the trailer (the top-level keys after them). Each part is converted
// alone, and must read alone as what it is: the header and trailer as mappings without
// "items", each run as a list of exactly as many items as it has "- " lines. A part that
// starts or ends inside a scalar or a flow collection (a quoted string whose next line
// begins with "- ") does not read alone, and one that uses an anchor of another part
// refers to an unknown anchor: then the document is converted whole, as any other, within
// MaxDocument. Reading a part alone, the reader goes through the same states as it goes
// through reading that part of the whole, so each part's values are the whole's.

// chunkSize is about the size of a run of items converted at once: a variable, for tests.
var chunkSize = 256 << 10

// long is the items of a long list, in runs.
type long struct {
	chunks []*chunk
	items  int
	dups   bool
	// lazy: the runs are converted as Items reaches them; problem is set when one does not
	// read alone.
	lazy    bool
	problem *Problem
}

// chunk is a run of items of a long list.
type chunk struct {
	text   []byte   // YAML: the lines of the run; JSON: one item
	at     Position // where text starts
	first  int      // the index of its first item
	count  int
	json   []byte // its value: a JSON list of the items (YAML), or the item (JSON)
	dups   bool
	isJSON bool
	// refused: kubectl refuses the list at this item, as it decodes it (kubectlDecodes).
	refused bool

	treeOnce sync.Once
	tree     *tree
}

func (c *chunk) parsed() *tree {
	c.treeOnce.Do(func() {
		if c.isJSON {
			c.tree = parseJSON(c.text, c.at)
		} else {
			c.tree = parse(c.text, c.at)
		}
	})
	return c.tree
}

// chunkOf returns the chunk that holds item i, and the item's index in it.
func (l *long) chunkOf(i int) (*chunk, int) {
	lo, hi := 0, len(l.chunks)
	for lo < hi {
		m := (lo + hi) / 2
		if c := l.chunks[m]; i < c.first {
			hi = m
		} else if i >= c.first+c.count {
			lo = m + 1
		} else {
			return c, i - c.first
		}
	}
	return nil, 0
}

// Items calls fn with each item of the document's list in order, as decoded values, until
// fn returns false. For a document that is not Long, it calls fn with the items of
// Value's "items" when that is a list. A long list's items can be read once: each run's
// values are let go as they are handed over. When a run of a list too long to be read
// whole does not read alone (see long.go), or past MaxItems items, Items stops there, and
// ItemsProblem says why.
func (d *Document) Items(fn func(i int, v any) bool) {
	if d.long == nil {
		m, _ := d.Value.(map[string]any)
		items, _ := m["items"].([]any)
		for i, v := range items {
			if i == maxItems {
				d.itemsProblem = tooManyItems(d.ItemPosition(i), len(items))
				break
			}
			if !fn(i, v) {
				break
			}
		}
		return
	}
	l := d.long
	batch := max(runtime.GOMAXPROCS(0), 1)
	for b := 0; b < len(l.chunks); b += batch {
		run := l.chunks[b:min(b+batch, len(l.chunks))]
		if run[0].first >= maxItems {
			l.problem = tooManyItems(d.ItemPosition(run[0].first), l.items)
			return
		}
		if l.lazy {
			if at, ok := convertEach(run); !ok {
				l.problem = &Problem{Position: at.at, Kind: Limit, Message: "the items from here on are not read: the list is too large to " +
					"read whole (more than " + megabytes(maxDocument) + "), and the items from here, read alone, are not what they are in the whole " +
					"(an anchor of an earlier item, or a string or flow collection across items, makes that so)"}
				return
			}
			for _, c := range run {
				l.dups = l.dups || c.dups
			}
		}
		for _, c := range run {
			v, err := jsonValue(c.json)
			c.json = nil
			if err != nil {
				return
			}
			if c.first >= maxItems {
				l.problem = tooManyItems(d.ItemPosition(c.first), l.items)
				return
			}
			if c.isJSON {
				if c.refused {
					// kubectl refuses the list, as it refuses any document that holds a
					// number it cannot convert: no item from here on is read.
					n := beyondFloat(c.text)
					l.problem = &Problem{Position: c.at, Kind: Refused, Message: numberRefused(n)}
					if t := c.parsed(); t.root != nil {
						if at := find(t.root, 0, isNumber(n)); at != nil {
							l.problem.Position = t.pos(at)
						}
					}
					return
				}
				if !fn(c.first, v) {
					return
				}
				continue
			}
			items, _ := v.([]any)
			for k, item := range items {
				items[k] = nil
				if c.first+k == maxItems {
					l.problem = tooManyItems(d.ItemPosition(c.first+k), l.items)
					return
				}
				if !fn(c.first+k, item) {
					return
				}
			}
		}
	}
}

// ItemsProblem is why Items stopped before the end of the list, nil when it did not.
func (d *Document) ItemsProblem() *Problem {
	if d.long == nil {
		return d.itemsProblem
	}
	return d.long.problem
}

// tooManyItems is the problem of a list of n items, more than MaxItems, whose item
// MaxItems is at at.
func tooManyItems(at Position, n int) *Problem {
	return &Problem{Position: at, Kind: Limit, Message: "the list has " + itoa(n) + " items, more than " + itoa(maxItems) +
		": the items from here on are not read"}
}

// ItemCount is the number of items of a long list (0 for another document).
func (d *Document) ItemCount() int {
	if d.long == nil {
		return 0
	}
	return d.long.items
}

// ItemPosition returns where item i of the document's list starts: PositionOf items[i].
func (d *Document) ItemPosition(i int) Position {
	if d.long != nil {
		if c, _ := d.long.chunkOf(i); c != nil && c.isJSON {
			return c.at
		}
	}
	return d.PositionOf("items[" + itoa(i) + "]")
}

// longList cuts the YAML document d into its header, runs of items and trailer (see above),
// the runs of about a quarter of limit bytes at most, and converts each. It reports false, leaving d as it was, for a document it cannot cut
// or whose parts do not each read alone as what they are.
func (s *scanner) longList(d *Document, limit int) bool {
	text := d.text
	var header, trailer []byte
	var starts []int // the offsets of the items' "- " lines
	indent := -1     // the items' indentation
	state := 0       // 0 header, 1 after "items:", 2 items, 3 trailer
	end := 0         // where the items end
	for off := 0; off < len(text); {
		nl := bytes.IndexByte(text[off:], '\n')
		if nl < 0 {
			nl = len(text) - off
		}
		l := text[off : off+nl]
		lineStart := off
		off += nl + 1
		ind := 0
		for ind < len(l) && l[ind] == ' ' {
			ind++
		}
		body := bytes.TrimRight(l[ind:], " \r")
		if len(body) == 0 || body[0] == '#' {
			continue // blank, or a comment
		}
		if body[0] == '\t' || body[0] == '%' {
			return false
		}
		item := body[0] == '-' && (len(body) == 1 || body[1] == ' ')
		if ind == 0 && !item && !isBlockKey(body) {
			return false // at the top, only keys of a block mapping (and the items)
		}
		switch state {
		case 0:
			if ind == 0 && isItemsKey(body) {
				header, state = text[:lineStart], 1
			} else if ind == 0 && item {
				return false
			}
		case 1:
			if !item {
				return false
			}
			indent, state = ind, 2
			starts = append(starts, lineStart)
		case 2:
			switch {
			case ind > indent:
			case ind == indent && item:
				starts = append(starts, lineStart)
			case ind == 0:
				end, state = lineStart, 3
			default:
				return false
			}
		case 3:
			if ind == 0 && (item || isItemsKey(body)) {
				return false
			}
		}
	}
	if state < 2 {
		return false
	}
	if state == 2 {
		end = len(text)
	}
	trailer = text[end:]
	// The runs of items, each about chunkSize.
	l := &long{items: len(starts)}
	line := d.textAt().Line + bytes.Count(text[:starts[0]], []byte("\n"))
	for i := 0; i < len(starts); {
		j := i + 1
		for j < len(starts) && starts[j]-starts[i] < min(chunkSize, max(limit/4, 1)) {
			j++
		}
		stop := end
		if j < len(starts) {
			stop = starts[j]
		}
		c := &chunk{text: text[starts[i]:stop], at: Position{line, 1}, first: i, count: j - i}
		line += bytes.Count(c.text, []byte("\n"))
		l.chunks = append(l.chunks, c)
		i = j
	}
	// The header alone, and with the trailer: a mapping without items.
	if v, _, err := yamlValue(header); err != nil || !isMapping(v, false) {
		return false
	}
	top, dups, err := yamlValue(append(header[:len(header):len(header)], trailer...))
	if err != nil || !isMapping(top, true) {
		return false
	}
	if top == nil {
		top = map[string]any{}
	}
	l.dups = dups
	if len(text) > maxDocument {
		// Too large to convert whole: there is no reading to fall back on, and the runs are
		// converted as Items reaches them, a few at a time, so that memory holds their
		// values and not the whole's. A run that does not read alone ends Items there,
		// with a problem (ItemsProblem).
		l.lazy = true
	} else if !convertChunks(l.chunks) {
		return false
	}
	for _, c := range l.chunks {
		l.dups = l.dups || c.dups
	}
	d.Value, d.long = top, l
	return true
}

// isItemsKey reports the line of the key items at the top of a mapping, whose value starts
// on the next line.
func isItemsKey(body []byte) bool {
	rest, ok := bytes.CutPrefix(body, []byte("items:"))
	return ok && (len(rest) == 0 || rest[0] == ' ' && bytes.TrimSpace(rest)[0] == '#' || len(bytes.TrimSpace(rest)) == 0)
}

// isBlockKey reports a line that starts with a plain key of a block mapping: a word, then
// ":" and a blank or the end of the line (not a flow collection, a quoted or complex key,
// a directive or a document marker).
func isBlockKey(body []byte) bool {
	i := 0
	for i < len(body) && (body[i] >= 'a' && body[i] <= 'z' || body[i] >= 'A' && body[i] <= 'Z' ||
		body[i] >= '0' && body[i] <= '9' || body[i] == '_' || body[i] == '$' || i > 0 && (body[i] == '-' || body[i] == '.' || body[i] == '/')) {
		i++
	}
	return i > 0 && i < len(body) && body[i] == ':' && (i+1 == len(body) || body[i+1] == ' ')
}

// isMapping reports a value that is a mapping without items, or null when nullOK.
func isMapping(v any, nullOK bool) bool {
	if v == nil {
		return true
	}
	m, ok := v.(map[string]any)
	_, items := m["items"]
	return ok && !items
}

// convertChunks converts each run of items, on as many goroutines as there are
// processors, and reports whether each read alone as a list of its items.
func convertChunks(chunks []*chunk) bool {
	_, ok := convertEach(chunks)
	return ok
}

// convertEach converts each run of items, on as many goroutines as there are processors,
// and returns the first that does not read alone as a list of its items, if one does not.
func convertEach(chunks []*chunk) (*chunk, bool) {
	var wg sync.WaitGroup
	next := make(chan *chunk)
	failed := make([]bool, len(chunks))
	index := make(map[*chunk]int, len(chunks))
	for i, c := range chunks {
		index[c] = i
	}
	for range min(runtime.GOMAXPROCS(0), len(chunks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				j, dups, good := convertChunk(c.text, c.count)
				if !good {
					failed[index[c]] = true
					continue
				}
				c.json, c.dups = j, dups
			}
		}()
	}
	for _, c := range chunks {
		next <- c
	}
	close(next)
	wg.Wait()
	for i, bad := range failed {
		if bad {
			for _, c := range chunks {
				c.json = nil
			}
			return chunks[i], false
		}
	}
	return nil, true
}

// convertChunk converts a run of n items, and reports whether it reads as a list of n.
func convertChunk(text []byte, n int) (j []byte, dups, ok bool) {
	if nodeBound(text) > maxNodes {
		return nil, false, false
	}
	j, dups, err := yamlJSON(text)
	if err != nil {
		return nil, false, false
	}
	var items []json.RawMessage
	if json.Unmarshal(j, &items) != nil || len(items) != n {
		return nil, false, false
	}
	return j, dups, true
}

// longJSON reads the JSON value of d, a long list, item by item: the mapping's other keys
// as values, each item of "items" as its own run. It reports false, leaving d as it was,
// for a value that is not a mapping with a list of items.
func (s *scanner) longJSON(d *Document) bool {
	text := d.text
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	top := map[string]any{}
	l := &long{}
	lc := lineCursor{text: text, line: d.Line}
	// A JSON value starts where its text does.
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := t.(string)
		if _, ok := top[key]; ok || key == "items" && l.chunks != nil {
			l.dups = true
		}
		if key != "items" {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return false
			}
			v, err := jsonValue(raw)
			refused, dups := kubectlDecodes(raw)
			if err != nil || refused {
				return false
			}
			top[key] = v
			l.dups = l.dups || dups
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return false
		}
		l.chunks, l.items = l.chunks[:0], 0
		for dec.More() {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return false
			}
			end := int(dec.InputOffset())
			start := end - len(raw)
			at := lc.position(start)
			if at.Line == d.Line {
				at.Column += d.Column - 1
			}
			c := &chunk{text: text[start:end], at: at, first: l.items, count: 1, json: text[start:end], isJSON: true}
			c.refused, c.dups = kubectlDecodes(raw)
			l.dups = l.dups || c.dups
			l.chunks = append(l.chunks, c)
			l.items++
		}
		if _, err := dec.Token(); err != nil {
			return false
		}
	}
	if l.chunks == nil {
		return false
	}
	d.Value, d.long = top, l
	return true
}

// kubectlDecodes decodes the JSON value raw as kubectl decodes a document it has read
// (sigs.k8s.io/json, as k8s.io/apimachinery/pkg/util/json calls it: every number converted
// to an int64 or a float64 as it is read, even one a later key replaces), and reports
// whether kubectl refuses it, and whether an object of it sets a key twice, as the API
// server's strict decoding finds it.
func kubectlDecodes(raw []byte) (refused, dups bool) {
	var v any
	strict, err := sigsjson.UnmarshalStrict(raw, &v, sigsjson.DisallowDuplicateFields)
	return err != nil, err == nil && len(strict) > 0
}
