package lint

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// snapFile is a file opened for reading only, read up to the size it had
// when it was opened: bytes appended later are left to the next run, so a
// file that a writer keeps growing cannot keep ccvet reading.
type snapFile struct {
	f    *os.File
	r    io.Reader
	size int64
}

func (s *snapFile) Read(p []byte) (int, error) { return s.r.Read(p) }
func (s *snapFile) Close() error               { return s.f.Close() }

// grew reports whether the file is now longer than when it was opened.
func (s *snapFile) grew() bool {
	st, err := s.f.Stat()
	return err == nil && st.Size() > s.size
}

// afterOpen, when set (tests), is called with each file checkLines opens.
var afterOpen func(path string)

// openReadOnly opens a file for reading only. ccvet never opens what it
// checks in any other mode; a test proves nothing changes on disk.
// O_NONBLOCK keeps a FIFO that appeared after discovery from blocking the
// open. Where the system has it, O_NOATIME keeps the access time of the
// caller's own files as it was; on another user's file the system refuses
// it, and the file is opened without.
func openReadOnly(path string) (*snapFile, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock|oNoatime, 0)
	if oNoatime != 0 && errors.Is(err, syscall.EPERM) {
		f, err = os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	}
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
	return &snapFile{f: f, r: io.LimitReader(f, st.Size()), size: st.Size()}, nil
}
