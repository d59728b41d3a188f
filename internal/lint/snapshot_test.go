package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
)

// TestSizeSnapshot: bytes appended after a file is opened are left to the
// next run, and the partial line at the snapshot's edge is not reported
// (as truncated-line or anything else) when the file has grown.
func TestSizeSnapshot(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	whole := `{"type":"summary","summary":"a","leafUuid":"x"}` + "\n"
	partial := `{"type":"summary","sum`
	if err := os.WriteFile(p, []byte(whole+partial), 0o644); err != nil {
		t.Fatal(err)
	}
	afterOpen = func(string) {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		if _, err := f.WriteString(`mary":"b","leafUuid":"y"}` + "\n" + whole + whole); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterOpen = nil }()
	e, err := New(Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	found, err := layout.Discover([]string{p}, "")
	if err != nil {
		t.Fatal(err)
	}
	res := e.Run(found)
	if res.Entries != 1 || res.Bytes != int64(len(whole)) {
		t.Errorf("read %d entries, %d bytes; want the 1 entry (%d bytes) there at open", res.Entries, res.Bytes, len(whole))
	}
	for _, f := range res.Findings {
		if f.Line == 2 {
			t.Errorf("the line cut by the snapshot is reported: %+v", f)
		}
	}
	// Without growth, the same partial line is a truncated line.
	afterOpen = nil
	if err := os.WriteFile(p, []byte(whole+partial), 0o644); err != nil {
		t.Fatal(err)
	}
	res = e.Run(found)
	hit := false
	for _, f := range res.Findings {
		hit = hit || f.Rule == "truncated-line"
	}
	if !hit {
		t.Errorf("a partial last line in a file that did not grow: %+v", res.Findings)
	}
}
