package lint

import (
	"bytes"
	"io"

	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/model"
)

// snippetMaxLine bounds the line Lines holds: a longer line comes back cut
// to its first snippetMaxLine bytes.
const snippetMaxLine = 16 << 20

// Lines reads lines of the files of a run again, by display path and line
// number, for printers that show the offending line (report.TextOptions).
// It keeps one file open and reads forward, so findings in report order
// (by path, then line) cost one pass over each file. Standard input is
// read from the bytes kept in memory.
type Lines struct {
	files map[string]*model.File
	path  string
	rc    io.Closer
	rd    *jsonl.Reader
	next  int // number of the line rd returns next
}

// Lines returns a line reader over the files of the run; Close it after use.
func (r *Result) Lines() *Lines {
	l := &Lines{files: map[string]*model.File{}}
	for _, f := range r.src {
		if _, dup := l.files[f.Path]; !dup && !f.Context {
			l.files[f.Path] = f
		}
	}
	return l
}

// Line returns line n (1-based) of the file reported as path, without its
// newline; at most snippetMaxLine bytes of it. The bytes are valid until the
// next call (or Close). ok is false when the line cannot be read.
func (l *Lines) Line(path string, n int) (line []byte, ok bool) {
	if n < 1 {
		return nil, false
	}
	if l.rd == nil || l.path != path || l.next > n {
		l.Close()
		f := l.files[path]
		if f == nil {
			return nil, false
		}
		var src io.Reader
		if f.Stdin {
			src = bytes.NewReader(f.StdinData)
		} else {
			rc, err := openReadOnly(f.OSPath)
			if err != nil {
				return nil, false
			}
			l.rc, src = rc, rc
		}
		l.path, l.rd, l.next = path, jsonl.NewReader(src), 1
		l.rd.MaxLine = snippetMaxLine
	}
	for {
		jl, err := l.rd.Next()
		if err != nil {
			l.Close()
			return nil, false
		}
		l.next = jl.Num + 1
		if jl.Num == n {
			return jl.Bytes, true
		}
	}
}

// Close closes the file Lines holds open, if any.
func (l *Lines) Close() error {
	var err error
	if l.rc != nil {
		err = l.rc.Close()
	}
	if l.rd != nil {
		l.rd.Release() // give the pooled buffer back
	}
	l.rc, l.rd, l.path, l.next = nil, nil, "", 0
	return err
}
