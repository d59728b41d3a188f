package lint

import (
	"io"
	"os"
)

// openReadOnly opens a file for reading only. ccvet never opens what it
// checks in any other mode; a test proves nothing changes on disk.
// O_NONBLOCK keeps a FIFO that appeared after discovery from blocking the open.
func openReadOnly(path string) (io.ReadCloser, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	return f, nil
}
