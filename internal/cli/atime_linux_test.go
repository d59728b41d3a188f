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
// caller's own files as it was (O_NOATIME). Where the file system does not
// record access times on read, the test proves nothing but still passes.
func TestAtimeKept(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := t.TempDir()
	copyTree(t, filepath.Join(fixtures, "orphan-parent", "bad"), dir)
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
	}
	for _, p := range files {
		if at := atime(t, p); !at.Equal(old) {
			t.Errorf("%s: access time moved to %v", p, at)
		}
	}
}
