package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/validate"
)

// options are the settings of a run of validate, resolve or list: lint's, from the flags
// and the config file, and the command's own (the output format, the PATHs, the config
// file named).
type options struct {
	lint.Options
	output string
	paths  []string
	// catalog, nodes and computes are the paths of --catalog, --nodes and --computes,
	// which become Options.Catalog, Nodes and Computes once standard input is placed.
	catalog, nodes, computes []string
	config                   string
	// set are the flags given on the command line, by name, which replace the config
	// file's settings.
	set map[string]bool
	// notes are said on standard error before the run: config files passed over.
	notes []string
}

// formats are the values of -o.
var formats = []string{"text", "json", "sarif", "github", "junit"}

// repeated is a flag that may be given many times, each value kept.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// parseFlags parses flags and paths in any order (flags may follow paths, as in kubectl);
// "--" ends the flags. -ojson is -o json, as kubectl takes it. more, when not nil, adds
// flags of the program's own (Program.Flags); readsCluster reports that the program reads
// the cluster itself (Program.Inputs), so that --catalog and --nodes need no PATH.
func parseFlags(cmd string, args []string, more func(string, *flag.FlagSet), readsCluster bool) (options, error) {
	var o options
	var sel, catalog, nodes, computes, tolerate, exclude, ignore repeated
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.output, "o", "text", "")
	fs.StringVar(&o.output, "output", "text", "")
	fs.Var(&sel, "node-selector", "")
	fs.BoolVar(&o.StrictSubset, "strict-subset", false, "")
	fs.Var(&catalog, "catalog", "")
	fs.Var(&nodes, "nodes", "")
	fs.Var(&computes, "computes", "")
	fs.Var(&tolerate, "tolerate", "")
	fs.Var(&exclude, "exclude", "")
	fs.Var(&ignore, "ignore", "")
	fs.StringVar(&o.config, "config", "", "")
	if more != nil {
		more(cmd, fs)
	}
	var after []string // everything after "--": paths, even if they look like flags
	for i, a := range args {
		if a == "--" {
			args, after = args[:i], args[i+1:]
			break
		}
	}
	args = splitShortOutput(args)
	for {
		if err := fs.Parse(args); err != nil {
			return o, err
		}
		if fs.NArg() == 0 {
			break
		}
		o.paths = append(o.paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	o.paths = append(o.paths, after...)
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if !slices.Contains(formats, o.output) {
		return o, fmt.Errorf("invalid output format %q: want text, json, sarif, github or junit", o.output)
	}
	for _, v := range ignore {
		ig, err := lint.ParseIgnore(v)
		if err != nil {
			return o, fmt.Errorf("invalid --ignore %q: %w", v, err)
		}
		ig.Source = "--ignore " + v
		o.Ignore = append(o.Ignore, ig)
	}
	var err error
	if o.NodeSelector, err = parseSelector(sel); err != nil {
		return o, fmt.Errorf("invalid --node-selector: %w", err)
	}
	for _, pat := range exclude {
		if err := lint.ValidExclude(pat); err != nil {
			return o, fmt.Errorf("invalid --exclude %q: %w", pat, err)
		}
	}
	for _, t := range tolerate {
		tol, err := cluster.ParseToleration(t)
		if err != nil {
			return o, fmt.Errorf("invalid --tolerate %q: %w", t, err)
		}
		o.Tolerations = append(o.Tolerations, tol)
	}
	o.catalog, o.nodes, o.computes, o.Exclude = catalog, nodes, computes, exclude
	if (len(o.catalog) > 0 || len(o.nodes) > 0) && len(o.paths) == 0 && cmd != "list" && !readsCluster {
		return o, errors.New("--catalog and --nodes describe the cluster; give the PATHs to check too")
	}
	return o, nil
}

// splitShortOutput turns -ojson into -o json, as kubectl accepts it.
func splitShortOutput(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if len(a) > 2 && strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "-output") && a[2] != '=' {
			out = append(out, "-o", a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// ParseNodeSelector parses the values of --node-selector as validate, resolve and list
// do, for a Program's command that takes the flag too: k=v[,k=v], given once or many
// times, all pairs counting; a key given twice with two values, or a key or value that is
// no label's, is an error.
func ParseNodeSelector(values []string) (map[string]string, error) { return parseSelector(values) }

// parseSelector parses k=v[,k=v], given once or many times: label keys and values, checked
// by validate.NodeSelector (bad values clipped, so a huge flag cannot make a huge message).
func parseSelector(values []string) (map[string]string, error) {
	var m map[string]string
	for _, s := range values {
		if strings.TrimSpace(s) == "" {
			continue
		}
		for _, pair := range strings.Split(s, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if !ok {
				return nil, fmt.Errorf("%q is not key=value", pair)
			}
			if m == nil {
				m = map[string]string{}
			}
			if old, dup := m[k]; dup && old != v {
				return nil, fmt.Errorf("key %q given twice, as %q and %q", k, old, v)
			}
			m[k] = v
		}
	}
	if errs := validate.NodeSelector(m, nil); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return nil, errors.New(strings.Join(msgs, "; "))
	}
	return m, nil
}

// loadConfig reads the config file: the one --config names, else the one found from the
// working directory up (FindConfig), and puts its settings into o for the flags not given
// on the command line: a flag given replaces the setting of its name, lists included. A
// file that cannot be read is an error (the problems in one are its ConfigFindings).
func loadConfig(o *options) error {
	var (
		cfg lint.Options
		set map[string]bool
		err error
	)
	if o.set["config"] {
		cfg, set, err = ReadConfig(o.config)
	} else {
		found, notes, ferr := FindConfig(".")
		o.notes = append(o.notes, notes...)
		if ferr != nil || found == "" {
			return ferr
		}
		cfg, set, err = readFoundConfig(found)
	}
	if err != nil {
		return err
	}
	o.ConfigFindings = cfg.ConfigFindings
	take := func(flag string) bool { return set[flag] && !o.set[flag] }
	if take("catalog") {
		o.Catalog, o.catalog = cfg.Catalog, nil
	}
	if take("nodes") {
		o.Nodes, o.nodes = cfg.Nodes, nil
	}
	if take("computes") {
		o.Computes, o.computes = cfg.Computes, nil
	}
	if take("tolerate") {
		o.Tolerations = cfg.Tolerations
	}
	if take("node-selector") {
		o.NodeSelector = cfg.NodeSelector
	}
	if take("strict-subset") {
		o.StrictSubset = cfg.StrictSubset
	}
	if take("exclude") {
		o.Exclude, o.ExcludeDir = cfg.Exclude, cfg.ExcludeDir
	}
	if take("ignore") {
		o.Ignore = cfg.Ignore
	}
	return nil
}
