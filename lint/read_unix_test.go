//go:build unix

package lint

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/amlarc-go/instancetypes/source"
)

// readRegular reads what os.ReadFile reads, reserving the file's size first; a file that
// is no longer regular when it is opened (a FIFO put in the place of one a walk met) is an
// error at once, not a wait for a writer; a file past the size limit is read to one byte
// past it; a file whose size says nothing (of /proc) is read whole.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	want := bytes.Repeat([]byte("kind: InstanceType\n"), 100)
	if err := os.WriteFile(small, want, 0o644); err != nil {
		t.Fatal(err)
	}
	reserved := int64(-2)
	got, err := readRegular(small, func(size int64) { reserved = size })
	if err != nil || !bytes.Equal(got, want) || reserved != int64(len(want)) {
		t.Errorf("readRegular: %d bytes, %v, reserved %d; want %d bytes, reserved as many", len(got), err, reserved, len(want))
	}

	if _, err := readRegular(filepath.Join(dir, "missing.yaml"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("readRegular of a missing file: %v; want not exist", err)
	}

	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		reserved = -2
		if _, err := readRegular(fifo, func(size int64) { reserved = size }); !errors.Is(err, errNotRegular) || reserved != -2 {
			t.Errorf("readRegular of a FIFO: %v, reserved %d; want errNotRegular, nothing reserved", err, reserved)
		}
	}

	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(source.MaxFileSize + 4096); err != nil { // sparse: no disk
		t.Fatal(err)
	}
	f.Close()
	if got, err := readRegular(big, nil); err != nil || len(got) != source.MaxFileSize+1 {
		t.Errorf("readRegular of a file past the limit: %d bytes, %v; want %d", len(got), err, source.MaxFileSize+1)
	}

	if want, err := os.ReadFile("/proc/self/status"); err == nil {
		if got, err := readRegular("/proc/self/status", nil); err != nil || len(got) < len(want)/2 {
			t.Errorf("readRegular of /proc/self/status: %d bytes, %v; os.ReadFile reads %d", len(got), err, len(want))
		}
	}
}
