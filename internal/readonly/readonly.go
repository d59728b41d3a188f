// Package readonly opens the files ccvet checks: read-only, never blocking, without moving their access time where allowed.
package readonly

import (
	"errors"
	"os"
	"syscall"
)

// ErrNotRegular is the error of Open on a FIFO, a socket, a device or a folder.
var ErrNotRegular = errors.New("not a regular file")

// Open opens the regular file at path for reading only. ccvet never opens
// what it checks in any other mode; a test proves nothing changes on disk.
// O_NONBLOCK keeps a FIFO that appeared after discovery from blocking the
// open. Where the system has it, O_NOATIME keeps the access time of the
// caller's own files as it was; on another user's file the system refuses
// it, and the file is opened without, silently. Unless follow is set, a
// last path element that is a symbolic link is refused (O_NOFOLLOW): a file
// found as a regular file cannot be swapped for a link to elsewhere before
// it is read.
func Open(path string, follow bool) (*os.File, os.FileInfo, error) {
	flags := os.O_RDONLY | oNonblock
	if !follow {
		flags |= oNofollow
	}
	f, err := os.OpenFile(path, flags|oNoatime, 0)
	if oNoatime != 0 && errors.Is(err, syscall.EPERM) {
		f, err = os.OpenFile(path, flags, 0)
	}
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return f, st, nil
}

// Pathless is err's text without the path an *os.PathError names ("open:
// permission denied"): for a message that names the file already, by the
// path the user gave.
func Pathless(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
