package lint

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
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
	res, _ := runOn(t, p)
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
	res, _ = runOn(t, p)
	hit := false
	for _, f := range res.Findings {
		hit = hit || f.Rule == "truncated-line"
	}
	if !hit {
		t.Errorf("a partial last line in a file that did not grow: %+v", res.Findings)
	}
}

// TestSwappedForLink: a file found as a regular file and replaced by a link
// before it is read is not read through the link.
func TestSwappedForLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestSwappedForLink skipped: creates symbolic links (Windows allows them only in developer mode or as administrator)")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret.jsonl")
	if err := os.WriteFile(secret, []byte(`{"type":"SECRET"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := layout.Discover([]string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, p); err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	res := e.Run(found)
	if res.Entries != 0 || len(res.Findings) == 0 || res.Findings[0].Rule != "unreadable" {
		t.Errorf("read through the swapped link: %d entries, %+v", res.Entries, res.Findings)
	}
	for _, f := range res.Findings {
		if strings.Contains(f.Message, "SECRET") {
			t.Errorf("leaked: %+v", f)
		}
	}
}
