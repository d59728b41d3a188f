package lint

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// spool keeps a copy of standard input for reading again: in a temporary
// file removed as soon as it is made (so it has no name, and the system
// frees it when ccvet exits), or, where no file can be made, in memory.
type spool struct {
	mu   sync.Mutex
	file *os.File
	mem  bytes.Buffer
}

func newSpool() *spool {
	sp := &spool{}
	if f, err := os.CreateTemp("", "ccvet-stdin-*"); err == nil {
		if os.Remove(f.Name()) == nil {
			sp.file = f
		} else {
			f.Close()
		}
	}
	return sp
}

// Write appends to the copy; a failed write is reported to the reader of
// standard input (through io.TeeReader), as a read error.
func (sp *spool) Write(p []byte) (int, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.file != nil {
		return sp.file.Write(p)
	}
	return sp.mem.Write(p)
}

// ReadAt reads the copy.
func (sp *spool) ReadAt(p []byte, off int64) (int, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.file != nil {
		return sp.file.ReadAt(p, off)
	}
	return bytes.NewReader(sp.mem.Bytes()).ReadAt(p, off)
}

// Close drops the copy.
func (sp *spool) Close() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.file != nil {
		sp.file.Close()
		sp.file = nil
	}
	sp.mem = bytes.Buffer{}
}

var _ io.ReaderAt = (*spool)(nil)
