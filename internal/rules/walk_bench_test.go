package rules

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// BenchmarkReaderWalks is what the rules that judge a resume do on each
// transcript of the real corpus (up to 32 MB, as BenchmarkStages in
// internal/lint): the graph, then the walk (walks) or the whole resume
// (resumes) of every reader version readersOf gives, shared as the rules
// share them.
func BenchmarkReaderWalks(b *testing.B) {
	var loaded []*resume.Loaded
	var n int64
	_ = filepath.WalkDir("../../../shared/corpus/real", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || filepath.Base(p) == "history.jsonl" || n > 32<<20 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) == 0 {
			return nil
		}
		ld, err := resume.Load(bytes.NewReader(data))
		if err != nil {
			return nil
		}
		loaded = append(loaded, ld)
		n += int64(len(data))
		return nil
	})
	if len(loaded) == 0 {
		b.Skip("no corpus")
	}
	for _, full := range []bool{false, true} {
		name := "walks"
		if full {
			name = "resumes"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				for _, ld := range loaded {
					f := &model.File{File: &layout.File{Kind: layout.Transcript, InLayout: true}, Records: ld.Records, Bytes: ld.Size}
					for _, v := range readersOf(f, f.Records) {
						if full {
							_ = resumeOf(f, v)
						} else {
							_ = walkOf(f, v)
						}
					}
				}
			}
		})
	}
}
