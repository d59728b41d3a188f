//go:build !unix

package readonly

import (
	"io"
	"os"
)

var eof = io.EOF

// handle is an os.File where there is no Unix descriptor to read.
type handle struct{ f *os.File }

func openHandle(path string, follow bool) (handle, int64, error) {
	f, st, err := Open(path, follow)
	if err != nil {
		return handle{}, 0, err
	}
	return handle{f}, st.Size(), nil
}

func (h handle) read(p []byte) (int, error) { return h.f.Read(p) }

// readAt reads at off; 0 bytes and no error at the end of the file.
func (h handle) readAt(p []byte, off int64) (int, error) {
	n, err := h.f.ReadAt(p, off)
	if err == io.EOF {
		err = nil
	}
	return n, err
}

func (h handle) size() (int64, error) {
	st, err := h.f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func (h handle) close() error { return h.f.Close() }
