package outpath

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
)

// TestCheck: a path that is a checked file (or links to one), or lies in a
// checked data root, is refused; a path beside loose transcripts is not.
// The fix helper calls Check for its backup folder.
func TestCheck(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestCheck skipped: creates symbolic links (Windows allows them only in developer mode or as administrator)")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "claude")
	proj := filepath.Join(root, "projects", "-x")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(proj, "s.jsonl")
	if err := os.WriteFile(tr, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loose := filepath.Join(dir, "exports")
	if err := os.MkdirAll(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	ex := filepath.Join(loose, "e.jsonl")
	if err := os.WriteFile(ex, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(ex, filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	found, err := layout.Discover([]string{root, loose}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p, want string
	}{
		{tr, "a file this run checks"},
		{ex, "a file this run checks"},
		{filepath.Join(dir, "alias"), "a file this run checks"},
		{filepath.Join(root, "backups"), "inside"},
		{filepath.Join(proj, "new.txt"), "inside"},
		{filepath.Join(loose, "report.txt"), ""},
		{filepath.Join(dir, "backups"), ""},
	} {
		err := Check(c.p, found)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.p, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.p, err, c.want)
		}
	}
}
