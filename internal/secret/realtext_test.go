package secret

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// corpusDir is the real corpus, read-only, shared by the helpers.
const corpusDir = "../../../shared/corpus/real"

var realTextCache = map[string][][]byte{}
var realTextMu sync.Mutex

// storeStrings is realStrings of the store CCVET_BENCH_STORE names (e.g.
// a real-shaped store bench/bench.sh made), else of the real corpus; tb
// is skipped when there are none.
func storeStrings(tb testing.TB) [][]byte {
	tb.Helper()
	dir := os.Getenv("CCVET_BENCH_STORE")
	if dir == "" {
		dir = corpusDir
	}
	texts := realStrings(tb, dir)
	if len(texts) == 0 {
		tb.Skip("no strings at " + dir)
	}
	return texts
}

// realStrings returns the raw contents of every JSON string of at least
// minSecret bytes in the .jsonl and .json files under dir (what the
// keyword pass reads, escapes left raw); nil when dir is absent.
func realStrings(tb testing.TB, dir string) [][]byte {
	tb.Helper()
	realTextMu.Lock()
	defer realTextMu.Unlock()
	if s, ok := realTextCache[dir]; ok {
		return s
	}
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	// The strings lie one after the other in one buffer, as they do in
	// the lines Scan reads.
	var out [][]byte
	var arena []byte
	var tr jsontree.Tree
	err := eachJSONLine(dir, func(_ string, _ int, line []byte) {
		if tr.Parse(line) != nil {
			return
		}
		for i := range tr.Nodes {
			nd := &tr.Nodes[i]
			if nd.Kind == jsontree.String && nd.End-nd.Start >= minSecret {
				if len(arena)+int(nd.End-nd.Start) > cap(arena) {
					arena = make([]byte, 0, max(64<<20, 2*int(nd.End-nd.Start)))
				}
				arena = append(arena, tr.RawBytes(i)...)
				out = append(out, arena[len(arena)-int(nd.End-nd.Start):len(arena):len(arena)])
			}
		}
	})
	if err != nil {
		tb.Fatal(err)
	}
	realTextCache[dir] = out
	return out
}

// eachJSONLine calls fn with each line (numbered from 1) of every .jsonl
// and .json file under dir, in walk order.
func eachJSONLine(dir string, fn func(path string, n int, line []byte)) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (!strings.HasSuffix(p, ".jsonl") && !strings.HasSuffix(p, ".json")) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<30)
		n := 0
		for sc.Scan() {
			n++
			fn(p, n, sc.Bytes())
		}
		return sc.Err()
	})
}
