package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/amlarc-go/instancetypes/validate"
)

// options are the parsed flags and paths of validate, resolve and list.
type options struct {
	output       string
	nodeSelector map[string]string
	strictSubset bool
	paths        []string
}

// parseFlags parses flags and paths in any order (flags may follow paths, as in kubectl);
// "--" ends the flags.
func parseFlags(cmd string, args []string) (options, error) {
	var o options
	var sel string
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.output, "o", "text", "")
	fs.StringVar(&o.output, "output", "text", "")
	fs.StringVar(&sel, "node-selector", "", "")
	fs.BoolVar(&o.strictSubset, "strict-subset", false, "")
	var after []string // everything after "--": paths, even if they look like flags
	for i, a := range args {
		if a == "--" {
			args, after = args[:i], args[i+1:]
			break
		}
	}
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
	if o.output != "text" && o.output != "json" {
		return o, fmt.Errorf("invalid output format %q: want text or json", o.output)
	}
	var err error
	if o.nodeSelector, err = parseSelector(sel); err != nil {
		return o, fmt.Errorf("invalid --node-selector: %w", err)
	}
	return o, nil
}

// parseSelector parses k=v[,k=v]: label keys and values, checked by validate.NodeSelector
// (bad values clipped, so a huge flag cannot make a huge message).
func parseSelector(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	m := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok {
			return nil, fmt.Errorf("%q is not key=value", pair)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("key %q given twice", k)
		}
		m[k] = v
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
