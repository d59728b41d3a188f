package lint

import (
	"io"
	"os"

	"github.com/ccvet/ccvet/internal/readonly"
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

// openReadOnly opens a file to check (see readonly.Open), to be read up to
// its size at open.
func openReadOnly(path string, follow bool) (*snapFile, error) {
	f, st, err := readonly.Open(path, follow)
	if err != nil {
		return nil, err
	}
	return &snapFile{f: f, r: io.LimitReader(f, st.Size()), size: st.Size()}, nil
}
