package jsonl

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

// FuzzReader checks the framing invariants on any input: the lines and
// their newlines put back together give the input, offsets and numbers run
// without gaps, only the last line may lack its newline, and a MaxLine cut
// keeps the right prefix. A short CI smoke run:
//
//	go test ./internal/jsonl -run '^$' -fuzz FuzzReader -fuzztime 20s
func FuzzReader(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\nb", "\n\n\r\n", "{\"x\":1}\r\n{}\n", "\x00\x00\n\xff"} {
		f.Add([]byte(s), uint16(0), false)
	}
	if lines, err := os.ReadFile(filepath.Join(corpusDir, "simonw__claude-code-transcripts", "tests", "sample_session.jsonl")); err == nil {
		f.Add(lines[:min(len(lines), 4096)], uint16(0), false)
		f.Add(lines[:min(len(lines), 4096)], uint16(100), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, maxLine uint16, oneByte bool) {
		var src io.Reader = bytes.NewReader(data)
		if oneByte {
			src = iotest.OneByteReader(src) // reads that end anywhere
		}
		r := NewReader(src)
		if maxLine > 0 {
			r.MaxLine = int(maxLine)
		}
		var rebuilt bytes.Buffer
		var off int64
		num := 0
		for {
			l, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			num++
			if l.Num != num {
				t.Fatalf("line %d numbered %d", num, l.Num)
			}
			if l.Offset != off {
				t.Fatalf("line %d at offset %d, want %d", num, l.Offset, off)
			}
			if l.Length < int64(len(l.Bytes)) {
				t.Fatalf("line %d: Length %d < len(Bytes) %d", num, l.Length, len(l.Bytes))
			}
			if l.Cut != (l.Length > int64(len(l.Bytes))) {
				t.Fatalf("line %d: Cut %v with Length %d, %d bytes", num, l.Cut, l.Length, len(l.Bytes))
			}
			if bytes.IndexByte(l.Bytes, '\n') >= 0 {
				t.Fatalf("line %d holds a newline", num)
			}
			want := data[off : off+l.Length]
			if !bytes.Equal(l.Bytes, want[:len(l.Bytes)]) {
				t.Fatalf("line %d: bytes are not the input's prefix", num)
			}
			if !l.Cut && maxLine > 0 && len(l.Bytes) > int(maxLine) {
				t.Fatalf("line %d: %d bytes held with MaxLine %d", num, len(l.Bytes), maxLine)
			}
			rebuilt.Write(want)
			off += l.Length
			if l.Newline {
				if off >= int64(len(data)) || data[off] != '\n' {
					t.Fatalf("line %d: Newline set but no '\\n' at %d", num, off)
				}
				rebuilt.WriteByte('\n')
				off++
			} else if off != int64(len(data)) {
				t.Fatalf("line %d has no newline but is not the last (offset %d of %d)", num, off, len(data))
			}
		}
		if !bytes.Equal(rebuilt.Bytes(), data) {
			t.Fatalf("lines do not rebuild the input: %q vs %q", rebuilt.Bytes(), data)
		}
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("Next after EOF: %v", err)
		}
	})
}
