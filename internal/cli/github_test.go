package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGitHubFormat: annotations name files from the current folder, even
// for a single folder argument, and the exit status follows --fail-on.
func TestGitHubFormat(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := filepath.Join(fixtures, "invalid-json", "bad")
	out, stderr, code := run(t, "", "-f", "github", dir)
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "::error file=" + filepath.ToSlash(dir) + "/session.jsonl,line=6,col="
	if !strings.Contains(out, want) || !strings.Contains(out, ",title=invalid-json::line is not valid JSON") {
		t.Errorf("want a line starting %q:\n%s", want, out)
	}
	if !strings.HasSuffix(out, "1 file checked, 10 entries: 2 errors, 0 warnings, 1 note\n") {
		t.Errorf("no summary line:\n%s", out)
	}
	out, _, _ = run(t, "", "-f", "github", "-q", dir)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(l, "::") {
			t.Errorf("--quiet: a line that is not a command: %q", l)
		}
	}
}
