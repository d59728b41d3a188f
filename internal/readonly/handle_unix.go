//go:build unix

package readonly

import (
	"errors"
	"io"
	"os"
	"runtime"
	"syscall"
)

var eof = io.EOF

type handle struct {
	fd   int
	path string
}

func openHandle(path string, follow bool) (handle, int64, error) {
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC | oNonblock
	if !follow {
		flags |= oNofollow
	}
	fd, err := openRetry(path, flags|oNoatime)
	if oNoatime != 0 && errors.Is(err, syscall.EPERM) {
		fd, err = openRetry(path, flags)
	}
	if err != nil {
		return handle{}, 0, &os.PathError{Op: "open", Path: path, Err: err}
	}
	h := handle{fd: fd, path: path}
	var st syscall.Stat_t
	if err := fstatRetry(fd, &st); err != nil {
		_ = closeFD(fd)
		return handle{}, 0, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		_ = closeFD(fd)
		return handle{}, 0, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return h, st.Size, nil
}

func openRetry(path string, flags int) (int, error) {
	for {
		fd, err := openFD(path, flags)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func fstatRetry(fd int, st *syscall.Stat_t) error {
	for {
		if err := fstatFD(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

func (h handle) read(p []byte) (int, error) {
	for {
		n, err := readFD(h.fd, p)
		switch {
		case err == syscall.EINTR:
			runtime.Gosched() // a signal: let its handler run
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: h.path, Err: err}
		case n == 0 && len(p) > 0:
			return 0, io.EOF // shorter than at open
		}
		return n, nil
	}
}

// readAt reads at off (pread), again after a signal; 0 bytes and no
// error at the end of the file.
func (h handle) readAt(p []byte, off int64) (int, error) {
	for {
		n, err := syscall.Pread(h.fd, p, off)
		switch {
		case err == syscall.EINTR:
			runtime.Gosched()
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: h.path, Err: err}
		}
		return n, nil
	}
}

func (h handle) size() (int64, error) {
	var st syscall.Stat_t
	if err := fstatRetry(h.fd, &st); err != nil {
		return 0, &os.PathError{Op: "stat", Path: h.path, Err: err}
	}
	return st.Size, nil
}

func (h handle) close() error {
	// Not retried on EINTR: on Linux the descriptor is released anyway,
	// and another goroutine may already have its number.
	if err := closeFD(h.fd); err != nil {
		return &os.PathError{Op: "close", Path: h.path, Err: err}
	}
	return nil
}
