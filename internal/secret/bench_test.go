package secret_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/secret"
)

var (
	storeOnce  sync.Once
	storeFiles [][]byte
)

// benchFiles are the .jsonl files of the store CCVET_BENCH_STORE names
// (e.g. a generated real-shaped store), else of the real corpus.
func benchFiles(b *testing.B) [][]byte {
	b.Helper()
	storeOnce.Do(func() {
		root := os.Getenv("CCVET_BENCH_STORE")
		if root == "" {
			root = "../../../shared/corpus/real"
		}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil {
				storeFiles = append(storeFiles, data)
			}
			return nil
		})
	})
	if len(storeFiles) == 0 {
		b.Skip("no transcript files")
	}
	return storeFiles
}

// BenchmarkScanTreeStore is the secret rule's per-line work over whole
// transcript files: each line parsed and its strings scanned, with one
// Memo per file sharing one Clean, as the rule keeps them. ParseOnly is
// the parse and the UTF-8 check alone (the reader's work), to subtract.
func BenchmarkScanTreeStore(b *testing.B) {
	files := benchFiles(b)
	total := 0
	for _, f := range files {
		total += len(f)
	}
	run := func(b *testing.B, scan bool) {
		sc := secret.Default()
		var tr jsontree.Tree
		var buf []byte
		pass := func(scan bool) {
			shared := new(secret.Clean)
			for _, f := range files {
				memo := secret.Memo{Shared: shared}
				for line := range bytes.SplitSeq(f, []byte("\n")) {
					if tr.Parse(line) != nil {
						continue
					}
					valid := utf8.Valid(line)
					if !scan {
						continue
					}
					if valid {
						buf = sc.ScanTreeUTF8(&tr, buf, &memo, func(secret.Found) {})
					} else {
						buf = sc.ScanTree(&tr, buf, &memo, func(secret.Found) {})
					}
				}
			}
		}
		// One pass first, not timed: the first pass over the files pays
		// for their pages and the tree's growth (ParseOnly, run first,
		// took 177 ms a pass of a 200 MB store where its next run took 93).
		pass(scan)
		b.SetBytes(int64(total))
		cpu0 := cpuTime()
		for b.Loop() {
			pass(scan)
		}
		// CPU time is steadier than wall time on a shared machine.
		if cpu0 >= 0 {
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		}
	}
	b.Run("ParseOnly", func(b *testing.B) { run(b, false) })
	b.Run("Scan", func(b *testing.B) { run(b, true) })
}
