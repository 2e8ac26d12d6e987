package lint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/validate"
)

// ConfigName is the name of the config file: the instancetype command reads the one it
// finds in the working directory or the nearest parent (FindConfig). A walk skips it: it
// holds settings, not manifests.
const ConfigName = ".instancetype.yaml"

// Config is the settings of a config file, for Options:
//
//	catalog: [cluster/instancetypes.yaml]   # --catalog; paths relative to the file's directory
//	nodes: [cluster/nodes.yaml]             # --nodes
//	computes: [cluster/computes.json]       # --computes
//	tolerations: [dedicated=ml:NoSchedule]  # --tolerate
//	nodeSelector: {pool: ml}                # --node-selector
//	strictSubset: false                     # --strict-subset
//	exclude: [templates, charts/*]          # --exclude; patterns relative to the file's directory
//	ignore: [R10, R9=legacy/*]              # --ignore RULE[=GLOB]; GLOB too
//
// A list may be one value without the list (catalog: cluster.yaml). Flags given on the
// command line replace the settings of the same name. Paths and patterns are relative to
// the file's directory, so that the settings mean the same files wherever the command
// runs below it: give Exclude with Options.ExcludeDir set to Dir; the Ignores have Dir.
type Config struct {
	// File is the path of the config file.
	File string
	// Dir is the file's directory: the paths and patterns of the file are relative to it.
	Dir string
	// Catalog, Nodes and Computes are the paths of the cluster's instance types and nodes
	// and of the workspace's compute targets: those of the file, joined to the file's
	// directory when they are relative, so that they can be read from the working
	// directory.
	Catalog, Nodes, Computes []string
	// Tolerations are the tolerations the fit check adds (--tolerate).
	Tolerations []cluster.Toleration
	// NodeSelector is the extension's nodeSelector; nil when it is not set.
	NodeSelector map[string]string
	// StrictSubset is the strict subset rule; StrictSubsetSet reports that the file sets it.
	StrictSubset, StrictSubsetSet bool
	// Exclude are the patterns of paths to leave out of walks, relative to Dir (give them
	// to Options.Exclude with Options.ExcludeDir set to Dir).
	Exclude []string
	// Ignore are the rules suppressed, each with its Source (FILE:LINE), and with Dir as
	// its Dir when it has a Glob.
	Ignore []Ignore
	// Findings are the problems of the file, each at its line: what cannot be read, and
	// each setting that cannot be used (a path that does not exist, a pattern path.Match
	// refuses, an unknown rule, a label that is no label), which is left out. Give them to
	// Options.ConfigFindings.
	Findings []Finding
}

// FindConfig returns the path of the config file (ConfigName) in dir or in the nearest of
// its parents that has one, up to the root of the repository dir is in (the first
// directory holding .git) or of the file system; relative to dir when dir is relative,
// or "." for the working directory. It returns "" when there is none.
func FindConfig(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		p := filepath.Join(d, ConfigName)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			if filepath.IsAbs(dir) {
				return p, nil
			}
			rel, err := filepath.Rel(abs, p)
			if err != nil {
				return p, nil
			}
			return filepath.Join(dir, rel), nil
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return "", nil // the repository's root
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", nil
		}
		d = parent
	}
}

// ReadConfig reads the config file at path (see Config). It fails only when the file
// cannot be read; every problem in it is a finding of the Config.
func ReadConfig(path string) (*Config, error) {
	data, err := readFile(nil, path, nil)
	if err != nil {
		return nil, err
	}
	return ParseConfig(path, data), nil
}

// ParseConfig reads the contents of the config file at path (see ReadConfig).
func ParseConfig(path string, data []byte) *Config {
	raw, findings := parseConfigFile(path, data)
	dir := filepath.Dir(path)
	c := &Config{File: path, Dir: dir, Findings: findings}
	bad := func(s setting, detail string) {
		e := field.Invalid(field.NewPath(s.Path), clip.String(s.Value), detail).WithOrigin(rules.Config)
		c.Findings = append(c.Findings, Finding{File: path, Position: s.Position, Err: e})
	}
	paths := func(settings []setting) []string {
		var out []string
		for _, s := range settings {
			p := s.Value
			if p == "" {
				bad(s, "must name a file or directory")
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if _, err := os.Stat(p); err != nil {
				bad(s, "cannot read "+clip.Quote(p)+": "+pathError(err))
				continue
			}
			out = append(out, p)
		}
		return out
	}
	c.Catalog = paths(raw.Catalog)
	c.Nodes = paths(raw.Nodes)
	c.Computes = paths(raw.Computes)
	for _, s := range raw.Tolerations {
		t, err := cluster.ParseToleration(s.Value)
		if err != nil {
			bad(s, "not a toleration (KEY[=VALUE][:EFFECT]): "+err.Error())
			continue
		}
		c.Tolerations = append(c.Tolerations, t)
	}
	for _, s := range raw.Exclude {
		if err := ValidExclude(s.Value); err != nil {
			bad(s, "not a pattern: "+err.Error())
			continue
		}
		c.Exclude = append(c.Exclude, s.Value)
	}
	for _, s := range raw.Ignore {
		ig, err := ParseIgnore(s.Value)
		if err != nil {
			bad(s, err.Error())
			continue
		}
		ig.Source = path + ":" + strconv.Itoa(s.Line)
		if ig.Glob != "" {
			ig.Dir = dir
		}
		c.Ignore = append(c.Ignore, ig)
	}
	for _, s := range raw.NodeSelector {
		if errs := validate.NodeSelector(map[string]string{s.Key: s.Value}, field.NewPath("nodeSelector")); len(errs) > 0 {
			for _, e := range errs {
				c.Findings = append(c.Findings, Finding{File: path, Position: s.Position, Err: e})
			}
			continue
		}
		if c.NodeSelector == nil {
			c.NodeSelector = map[string]string{}
		}
		c.NodeSelector[s.Key] = s.Value
	}
	if raw.StrictSubset != nil {
		c.StrictSubset, c.StrictSubsetSet = *raw.StrictSubset, true
	}
	sortByPlace(c.Findings)
	return c
}

// configFile is a config file as written: each setting with where it is, for the
// findings about its value.
type configFile struct {
	// Catalog, Nodes, Computes, Tolerations, Exclude and Ignore are the items of the
	// lists of those names (or the one value written without a list), in file order.
	Catalog, Nodes, Computes, Tolerations, Exclude, Ignore []setting
	// NodeSelector are the pairs of nodeSelector, in key order, each with its Key.
	NodeSelector []setting
	// StrictSubset is the value of strictSubset, nil when it is not set.
	StrictSubset *bool
}

// setting is one value of a config file.
type setting struct {
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

// parseConfigFile decodes a config file, named name in findings, as strictly as every file
// is read: unknown keys, duplicate keys, values of the wrong type are findings at their
// place. It never fails: what cannot be read is a finding, and the settings it could read
// are returned. The file holds one document; an empty one sets nothing.
func parseConfigFile(name string, data []byte) (*configFile, []Finding) {
	cfg := &configFile{}
	var out []Finding
	read := false
	f := source.Scan(data, source.Options{Reader: source.Plain}, func(d *source.Document) bool {
		if d.Problem != nil {
			out = append(out, problemFinding(name, *d.Problem, syntaxOf(d)))
			return true
		}
		if read {
			out = append(out, fileProblem(name, d.Position, SyntaxError, "a config file holds one document: this one is not read"))
			return true
		}
		read = true
		dec := &strict.Decoder{Src: d}
		cfg.decode(dec, d)
		doc := &document{file: name, src: d}
		dups, at := decode.Duplicates(d)
		for _, e := range append(dec.Errs, dups...) {
			f := doc.finding(e)
			if p, ok := at[e]; ok {
				f.Position = p
			}
			out = append(out, f)
		}
		return true
	})
	for _, p := range f.Problems {
		out = append(out, problemFinding(name, p, ""))
	}
	sortByPlace(out)
	return cfg, out
}

// decode decodes the config file d.
func (cfg *configFile) decode(dec *strict.Decoder, d *source.Document) {
	m, ok := dec.Mapping(d.Value, nil)
	if !ok {
		return
	}
	settings := func(k string) []setting {
		p := field.NewPath(k)
		switch v := m[k].(type) {
		case nil:
			return nil
		case []any:
			var out []setting
			for i, e := range v {
				before := len(dec.Errs)
				s := dec.Str(e, p.Index(i), true)
				if len(dec.Errs) == before {
					out = append(out, setting{Value: s, Path: p.Index(i).String(), Position: d.PositionOf(p.Index(i).String())})
				}
			}
			return out
		case map[string]any:
			dec.WrongType(v, p, "a list of strings")
			return nil
		default:
			before := len(dec.Errs)
			s := dec.Str(v, p, true)
			if len(dec.Errs) > before {
				return nil
			}
			return []setting{{Value: s, Path: k, Position: d.ValuePositionOf(k)}}
		}
	}
	for _, k := range strict.SortedKeys(m) {
		switch k {
		case "catalog":
			cfg.Catalog = settings(k)
		case "nodes":
			cfg.Nodes = settings(k)
		case "computes":
			cfg.Computes = settings(k)
		case "tolerations":
			cfg.Tolerations = settings(k)
		case "exclude":
			cfg.Exclude = settings(k)
		case "ignore":
			cfg.Ignore = settings(k)
		case "nodeSelector":
			sel, ok := dec.Mapping(m[k], field.NewPath(k))
			if !ok {
				continue
			}
			for _, key := range strict.SortedKeys(sel) {
				p := field.NewPath(k).Key(key)
				before := len(dec.Errs)
				s := dec.Str(sel[key], p, true)
				if len(dec.Errs) == before {
					cfg.NodeSelector = append(cfg.NodeSelector, setting{Key: key, Value: s, Path: p.String(), Position: d.PositionOf(p.String())})
				}
			}
		case "strictSubset":
			switch v := m[k].(type) {
			case bool:
				cfg.StrictSubset = &v
			case nil:
			default:
				dec.WrongType(v, field.NewPath(k), "a boolean, true or false")
			}
		default:
			dec.Unknown(k, configFields, field.NewPath(k))
		}
	}
}
