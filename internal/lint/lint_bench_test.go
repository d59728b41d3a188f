package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/internal/benchstore"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// corpusDir holds real Claude Code transcripts when the shared corpus is
// checked out beside the repository.
const corpusDir = "../../../shared/corpus/real"

var (
	linesOnce sync.Once
	linesData []byte
)

// transcriptLines is a few MB of transcript lines: the real corpus's
// projects/ transcripts when available, else lines of a generated store.
func transcriptLines(tb testing.TB) []byte {
	tb.Helper()
	linesOnce.Do(func() {
		var buf bytes.Buffer
		add := func(root string) {
			_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || filepath.Base(p) == "history.jsonl" ||
					!strings.Contains(filepath.ToSlash(p), "/projects/") || buf.Len() > 24<<20 {
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
		}
		add(corpusDir)
		if buf.Len() == 0 {
			dir, err := os.MkdirTemp("", "ccvet-bench-")
			if err == nil {
				defer os.RemoveAll(dir)
				if _, err := benchstore.Generate(dir, benchstore.Options{Bytes: 8 << 20, Seed: 1}); err == nil {
					add(dir)
				}
			}
		}
		linesData = buf.Bytes()
	})
	if len(linesData) == 0 {
		tb.Skip("no transcript lines")
	}
	return linesData
}

func benchEngine(tb testing.TB, opts Options) *Engine {
	tb.Helper()
	e, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// BenchmarkLines is the per-line work of the engine (framing, JSON decode,
// schema and every line rule, record extraction, the file rules after it)
// over real transcript lines fed as one file.
func BenchmarkLines(b *testing.B) {
	data := transcriptLines(b)
	e := benchEngine(b, Options{Jobs: 1})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		e.opts.Stdin = bytes.NewReader(data)
		f := model.NewFile(&layout.File{OSPath: "-", Path: "bench.jsonl", Stdin: true, Kind: layout.Transcript, Project: "."},
			e.env, func(finding.Finding) {})
		e.checkFile(f)
		if f.Entries == 0 {
			b.Fatal("no entries")
		}
	}
}

// BenchmarkStore runs the whole engine (discovery, every file, project and
// store rule) over a generated store: 48 MB by default, or the data root
// named by $CCVET_BENCH_STORE (e.g. one bench/bench.sh made). For a profile:
//
//	go test ./internal/lint -run '^$' -bench BenchmarkStore -benchtime 3x -cpuprofile /tmp/cpu.prof
//	go tool pprof -top /tmp/cpu.prof
func BenchmarkStore(b *testing.B) {
	dir := os.Getenv("CCVET_BENCH_STORE")
	if dir == "" {
		dir = b.TempDir()
		if _, err := benchstore.Generate(dir, benchstore.Options{Bytes: 48 << 20, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	e := benchEngine(b, Options{})
	var bytes int64
	b.ReportAllocs()
	for b.Loop() {
		found, err := layout.Discover([]string{dir}, "")
		if err != nil {
			b.Fatal(err)
		}
		res := e.Run(found)
		if len(res.Findings) > 0 {
			b.Fatalf("%d findings on a healthy store, first: %+v", len(res.Findings), res.Findings[0])
		}
		bytes = res.Bytes
	}
	b.SetBytes(bytes)
}
