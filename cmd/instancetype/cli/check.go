package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/amlarc-go/instancetypes/lint"
)

// runCheck runs validate, resolve or list: flags, one call to lint.Run, output.
func (p Program) runCheck(cmd string, args []string, e Env) int {
	if wantsHelp(args) {
		fmt.Fprint(e.Stdout, p.help(cmd))
		return ExitOK
	}
	name := p.name()
	o, err := parseFlags(cmd, args, p.Flags, p.Inputs != nil)
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s %s: %s\nRun '%s help %s' for usage.\n", name, cmd, EscapeMessage(err.Error()), name, cmd)
		return ExitUsage
	}
	if len(o.paths) == 0 && cmd != "list" && p.Inputs == nil {
		fmt.Fprintf(e.Stderr, "%s %s: no PATH given (use - for standard input)\nRun '%s help %s' for usage.\n", name, cmd, name, cmd)
		return ExitUsage
	}
	err = loadConfig(&o)
	for _, n := range o.notes {
		fmt.Fprintf(e.Stderr, "%s %s: note: %s\n", name, cmd, EscapeMessage(n))
	}
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s %s: config file: %s\n", name, cmd, EscapeMessage(describe(err)))
		return ExitUsage
	}
	var extra Inputs
	if p.Inputs != nil {
		if extra, err = p.Inputs(cmd, o.paths); err != nil {
			fmt.Fprintf(e.Stderr, "%s %s: %s\n", name, cmd, EscapeMessage(err.Error()))
			return ExitUsage
		}
		for _, n := range extra.Notes {
			fmt.Fprintf(e.Stderr, "%s %s: %s\n", name, cmd, EscapeMessage(n))
		}
	}
	stdin := stdinOnce(e)
	in := inputs(o.paths, stdin) // first: standard input is the PATHs' when both name it
	opts := o.Options
	opts.Catalog = append(extra.Catalog, append(opts.Catalog, inputs(o.catalog, stdin)...)...)
	opts.Nodes = append(extra.Nodes, append(opts.Nodes, inputs(o.nodes, stdin)...)...)
	opts.Computes = append(opts.Computes, inputs(o.computes, stdin)...)
	opts.NoPlacements = cmd != "resolve"
	r, err := lint.Run(append(in, extra.Paths...), opts)
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s %s: %s\n", name, cmd, EscapeMessage(describe(err)))
		return ExitUsage
	}
	w := writer{Env: e, cmd: cmd, catalogHint: extra.CatalogHint, program: name}
	stdout := NewGuard(e.Stdout, o.output)
	w.Stdout = stdout
	switch o.output {
	case "json":
		err = w.json(r)
	case "sarif":
		err = w.sarif(r)
	case "github":
		err = w.github(r)
	case "junit":
		err = w.junit(r)
	default:
		err = w.text(r)
	}
	if ferr := stdout.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s %s: writing output: %s\n", name, cmd, EscapeMessage(err.Error()))
		return ExitUsage
	}
	if len(r.Findings) > 0 {
		return ExitFindings
	}
	return ExitOK
}

// stdinOnce returns the input for "-": standard input, read the first time it is named
// (as a PATH or a --catalog), empty after.
func stdinOnce(e Env) func() lint.Input {
	used := false
	return func() lint.Input {
		if used {
			return lint.Bytes(lint.StdinName, nil)
		}
		used = true
		return lint.Stdin(e.Stdin)
	}
}

// inputs turns paths into lint inputs: - is standard input.
func inputs(paths []string, stdin func() lint.Input) []lint.Input {
	var in []lint.Input
	for _, p := range paths {
		if p == "-" {
			in = append(in, stdin())
			continue
		}
		in = append(in, lint.Path(p))
	}
	return in
}

// describe words an error of lint.Run for the command line.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return pe.Path + ": no such file or directory"
		case errors.Is(err, os.ErrPermission):
			return pe.Path + ": permission denied"
		}
	}
	return err.Error()
}
