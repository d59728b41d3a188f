package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func atime(t *testing.T, p string) time.Time {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	a := st.Sys().(*syscall.Stat_t).Atim
	return time.Unix(int64(a.Sec), int64(a.Nsec)).UTC() // int32 fields on 386
}

// TestAtimeKept: a run, snippets and all, leaves the access time of the
// caller's own files as it was (O_NOATIME): loose files, which the walk
// reads first to tell a transcript from other JSON Lines, and the
// transcripts resume reads beside the one it rebuilds, included. Where the
// file system does not record access times on read, the test proves
// nothing but still passes.
func TestAtimeKept(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := t.TempDir()
	copyTree(t, filepath.Join(fixtures, "orphan-parent", "bad"), dir)
	// A transcript beside it (read by resume for the parent it cuts at),
	// and loose files, which the walk reads first to tell a transcript
	// from somebody else's JSON Lines.
	proj := filepath.Join(dir, "projects", "-src-experiments-claude-p")
	session := filepath.Join(proj, "256ba646-2c15-437a-98e9-4171aafd030e.jsonl")
	b, err := os.ReadFile(session)
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string][]byte{
		filepath.Join(proj, "3c1e5d2a-6f4b-4a8e-9b7c-0d2e4f6a8b1c.jsonl"): b,
		filepath.Join(dir, "loose", "export.jsonl"):                       b,
		filepath.Join(dir, "loose", "data.jsonl"):                         []byte("{\"a\":1}\n{\"b\":2}\n"),
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
			if err := os.Chtimes(p, old, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	for _, f := range []string{"text", "json"} {
		run(t, "", "-f", f, dir)
		run(t, "", "-f", f, filepath.Join(dir, "loose"))
	}
	run(t, "", "resume", session)
	for _, p := range files {
		if at := atime(t, p); !at.Equal(old) {
			t.Errorf("%s: access time moved to %v", p, at)
		}
	}
}
