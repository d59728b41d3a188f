package readonly

import "errors"

// Handle is a regular file opened as Open opens one, for the reads that
// run over every file of a store (each transcript once, each plain copy
// once): it reads the file up to the size it had when opened, so that a
// file a writer keeps growing cannot keep its reader reading, and says
// whether the file grew since. On Unix it is the descriptor alone, read
// and closed by system calls: no poller registration (a regular file
// cannot use one, and os.File tries, a failing epoll_ctl each time), no
// finalizer and no second fstat, which cost microseconds a file on a
// virtual machine, for thousands of files. Close must be called.
//
// Errors are *os.PathError values, as os.File's are: "open", "read",
// "stat" or "close", with the path.
type Handle struct {
	h    handle // the system's (handle_unix.go, handle_other.go)
	size int64  // the size at open
	left int64  // what Read may still return
}

// OpenHandle opens the regular file at path as Open does.
func OpenHandle(path string, follow bool) (*Handle, error) {
	h, size, err := openHandle(path, follow)
	if err != nil {
		return nil, err
	}
	return &Handle{h: h, size: size, left: size}, nil
}

// errNegativeOffset is ReadAt's error for an offset before the start.
var errNegativeOffset = errors.New("readonly: negative offset")

// Size is the file's size when it was opened.
func (h *Handle) Size() int64 { return h.size }

// Read reads up to the size at open, then reports io.EOF.
func (h *Handle) Read(p []byte) (int, error) {
	if h.left <= 0 {
		return 0, eof
	}
	if int64(len(p)) > h.left {
		p = p[:h.left]
	}
	n, err := h.h.read(p)
	h.left -= int64(n)
	return n, err
}

// ReadAt reads len(p) bytes from offset off (io.ReaderAt), up to the size
// at open: past it, io.EOF. It does not move Read's place.
func (h *Handle) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errNegativeOffset
	}
	if off >= h.size {
		return 0, eof
	}
	short := int64(len(p)) > h.size-off
	if short {
		p = p[:h.size-off]
	}
	n := 0
	for n < len(p) {
		m, err := h.h.readAt(p[n:], off+int64(n))
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 {
			return n, eof // shorter than at open
		}
	}
	if short {
		return n, eof
	}
	return n, nil
}

// Grew reports whether the file is now longer than when it was opened.
func (h *Handle) Grew() bool {
	size, err := h.h.size()
	return err == nil && size > h.size
}

// Close closes the file.
func (h *Handle) Close() error { return h.h.close() }
