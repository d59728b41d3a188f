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

func (h handle) size() (int64, error) {
	st, err := h.f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func (h handle) close() error { return h.f.Close() }
