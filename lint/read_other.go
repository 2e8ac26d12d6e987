//go:build !unix

package lint

// readRegular reads the file at p, which was a regular file when it was met: up to
// source.MaxFileSize and one byte more, calling reserve (when not nil) with its size
// before reading it.
func readRegular(p string, reserve func(int64)) ([]byte, error) { return readFile(nil, p, reserve) }
