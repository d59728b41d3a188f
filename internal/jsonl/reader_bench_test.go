package jsonl

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir holds real Claude Code transcripts when the shared corpus is
// checked out beside the repository.
const corpusDir = "../../../shared/corpus/real"

// benchInput is a few MB of JSON Lines: the real corpus's transcripts
// concatenated when available, else synthetic lines of mixed lengths.
func benchInput(tb testing.TB) []byte {
	tb.Helper()
	var buf bytes.Buffer
	_ = filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || buf.Len() > 16<<20 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil && len(b) > 0 {
			buf.Write(b)
			if b[len(b)-1] != '\n' {
				buf.WriteByte('\n')
			}
		}
		return nil
	})
	if buf.Len() > 0 {
		return buf.Bytes()
	}
	for i := 0; buf.Len() < 8<<20; i++ {
		n := 200 + (i*7919)%4000
		if i%97 == 0 {
			n = 300 << 10 // a big tool result now and then
		}
		buf.WriteString(`{"parentUuid":null,"type":"user","message":{"role":"user","content":"`)
		buf.WriteString(strings.Repeat("x", n))
		buf.WriteString("\"}}\n")
	}
	return buf.Bytes()
}

// BenchmarkReader measures splitting alone: lines out of a byte stream.
func BenchmarkReader(b *testing.B) { benchReader(b, false) }

// BenchmarkReaderFramed adds framing (Reader.Frame), as the linter reads.
func BenchmarkReaderFramed(b *testing.B) { benchReader(b, true) }

func benchReader(b *testing.B, frame bool) {
	data := benchInput(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		r.Frame = frame
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n == 0 {
			b.Fatal("no lines")
		}
	}
}

// BenchmarkReaderLongLine reads one 64 MiB line.
func BenchmarkReaderLongLine(b *testing.B) {
	data := append(bytes.Repeat([]byte{'a'}, 64<<20), '\n')
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		l, err := r.Next()
		if err != nil || l.Length != 64<<20 {
			b.Fatal(err, l.Length)
		}
	}
}
