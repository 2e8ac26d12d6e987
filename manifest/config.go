package manifest

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/amlarc-go/instancetypes/internal/clip"
)

// Config is a config file of the instancetype command (.instancetype.yaml) as written:
// each setting with where it is, for the findings about its value. Package lint gives the
// values their meaning (lint.Config); here they are only decoded.
//
//	catalog: [cluster/instancetypes.yaml]   # or one path, without the list
//	nodes: [cluster/nodes.yaml]
//	computes: [cluster/computes.json]
//	tolerations: [dedicated=ml:NoSchedule]
//	nodeSelector: {pool: ml}
//	strictSubset: false
//	exclude: [templates, charts/*]
//	ignore: [R10, R9=legacy/*]
type Config struct {
	// Catalog, Nodes, Computes, Tolerations, Exclude and Ignore are the items of the
	// lists of those names (or the one value written without a list), in file order.
	Catalog, Nodes, Computes, Tolerations, Exclude, Ignore []Setting
	// NodeSelector are the pairs of nodeSelector, in file order, each with its Key.
	NodeSelector []Setting
	// StrictSubset is the value of strictSubset, nil when it is not set.
	StrictSubset *bool
}

// A Setting is one value of a config file.
type Setting struct {
	// Key is the key of an entry of a mapping (nodeSelector), "" for an item of a list.
	Key string
	// Value is the value, a string.
	Value string
	// Path is where it is in the file, in the notation of field paths: ignore[2],
	// nodeSelector[pool].
	Path string
	// Position is where it is: the item, or the key of an entry.
	Position
}

// configFields are the keys of a config file.
var configFields = []string{"catalog", "nodes", "computes", "tolerations", "nodeSelector", "strictSubset", "exclude", "ignore"}

// ParseConfig decodes a config file, named name in findings, as strictly as every file is
// read (read as kubectl reads YAML: unknown keys, duplicate keys, values of the wrong type
// are findings at their place). It never fails: what cannot be read is a finding, and the
// settings it could read are returned. The file holds one document; an empty one sets
// nothing.
func ParseConfig(name string, data []byte) (*Config, []Finding) {
	cfg := &Config{}
	var out []Finding
	problem := func(pos Position, t FindingType, detail string) {
		out = append(out, fileProblem(name, pos, t, detail))
	}
	if len(data) > MaxFileSize {
		problem(Position{1, 1}, InputLimit, fmt.Sprintf("file too large: more than %d bytes", MaxFileSize))
		return cfg, out
	}
	text, ep := decodeText(data)
	if ep != nil {
		problem(Position{ep.line, 1}, SyntaxError, ep.detail)
		if ep.fatal {
			return cfg, out
		}
	}
	read := false
	for c := range yamlChunks(text, func(l int, text string) {
		problem(Position{l, 1}, SyntaxError, "invalid YAML document separator: "+strconv.Quote(clip.String(text))+" follows ---")
	}) {
		n, d, p := parseChunk(name, c)
		if p != nil {
			out = append(out, *p)
			continue
		}
		if n == nil {
			continue
		}
		if read {
			problem(Position{c.line, 1}, SyntaxError, "a config file holds one document: this one is not read")
			continue
		}
		read = true
		d.at.start = d.pos(n)
		d.config(n, cfg)
		switch {
		case d.tooDeep != nil:
			problem(d.pos(d.tooDeep), InputLimit, fmt.Sprintf("config ignored: nested more than %d levels", MaxDepth))
			return &Config{}, out
		case d.overflow:
			problem(d.pos(n), InputLimit, fmt.Sprintf("config ignored: more than %d nodes once aliases are expanded", d.limit))
			return &Config{}, out
		}
		d.unreported(n)
		d.at.index()
		doc := &Document{File: name, at: d.at}
		out = append(out, doc.Locate(d.errs)...)
	}
	SortFindings(out)
	return cfg, out
}

// config decodes the config file n into cfg.
func (d *decoder) config(n *yaml.Node, cfg *Config) {
	d.object(n, func(key string, k, v *yaml.Node) {
		switch key {
		case "catalog":
			cfg.Catalog = d.settings(v)
		case "nodes":
			cfg.Nodes = d.settings(v)
		case "computes":
			cfg.Computes = d.settings(v)
		case "tolerations":
			cfg.Tolerations = d.settings(v)
		case "exclude":
			cfg.Exclude = d.settings(v)
		case "ignore":
			cfg.Ignore = d.settings(v)
		case "nodeSelector":
			if !d.mapping(v) {
				return
			}
			d.walk(v, true, func(key string, k, v *yaml.Node) {
				before := d.refusals
				s := d.str(v, true)
				if d.refusals == before {
					cfg.NodeSelector = append(cfg.NodeSelector, Setting{Key: key, Value: s, Path: string(d.path.text), Position: d.pos(k)})
				}
			})
		case "strictSubset":
			if v.Kind == yaml.ScalarNode && v.Tag == tagBool {
				b := boolValue(v.Value)
				cfg.StrictSubset = &b
				return
			}
			if !isNull(v) {
				d.wrongType(v, "a boolean, true or false")
			}
		default:
			d.unknown(key, configFields, k)
			d.checkTree(v)
		}
	})
}

// settings decodes a list of strings, or one string, which is a list of one.
func (d *decoder) settings(n *yaml.Node) []Setting {
	switch {
	case isNull(n):
		return nil
	case n.Kind == yaml.ScalarNode:
		before := d.refusals
		s := d.str(n, true)
		if d.refusals > before {
			return nil
		}
		return []Setting{{Value: s, Path: string(d.path.text), Position: d.pos(n)}}
	case n.Kind != yaml.SequenceNode:
		d.wrongType(n, "a list of strings")
		return nil
	}
	var out []Setting
	d.items(n, func(_ int, written, e *yaml.Node) {
		before := d.refusals
		s := d.str(e, true)
		if d.refusals == before {
			out = append(out, Setting{Value: s, Path: string(d.path.text), Position: d.pos(written)})
		}
	})
	return out
}
