package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/internal/benchstore"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsontree"
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
		e.checkFile(f, false)
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
//
// $CCVET_BENCH_DISABLE turns rules off, by id, comma-separated (e.g. secret).
func BenchmarkStore(b *testing.B) {
	dir := os.Getenv("CCVET_BENCH_STORE")
	if dir == "" {
		dir = b.TempDir()
		if _, err := benchstore.Generate(dir, benchstore.Options{Bytes: 48 << 20, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	var opts Options
	if off := os.Getenv("CCVET_BENCH_DISABLE"); off != "" {
		opts.Enabled = map[string]bool{}
		for id := range strings.SplitSeq(off, ",") {
			opts.Enabled[id] = false
		}
	}
	e := benchEngine(b, opts)
	var bytes int64
	b.ReportAllocs()
	for b.Loop() {
		found, err := layout.Discover([]string{dir}, "")
		if err != nil {
			b.Fatal(err)
		}
		res := e.Run(found)
		if len(res.Findings) > 0 && os.Getenv("CCVET_BENCH_STORE") == "" {
			b.Fatalf("%d findings on a healthy store, first: %+v", len(res.Findings), res.Findings[0])
		}
		bytes = res.Bytes
	}
	b.SetBytes(bytes)
}

// projectRecords generates a 24 MB store, reads the transcripts of its
// largest project folder and returns that project with its records, the
// file and project rules not yet run, and the bytes read.
func projectRecords(b *testing.B, e *Engine) (*model.Project, int64) {
	b.Helper()
	dir := b.TempDir()
	if _, err := benchstore.Generate(dir, benchstore.Options{Bytes: 24 << 20, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	found, err := layout.Discover([]string{dir}, "")
	if err != nil {
		b.Fatal(err)
	}
	byDir := map[string][]*model.File{}
	big := ""
	for _, lf := range found.Files {
		if lf.Kind.IsTranscript() {
			byDir[lf.Project] = append(byDir[lf.Project], model.NewFile(lf, e.env, func(finding.Finding) {}))
			if big == "" || len(byDir[lf.Project]) > len(byDir[big]) {
				big = lf.Project
			}
		}
	}
	var n int64
	for _, f := range byDir[big] {
		e.checkLines(f)
		n += f.Bytes
	}
	fs := byDir[big]
	return model.NewProject(big, fs[0].ProjectName, fs[0].InLayout, fs, e.env, func(finding.Finding) {}), n
}

// BenchmarkExtract is the graph record builder: one record per entry,
// from lines already parsed.
func BenchmarkExtract(b *testing.B) {
	data := transcriptLines(b)
	var trees []*jsontree.Tree
	for _, l := range bytes.Split(data, []byte("\n")) {
		t := new(jsontree.Tree)
		if t.Parse(l) == nil && t.Kind(jsontree.Root) == jsontree.Object {
			trees = append(trees, t)
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for i, t := range trees {
			_ = entry.Extract(jsontree.TreeVal(t), i+1, 0)
		}
	}
}

// BenchmarkGraphPass is the file and project rules (the conversation
// graph, tool pairing, sessions) over the records of a few MB of
// transcript lines read as one file, with each file's digest and
// Keeps checks at its close (closeFile), as Run does.
func BenchmarkGraphPass(b *testing.B) {
	e := benchEngine(b, Options{Jobs: 1})
	p, n := projectRecords(b, e)
	recs := make([][]*entry.Record, len(p.Files))
	for i, f := range p.Files {
		recs[i] = f.Records
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for i, f := range p.Files {
			// A copy: KeepStoreRecords reuses the array it is given.
			f.Records, f.Digest, f.Thin = slices.Clone(recs[i]), nil, false
			for _, r := range e.rules {
				if r.File != nil {
					r.File(r, f)
				}
			}
			e.closeFile(p, f, false)
		}
		e.checkProject(p)
	}
}
