package jsonl

import (
	"bytes"
	"unicode/utf8"
)

// bom is the UTF-8 byte order mark.
var bom = []byte("\xef\xbb\xbf")

// frame finds what is wrong with the line's bytes before any JSON parsing
// (Line.Blank, NUL, BadUTF8) and whether they should be parsed
// (Line.Parse). On a line to parse, NUL bytes are not searched for: a NUL
// byte is never valid JSON, so a line that parses has none, and one that
// does not asks FindNUL.
//
// A byte order mark before the first line is not part of the line: the
// reader of Claude Code reads the line after it (measured on 2.1.330 and
// 2.1.332). The line is framed without it (Bytes, Offset and Length start
// after it) and BOM says it was there.
func (l *Line) frame() {
	l.NUL, l.BadUTF8 = -1, -1
	if l.Num == 1 && bytes.HasPrefix(l.Bytes, bom) {
		l.BOM = true
		l.Bytes = l.Bytes[len(bom):]
		l.Offset += int64(len(bom))
		l.Length -= int64(len(bom))
	}
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
