package cli

import (
	"cmp"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/validate"
)

// The config file (lint.ConfigName, .instancetype.yaml) holds the flags a repository
// always wants, each setting the flag of its name:
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
// runs below it.

// FindConfig returns the path of the config file (lint.ConfigName) in dir or in the nearest of
// its parents that has one, up to the root of the repository dir is in (the first
// directory holding .git) or of the file system; relative to dir when dir is relative,
// or "." for the working directory. It returns "" when there is none.
//
// A file of that name is passed over, with a note that says why, when it is not a regular
// file (a FIFO would block the command, a device feed it without end), or when it is owned
// by neither the user who runs the command nor root: a file another user placed in a
// parent directory (a shared /tmp, a home above a checkout) must not decide what the
// command checks and ignores, as git refuses such a repository since CVE-2022-24765.
func FindConfig(dir string) (path string, notes []string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	for d := abs; ; {
		p := filepath.Join(d, lint.ConfigName)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			if why := unusableConfig(info); why != "" {
				notes = append(notes, "config file "+p+" passed over: "+why)
			} else if filepath.IsAbs(dir) {
				return p, notes, nil
			} else if rel, err := filepath.Rel(abs, p); err != nil {
				return p, notes, nil
			} else {
				return filepath.Join(dir, rel), notes, nil
			}
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", notes, err
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return "", notes, nil // the repository's root
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", notes, nil
		}
		d = parent
	}
}

// unusableConfig says why a config file found by FindConfig is not to be read, or "".
func unusableConfig(info fs.FileInfo) string {
	if !info.Mode().IsRegular() {
		return "not a regular file (" + info.Mode().Type().String() + ")"
	}
	if uid, ok := owner(info); ok && uid != 0 && uid != os.Getuid() {
		return "owned by another user (uid " + strconv.Itoa(uid) + "), neither you nor root; name it with --config to use it"
	}
	return ""
}

// readFoundConfig reads the config file FindConfig found at path, checking again, on the
// file opened (without waiting, should it have become a FIFO), that it is still one to
// read.
func readFoundConfig(path string) (lint.Options, map[string]bool, error) {
	f, err := openNoWait(path)
	if err != nil {
		return lint.Options{}, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return lint.Options{}, nil, err
	}
	if why := unusableConfig(info); why != "" {
		return lint.Options{}, nil, errors.New(path + ": " + why)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return lint.Options{}, nil, err
	}
	opts, set := ParseConfig(path, data)
	return opts, set, nil
}

// ReadConfig reads the config file at path into the settings of a run: the lint.Options
// its settings give (Catalog, Nodes and Computes as paths joined to the file's directory;
// Exclude with ExcludeDir set to it; each Ignore with its Source, FILE:LINE, and with the
// directory as its Dir when it has a glob), and its problems as ConfigFindings: what
// cannot be read, and each setting that cannot be used (a path that does not exist, a
// pattern path.Match refuses, an unknown rule, a label that is no label), which is left
// out. It fails only when the file cannot be read. set reports the settings the file
// gives, by their flag's name.
func ReadConfig(path string) (opts lint.Options, set map[string]bool, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return lint.Options{}, nil, err
	}
	opts, set = ParseConfig(path, data)
	return opts, set, nil
}

// ParseConfig reads the contents of the config file at path (see ReadConfig): path names
// it in findings, and its directory is what the paths and patterns it holds are relative to.
func ParseConfig(path string, data []byte) (lint.Options, map[string]bool) {
	raw, findings := parseConfigFile(path, data)
	dir := filepath.Dir(path)
	var o lint.Options
	o.ConfigFindings = findings
	set := map[string]bool{}
	bad := func(s setting, detail string) {
		e := field.Invalid(field.NewPath(s.Path), clip.String(s.Value), detail).WithOrigin(rules.Config)
		o.ConfigFindings = append(o.ConfigFindings, lint.Finding{File: path, Position: s.Position, Err: e})
	}
	paths := func(flag string, settings []setting) []lint.Input {
		var out []lint.Input
		for _, s := range settings {
			set[flag] = true
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
			out = append(out, lint.Path(p))
		}
		return out
	}
	o.Catalog = paths("catalog", raw.Catalog)
	o.Nodes = paths("nodes", raw.Nodes)
	o.Computes = paths("computes", raw.Computes)
	for _, s := range raw.Tolerations {
		set["tolerate"] = true
		t, err := cluster.ParseToleration(s.Value)
		if err != nil {
			bad(s, "not a toleration (KEY[=VALUE][:EFFECT]): "+err.Error())
			continue
		}
		o.Tolerations = append(o.Tolerations, t)
	}
	for _, s := range raw.Exclude {
		set["exclude"] = true
		if err := lint.ValidExclude(s.Value); err != nil {
			bad(s, "not a pattern: "+err.Error())
			continue
		}
		o.Exclude, o.ExcludeDir = append(o.Exclude, s.Value), dir
	}
	for _, s := range raw.Ignore {
		set["ignore"] = true
		ig, err := lint.ParseIgnore(s.Value)
		if err != nil {
			bad(s, err.Error())
			continue
		}
		ig.Source = path + ":" + strconv.Itoa(s.Line)
		if ig.Glob != "" {
			ig.Dir = dir
		}
		o.Ignore = append(o.Ignore, ig)
	}
	for _, s := range raw.NodeSelector {
		set["node-selector"] = true
		if errs := validate.NodeSelector(map[string]string{s.Key: s.Value}, field.NewPath("nodeSelector")); len(errs) > 0 {
			for _, e := range errs {
				o.ConfigFindings = append(o.ConfigFindings, lint.Finding{File: path, Position: s.Position, Err: e})
			}
			continue
		}
		if o.NodeSelector == nil {
			o.NodeSelector = map[string]string{}
		}
		o.NodeSelector[s.Key] = s.Value
	}
	if raw.StrictSubset != nil {
		o.StrictSubset, set["strict-subset"] = *raw.StrictSubset, true
	}
	sortFindings(o.ConfigFindings)
	return o, set
}

// pathError words an error of reading a path, without the path.
func pathError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
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
	lint.Position
}

// configFields are the keys of a config file.
var configFields = []string{"catalog", "nodes", "computes", "tolerations", "nodeSelector", "strictSubset", "exclude", "ignore"}

// parseConfigFile decodes a config file, named name in findings, as strictly as every file
// is read: unknown keys, duplicate keys, values of the wrong type are findings at their
// place. It never fails: what cannot be read is a finding, and the settings it could read
// are returned. The file holds one document; an empty one sets nothing.
func parseConfigFile(name string, data []byte) (*configFile, []lint.Finding) {
	cfg := &configFile{}
	var out []lint.Finding
	read := false
	f := source.Scan(data, source.Options{Reader: source.Plain}, func(d *source.Document) bool {
		if d.Problem != nil {
			out = append(out, problem(name, *d.Problem))
			return true
		}
		if read {
			out = append(out, problem(name, source.Problem{Position: d.Position, Message: "a config file holds one document: this one is not read"}))
			return true
		}
		read = true
		dec := &strict.Decoder{Src: d}
		cfg.decode(dec, d)
		dups, at := decode.Duplicates(d)
		for _, e := range append(dec.Errs, dups...) {
			p, ok := at[e]
			if !ok {
				p = d.PositionOf(e.Field)
			}
			f := lint.Finding{File: name, Position: p, Err: e}
			if e.Origin == rules.UnknownField {
				f.Type = lint.UnknownField
			}
			out = append(out, f)
		}
		return true
	})
	for _, p := range f.Problems {
		out = append(out, problem(name, p))
	}
	sortFindings(out)
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

// problem is the finding of a problem of reading the config file.
func problem(file string, p source.Problem) lint.Finding {
	t, rule := lint.SyntaxError, rules.Syntax
	if p.Kind == source.Limit {
		t, rule = lint.InputLimit, rules.InputLimit
	}
	return lint.Finding{File: file, Position: p.Position, Type: t,
		Err: &field.Error{Type: field.ErrorTypeInvalid, BadValue: field.OmitValueType{}, Detail: p.Message, Origin: rule}}
}

// sortFindings orders findings by line and column, keeping the order of findings at the
// same place.
func sortFindings(fs []lint.Finding) {
	slices.SortStableFunc(fs, func(a, b lint.Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
}
