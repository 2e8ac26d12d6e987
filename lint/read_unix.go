//go:build unix

package lint

import (
	"errors"
	"io/fs"
	"syscall"

	"github.com/amlarc-go/instancetypes/source"
)

// readRegular reads the file at p, which was a regular file when it was met: up to
// source.MaxFileSize and one byte more, calling reserve (when not nil) with its size
// before reading it. It opens the file without waiting (O_NONBLOCK), checks it is still a
// regular file once open, and reads it into a buffer of its size: a FIFO put in its place
// since cannot block the run, and a small file costs four system calls (open, fstat, read,
// close), where a stat, os.Open and a read make eleven (an os.File registers its
// descriptor with the poller, which a regular file refuses, and sets and clears
// O_NONBLOCK around that). Its errors are those os.Open and a read give.
func readRegular(p string, reserve func(int64)) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errNotRegular}
	}
	reserveSize(reserve, st.Size)
	const limit = source.MaxFileSize + 1
	buf := make([]byte, 0, min(max(st.Size, 0), limit)+1) // one more, to see the end at once
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= limit {
				return buf[:limit], nil
			}
			buf = append(buf, 0)[:len(buf)] // the file grew since: room for more
		}
		n, err := syscall.Read(fd, buf[len(buf):min(cap(buf), limit)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return buf, &fs.PathError{Op: "read", Path: p, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if st.Size > 0 && int64(len(buf)) == st.Size {
			// All its size said it holds: no read for the end. (A file written while it is
			// read is read as it was when it was opened, or a little after.)
			return buf, nil
		}
	}
}

// errNotRegular is the error of a file that is no longer a regular file when it is read.
var errNotRegular = errors.New("not a regular file (it was one when the walk met it)")
