//go:build race

package main

// raceEnabled reports a test binary built with -race. Its memory is large, and Linux
// carries the parent's peak RSS into a child's at exec (os/exec clones the parent's
// address space until then), so children's peak RSS cannot be measured under -race.
const raceEnabled = true
