package lint

import (
	"bytes"
	"hash/maphash"
	"io"
	"sync"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/model"
)

// hashSeed is the seed of the line hashes: hashes are compared within one
// run only.
var hashSeed = maphash.MakeSeed()

// hash is a 64-bit hash of the line, enough to tell an exact duplicate line.
func hash(b []byte) uint64 { return maphash.Bytes(hashSeed, b) }

// lineHashes gives Record.Hash to the records whose uuid occurs more than
// once in their file, the only ones duplicate-uuid compares: hashing every
// line cost more than keeping each uuid's first line until the file is
// read. A later line is hashed as it is read; the first line of its uuid
// is read again then, through ra (the file is still open).
type lineHashes struct {
	ra    io.ReaderAt
	first map[string]firstLine
	buf   []byte
}

type firstLine struct {
	rec    *entry.Record
	length int64
	hashed bool
}

var lineHashPool = sync.Pool{New: func() any { return &lineHashes{first: map[string]firstLine{}} }}

// add sees the record of a line whose bytes are raw (length bytes long).
func (h *lineHashes) add(rec *entry.Record, raw []byte) {
	if rec.UUID == "" {
		return
	}
	fl, ok := h.first[rec.UUID]
	if !ok {
		h.first[rec.UUID] = firstLine{rec: rec, length: int64(len(raw))}
		return
	}
	rec.Hash = hash(raw)
	if !fl.hashed {
		fl.rec.Hash = h.hashAt(fl.rec.Offset, fl.length, rec.Hash)
		fl.hashed = true
		h.first[rec.UUID] = fl
	}
}

// hashAt hashes the n bytes at off, read again. If they cannot be read
// (the file shrank), it returns a hash that differs from other: the lines
// are then not called exact copies.
func (h *lineHashes) hashAt(off, n int64, other uint64) uint64 {
	if h.ra != nil {
		var mh maphash.Hash
		mh.SetSeed(hashSeed)
		if h.buf == nil {
			h.buf = make([]byte, 64<<10)
		}
		if got, err := io.CopyBuffer(&mh, io.NewSectionReader(h.ra, off, n), h.buf); err == nil && got == n {
			return mh.Sum64() // maphash.Bytes of the line, as hash gives
		}
	}
	return other ^ 1
}

// release empties h and returns it to the pool; the map of a big file is
// not kept (clear keeps a map's memory).
func (h *lineHashes) release() {
	if len(h.first) > 1<<14 {
		h.first = map[string]firstLine{}
	} else {
		clear(h.first)
	}
	h.ra = nil
	lineHashPool.Put(h)
}

// readerAt gives the bytes of f as checkLines reads them from rc, to read
// a line again; nil when there is no way.
func (e *Engine) readerAt(f *model.File, rc io.ReadCloser) io.ReaderAt {
	if f.Copy != nil {
		return f.Copy
	}
	if data, ok := e.opts.Overlay[f.OSPath]; ok {
		return bytes.NewReader(data)
	}
	if sf, ok := rc.(*snapFile); ok {
		return sf.f
	}
	return nil
}
