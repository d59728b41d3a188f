package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// TestLongLinesInFlight: with -j 4 and four files that each hold a line
// longer than a reader's buffer, the engine holds one such line at a time
// (all lines in flight stay under MaxLine plus a buffer per job), every
// line under the limit is still read whole, and a line past the limit is
// reported as not fully checked. The limit is small here (12 MiB) so the
// test stays light; ccvet runs with jsonl.DefaultMaxLine.
func TestLongLinesInFlight(t *testing.T) {
	const maxLine = 12 << 20
	dir := t.TempDir()
	proj := filepath.Join(dir, "projects", "-home-dev-src-app")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	// line is an entry of size bytes, then '\n'.
	line := func(n int, size int) string {
		head := `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"`
		tail := fmt.Sprintf(`"},"uuid":"00000000-0000-4000-8000-%012d","timestamp":"2026-01-01T00:00:00.000Z"}`, n)
		return head + strings.Repeat("x", max(size-len(head)-len(tail), 1)) + tail + "\n"
	}
	longSize := 3 * jsonl.BufferSize
	for i := range 4 {
		body := line(10*i+1, 200) + line(10*i+2, longSize) + line(10*i+3, 200)
		name := fmt.Sprintf("0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e7%d.jsonl", i)
		if err := os.WriteFile(filepath.Join(proj, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tooLong := filepath.Join(proj, "0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e79.jsonl")
	if err := os.WriteFile(tooLong, []byte(line(91, 200)+line(92, maxLine+(1<<20))), 0o644); err != nil {
		t.Fatal(err)
	}

	var (
		held, most atomic.Int32
		mu         sync.Mutex
		long       = map[string]model.Line{} // path:line -> what OnLine saw
	)
	found, err := layout.Discover([]string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	res := benchEngine(t, Options{Jobs: 4, MaxLine: maxLine, OnLine: func(l *model.Line) {
		if len(l.Raw) <= jsonl.BufferSize {
			return
		}
		n := held.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond) // room for another job to show up with its long line
		held.Add(-1)
		mu.Lock()
		long[fmt.Sprintf("%s:%d", filepath.Base(l.File.Path), l.Num)] = model.Line{Length: l.Length, Cut: l.Cut, Raw: []byte{}}
		mu.Unlock()
	}}).Run(found)

	if m := most.Load(); m != 1 {
		t.Errorf("%d lines over the reader's buffer were held at once, want 1", m)
	}
	if len(long) != 5 {
		t.Errorf("OnLine saw %d long lines, want 5: %v", len(long), long)
	}
	for where, l := range long {
		if strings.HasSuffix(where, "9.jsonl:2") {
			if !l.Cut || l.Length != int64(maxLine+(1<<20)) {
				t.Errorf("%s: cut %v, length %d; want it cut, %d bytes long", where, l.Cut, l.Length, maxLine+(1<<20))
			}
		} else if l.Cut || l.Length != int64(longSize) {
			t.Errorf("%s: cut %v, length %d; want it whole, %d bytes", where, l.Cut, l.Length, longSize)
		}
	}
	var notChecked int
	for _, f := range res.Findings {
		if f.Rule == "oversized" && f.Line == 2 && strings.HasSuffix(f.Path, "9.jsonl") &&
			strings.Contains(f.Message, "was not checked") {
			notChecked++
		}
	}
	if notChecked != 1 {
		t.Errorf("want one oversized finding saying line 2 of the too-long file was not checked; findings: %+v", res.Findings)
	}
}
