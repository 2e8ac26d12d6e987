package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestStaticBinary: built with CGO_ENABLED=0, as the image is, the command is a static
// executable: no program interpreter, no shared libraries, so that it runs on a base image
// with no libc (distroless static, scratch).
func TestStaticBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks an ELF executable")
	}
	bin := filepath.Join(t.TempDir(), "instancetype-webhook")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the binary has a %v program header: it is not static", p.Type)
		}
	}
	if libs, err := f.ImportedLibraries(); err == nil && len(libs) > 0 {
		t.Errorf("the binary needs %q", libs)
	}
}
