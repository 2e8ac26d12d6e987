//go:build !unix

package main

// launchIfAsked does nothing where peak memory is not measured (see launcher_unix_test.go).
func launchIfAsked() {}
