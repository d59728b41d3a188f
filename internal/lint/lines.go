package lint

import (
	"io"

	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/model"
)

// snippetMaxLine bounds the line Lines holds: a longer line comes back cut
// to its first snippetMaxLine bytes.
const snippetMaxLine = 16 << 20

// Lines reads lines of the files of a run again, by display path and line
// number, for printers that show the offending line (report.TextOptions).
// It keeps one file open and reads forward, from the mark before a line
// (model.File.Marks) when that is ahead, and keeps the last line it
// returned, so findings in report order (by path, then line; several on
// one line) read each line at most once, and little more than the lines
// they point at: linear in the size of those lines and the number of
// findings. Only the bytes read
// when the file was checked are read again (see Result.Lines). Standard
// input is read from its copy (see Engine.open).
type Lines struct {
	files map[string]*model.File
	path  string
	src   *io.SectionReader // path's bytes, as Reopen gives them
	done  func()            // releases what Reopen opened for src
	rd    *jsonl.Reader
	next  int    // number of the line rd returns next
	last  []byte // line next-1, valid until rd moves on
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
	if l.rd != nil && l.path == path && n == l.next-1 && l.last != nil {
		return l.last, true // another finding on the same line
	}
	f := l.files[path]
	if f == nil {
		return nil, false
	}
	// Read on from where the reader is, unless the line is behind it or
	// a mark of the file comes after it (see model.File.Marks).
	start, off := 1, int64(0)
	if f.Source == nil { // the marks are of the bytes checked, which Reopen would not give
		start, off = f.Mark(n)
	}
	if l.rd == nil || l.path != path || l.next > n || l.next < start {
		if l.src == nil || l.path != path {
			l.Close()
			// Bytes appended since the check are not reported on.
			src, done, err := f.Reopen()
			if err != nil {
				return nil, false
			}
			l.path, l.src, l.done = path, src, done
		} else if l.rd != nil {
			l.rd.Release() // the same file, read again from elsewhere
		}
		// Small reads: the buffer is not filled with what follows the
		// lines wanted.
		rd := jsonl.NewReader(jsonl.SmallReads(io.NewSectionReader(l.src, off, l.src.Size()-off)))
		rd.StartAt(start, off)
		rd.MaxLine = snippetMaxLine
		l.rd, l.next, l.last = rd, start, nil
	}
	for {
		jl, err := l.rd.Next()
		if err != nil {
			l.Close()
			return nil, false
		}
		l.next, l.last = jl.Num+1, nil
		if jl.Num == n {
			l.last = jl.Bytes
			return jl.Bytes, true
		}
	}
}

// Close closes the file Lines holds open, if any.
func (l *Lines) Close() error {
	if l.done != nil {
		l.done()
	}
	if l.rd != nil {
		l.rd.Release() // give the pooled buffer back
	}
	l.done, l.rd, l.src, l.path, l.next, l.last = nil, nil, nil, "", 0, nil
	return nil
}
