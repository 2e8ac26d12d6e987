//go:build !linux

package cputime

import "time"

var start = time.Now()

// now falls back to the wall clock where no thread time can be read.
func now() time.Duration { return time.Since(start) }
