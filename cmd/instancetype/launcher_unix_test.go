//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// launcherEnv, set to the path of a report file, makes the test binary a launcher: it runs
// its arguments as a command, writes the command's peak RSS, signal and processor time
// (user and system) to that file, and exits with the command's exit code.
//
// The peak RSS of a child the test process runs directly is not the child's own: os/exec
// starts a child in the parent's address space (vfork), and Linux carries that address
// space's peak into the child's at exec. A test process that has built large inputs would
// make every child look as large as itself. The launcher is started while small, in a
// fresh process, so the peak of the command it starts is the command's.
const launcherEnv = "INSTANCETYPES_TEST_LAUNCHER_REPORT"

// launchIfAsked acts as the launcher when launcherEnv is set, and never returns then.
func launchIfAsked() {
	report := os.Getenv(launcherEnv)
	if report == "" || len(os.Args) < 2 {
		return
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, launcherEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		os.Exit(125)
	}
	signal := 0
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		signal = int(ws.Signal())
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if err := os.WriteFile(report, fmt.Appendf(nil, "%d %d %d\n", peakRSS(cmd.ProcessState), signal, cpu), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		os.Exit(125)
	}
	if signal != 0 {
		os.Exit(128 + signal)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
