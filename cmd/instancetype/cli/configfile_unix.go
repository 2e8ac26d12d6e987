//go:build unix

package cli

import (
	"io/fs"
	"os"
	"syscall"
)

// owner returns the user that owns the file of info, and false where that is not known.
func owner(info fs.FileInfo) (uid int, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// openNoWait opens p for reading without waiting for a writer, should it be a FIFO.
func openNoWait(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
