// Package jsonl reads newline-delimited records of any length and frames them: line numbers, byte offsets, and what is wrong with their bytes.
package jsonl

import (
	"bufio"
	"errors"
	"io"
	"sync"
)

// DefaultMaxLine is the longest line the reader holds in memory. Longer
// lines are still framed and counted, but their bytes are dropped: Line.Cut
// tells the caller that only the first MaxLine bytes are in Line.Bytes.
const DefaultMaxLine = 512 << 20

// Line is one record. With Reader.Frame set it is framed: what is wrong
// with its bytes is found before any JSON parsing (frame.go); without, the
// framing fields are zero and mean nothing. Bytes is only valid until the
// next call to Next.
type Line struct {
	Num     int    // 1-based line number
	Offset  int64  // byte offset of the line's first byte in the stream
	Bytes   []byte // the line without its terminating '\n'
	Length  int64  // full length of the line in bytes, without the '\n'
	Newline bool   // the line ended with '\n' (false only for the last line)
	Cut     bool   // Length > len(Bytes): the line was longer than MaxLine

	Blank   bool // empty or only white space
	NUL     int  // byte offset of the first NUL byte, or -1 (not searched when Parse: see FindNUL)
	BadUTF8 int  // byte offset of the first invalid UTF-8 byte, or -1
	BOM     bool // line 1 started with a UTF-8 byte order mark, left out of Bytes, Offset and Length
	Parse   bool // no defect above, not Cut: the bytes are to be parsed as JSON
}

// Reader splits a stream into lines without a length limit of its own;
// memory is bounded by the longest line held (at most MaxLine).
type Reader struct {
	br      *bufio.Reader
	buf     []byte
	MaxLine int
	// Frame makes Next frame each line (Line.Blank, NUL, BadUTF8, BOM,
	// Parse). Readers that only look lines up again leave it off.
	Frame bool
	num   int
	off   int64
	err   error
	// Long, if set before the first Next, is the budget this reader
	// shares with others for lines longer than its buffer.
	Long    *LongLines
	holding bool // r.buf is Long's buffer
}

// NewReader returns a Reader over r.
func NewReader(r io.Reader) *Reader {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	return &Reader{br: br, MaxLine: DefaultMaxLine}
}

// bufSize is the reader's buffer: a line that fits is not copied.
const bufSize = 1 << 20

// readers are reusable buffered readers (Release returns them).
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, bufSize) }}

// StartAt tells a reader that has not returned a line yet that its stream
// starts at line num of a file, byte off: the lines it returns are numbered
// and placed from there.
func (r *Reader) StartAt(num int, off int64) {
	r.num, r.off = num-1, off
}

// Release hands the reader's buffer back for reuse; the reader and the
// lines it returned must not be used afterwards. Calling it is optional.
func (r *Reader) Release() {
	if r.br != nil {
		r.br.Reset(nil)
		readers.Put(r.br)
		r.br = nil
		r.err = io.EOF
	}
	r.dropLong()
}

// dropLong gives back the long-line budget if the reader holds it.
func (r *Reader) dropLong() {
	if r.holding {
		b := r.buf
		r.holding, r.buf = false, nil
		r.Long.release(b)
	}
}

// Next returns the next line. It returns io.EOF after the last line, and
// any other read error as is (the line read so far, if any, comes first).
func (r *Reader) Next() (Line, error) {
	r.dropLong()
	if r.err != nil {
		return Line{}, r.err
	}
	r.buf = r.buf[:0]
	var length int64
	cut := false
	first := true
	for {
		chunk, err := r.br.ReadSlice('\n')
		if first && err == nil && len(chunk) <= r.MaxLine {
			// The whole line is in the reader's buffer: no copy. It stays
			// valid until the next call, as the copy would.
			return r.lineOf(chunk, int64(len(chunk)), true, false), nil
		}
		if first && err == bufio.ErrBufferFull && r.Long != nil {
			r.buf = r.Long.acquire()
			r.holding = true
		}
		first = false
		length += int64(len(chunk))
		if room := r.MaxLine - len(r.buf); room > 0 {
			if len(chunk) > room {
				chunk = chunk[:room]
				cut = true
			}
			r.grow(len(chunk))
			r.buf = append(r.buf, chunk...)
		} else if len(chunk) > 0 {
			cut = true
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			r.err = err
			if length == 0 {
				return Line{}, err
			}
			return r.line(length, false, cut), nil
		}
		return r.line(length, true, cut), nil
	}
}

// grow makes room for n more bytes in r.buf, doubling its capacity.
// append alone grows a large slice by only 1.25x, so a line of L bytes read
// in 1 MiB chunks would allocate about 5L in all; doubling allocates 2L
// to 4L (4L just past a power of two) for about the same peak.
func (r *Reader) grow(n int) {
	if len(r.buf)+n <= cap(r.buf) {
		return
	}
	c := max(2*cap(r.buf), len(r.buf)+n, 4096)
	c = min(c, max(r.MaxLine, len(r.buf)+n))
	nb := make([]byte, len(r.buf), c)
	copy(nb, r.buf)
	r.buf = nb
}

func (r *Reader) line(length int64, newline, cut bool) Line {
	return r.lineOf(r.buf, length, newline, cut)
}

func (r *Reader) lineOf(b []byte, length int64, newline, cut bool) Line {
	if newline {
		length--
		if !cut || len(b) > 0 && b[len(b)-1] == '\n' {
			b = b[:len(b)-1]
		}
	}
	if int64(len(b)) > length {
		b = b[:length]
	}
	r.num++
	l := Line{Num: r.num, Offset: r.off, Bytes: b, Length: length, Newline: newline, Cut: cut && int64(len(b)) < length}
	if r.Frame {
		l.frame()
	}
	r.off += length
	if newline {
		r.off++
	}
	// Give back a huge buffer so that one long line does not pin memory for the rest of the file.
	if !r.holding && cap(r.buf) > 64<<20 && len(b) < 1<<20 {
		r.buf = nil
	}
	return l
}

// IsEOF reports whether err marks the normal end of the stream.
func IsEOF(err error) bool { return errors.Is(err, io.EOF) }

// smallReads bounds each Read of the reader SmallReads returns.
const smallReads = 16 << 10

// SmallReads returns a reader over r whose each Read asks r for at most
// 16 KiB. A Reader over it that reads one line (a finding's line read again
// at its offset) reads little more than that line, where its buffer would
// otherwise be filled with up to 1 MiB of what follows.
func SmallReads(r io.Reader) io.Reader { return smallReader{r} }

type smallReader struct{ r io.Reader }

func (s smallReader) Read(p []byte) (int, error) {
	if len(p) > smallReads {
		p = p[:smallReads]
	}
	return s.r.Read(p)
}
