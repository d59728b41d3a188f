package jsonl

import (
	"bytes"
	"errors"
	"unicode/utf8"
)

// ErrBOM is why a first line that starts with a UTF-8 byte order mark is
// not an entry (Line.BOM).
var ErrBOM = errors.New("the file starts with a UTF-8 byte order mark")

// frame finds what is wrong with the line's bytes before any JSON parsing
// (Line.Blank, NUL, BadUTF8, BOM) and whether they should be parsed
// (Line.Parse). On a line to parse, NUL bytes are not searched for: a NUL
// byte is never valid JSON, so a line that parses has none, and one that
// does not asks FindNUL.
func (l *Line) frame() {
	l.NUL, l.BadUTF8 = -1, -1
	if l.Cut {
		l.NUL = bytes.IndexByte(l.Bytes, 0)
	}
	if !validUTF8(l.Bytes) {
		l.BadUTF8 = FirstInvalidUTF8(l.Bytes)
	}
	if !l.Cut && len(bytes.TrimSpace(l.Bytes)) == 0 {
		l.Blank = l.Length == int64(len(l.Bytes))
		if l.Blank {
			return
		}
	}
	if l.BadUTF8 >= 0 && l.NUL < 0 {
		l.NUL = bytes.IndexByte(l.Bytes, 0)
	}
	if l.NUL >= 0 || l.BadUTF8 >= 0 || l.Cut {
		return // each has its own finding; parsing would only repeat it
	}
	if l.Num == 1 && bytes.HasPrefix(l.Bytes, []byte("\xef\xbb\xbf")) {
		if l.FindNUL() < 0 {
			l.BOM = true
		}
		return
	}
	l.Parse = true
}

// FindNUL looks for a NUL byte in a line framing left to parse (Parse),
// once it did not parse: it sets and returns NUL, the offset of the first
// NUL byte or -1.
func (l *Line) FindNUL() int {
	l.NUL = bytes.IndexByte(l.Bytes, 0)
	return l.NUL
}

// FirstInvalidUTF8 returns the offset of the first byte of b that is not
// valid UTF-8, or -1.
func FirstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}
