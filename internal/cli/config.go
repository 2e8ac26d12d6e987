package cli

import (
	"github.com/amlarc-go/instancetypes/lint"
)

// loadConfig reads the config file: the one --config names, else the one found from the
// working directory up (lint.FindConfig); nil when there is none. A file that cannot be
// read is an error (the problems in one are findings of its Config).
func loadConfig(o options) (*lint.Config, error) {
	path := o.config
	if !o.set["config"] {
		found, err := lint.FindConfig(".")
		if err != nil || found == "" {
			return nil, err
		}
		path = found
	}
	return lint.ReadConfig(path)
}

// withConfig returns o with the settings of cfg for the flags not given on the command
// line: a flag given replaces the setting of its name, lists included.
func withConfig(o options, cfg *lint.Config) options {
	if cfg == nil {
		return o
	}
	if !o.set["catalog"] {
		o.catalog = cfg.Catalog
	}
	if !o.set["nodes"] {
		o.nodes = cfg.Nodes
	}
	if !o.set["computes"] {
		o.computes = cfg.Computes
	}
	if !o.set["tolerate"] {
		o.tolerations = cfg.Tolerations
	}
	if !o.set["node-selector"] && cfg.NodeSelector != nil {
		o.nodeSelector = cfg.NodeSelector
	}
	if !o.set["strict-subset"] && cfg.StrictSubsetSet {
		o.strictSubset = cfg.StrictSubset
	}
	if !o.set["exclude"] {
		o.exclude, o.excludeDir = cfg.Exclude, cfg.Dir
	}
	if !o.set["ignore"] {
		o.ignore = cfg.Ignore
	}
	return o
}
