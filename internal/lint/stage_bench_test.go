package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/internal/benchstore"
	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/resume"
	"github.com/ccvet/ccvet/internal/schema"
)

// stageFile is one real transcript, decoded once for the stages after parse.
type stageFile struct {
	data  []byte
	lines [][]byte
	trees []*jsontree.Tree // the lines that parsed to an object
	types []string
	recs  []*entry.Record
}

var (
	stageOnce  sync.Once
	stageFiles []*stageFile
	stageBytes int64
)

// realStageFiles is the real corpus's transcripts (up to 32 MB;
// old versions, real damage, every size of tool result), each kept as a
// file: the graph and the resume model run per file. Without the corpus,
// the transcripts of a generated store.
func realStageFiles(tb testing.TB) ([]*stageFile, int64) {
	tb.Helper()
	stageOnce.Do(func() {
		add := func(root string) {
			_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || filepath.Base(p) == "history.jsonl" ||
					stageBytes > 32<<20 {
					return nil
				}
				b, err := os.ReadFile(p)
				if err != nil || len(b) == 0 {
					return nil
				}
				f := &stageFile{data: b, lines: bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))}
				for i, l := range f.lines {
					t := new(jsontree.Tree)
					if t.Parse(l) != nil || t.Kind(jsontree.Root) != jsontree.Object {
						continue
					}
					typ, _ := t.Str(t.Get(jsontree.Root, "type"))
					f.trees, f.types = append(f.trees, t), append(f.types, typ)
					f.recs = append(f.recs, entry.Extract(jsontree.TreeVal(t), i+1, 0))
				}
				stageFiles = append(stageFiles, f)
				stageBytes += int64(len(b))
				return nil
			})
		}
		add(corpusDir)
		if len(stageFiles) == 0 {
			dir, err := os.MkdirTemp("", "ccvet-bench-")
			if err == nil {
				defer os.RemoveAll(dir)
				if _, err := benchstore.Generate(dir, benchstore.Options{Bytes: 8 << 20, Seed: 1}); err == nil {
					add(dir)
				}
			}
		}
	})
	if len(stageFiles) == 0 {
		tb.Skip("no transcripts")
	}
	return stageFiles, stageBytes
}

// BenchmarkStages is each stage of the per-file work alone, over the same
// real transcripts, with allocations, so that a regression shows in one
// command (bench/gobench.sh runs it):
//
//	go test ./internal/lint -run '^$' -bench Stages -benchmem
//
// frame: lines out of the bytes, with their byte defects (jsonl);
// parse: each line into its tree (jsontree);
// schema: the fast schema check of each entry;
// reference: jsonschema/v5 on the entries the fast check cannot prove valid
// (as the schema rule asks; "lines" says how many), per byte of all;
// records: the graph record of each entry (entry.Extract);
// graph: each file's conversation graph (chain.Build);
// resume: the resume model of each file for the reader that wrote it (resume.Run).
// BenchmarkLines is all of them together, with every line and file rule.
func BenchmarkStages(b *testing.B) {
	files, n := realStageFiles(b)
	b.Run("frame", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				r := jsonl.NewReader(bytes.NewReader(f.data))
				r.Frame = true
				for {
					if _, err := r.Next(); err != nil {
						break
					}
				}
				r.Release()
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		var t jsontree.Tree
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				for _, l := range f.lines {
					_ = t.Parse(l)
				}
			}
		}
	})
	v, err := schema.New()
	if err != nil {
		b.Fatal(err)
	}
	// The lines the fast check cannot prove valid go to the reference.
	type ref struct {
		typ string
		t   *jsontree.Tree
	}
	var refs []ref
	for _, f := range files { // also compiles the checks before timing
		for i, t := range f.trees {
			if v.KnownEntryType(f.types[i]) {
				if vd := v.FastEntry(f.types[i], t); vd != schema.Valid && vd != schema.UnknownOnly {
					refs = append(refs, ref{f.types[i], t})
				}
			}
		}
	}
	b.Run("schema", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				for i, t := range f.trees {
					if v.KnownEntryType(f.types[i]) {
						v.FastEntry(f.types[i], t)
					}
				}
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.ReportMetric(float64(len(refs)), "lines")
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range refs {
				_ = v.ValidateEntryTree(r.typ, r.t.Value(jsontree.Root), r.t)
			}
		}
	})
	b.Run("records", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				for i, t := range f.trees {
					_ = entry.Extract(jsontree.TreeVal(t), i+1, 0)
				}
			}
		}
	})
	b.Run("graph", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				_ = chain.Build(f.recs)
			}
		}
	})
	b.Run("resume", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				var w resume.Version
				for _, r := range f.recs {
					if v, ok := resume.ParseVersion(r.Version); ok && w.Less(v) {
						w = v
					}
				}
				_ = resume.Run(resume.Source{Records: f.recs}, resume.ProfileOf(w))
			}
		}
	})
}
