package cli

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSymlinkRoot: a root given as a symbolic link, with or without a
// trailing slash, or reached through $CLAUDE_CONFIG_DIR or ~/.claude, is
// checked like the folder it names.
func TestSymlinkRoot(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestSymlinkRoot skipped: creates symbolic links (Windows allows them only in developer mode or as administrator)")
	}
	defer func(was func(io.Reader) bool) { interactive = was }(interactive)
	interactive = func(io.Reader) bool { return true } // the home fallback, as on a terminal
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	real := filepath.Join(t.TempDir(), "dotfiles", "claude")
	copyTree(t, "../../testdata/store", real)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	// Paths start with the argument (or the home folder's path): compare
	// them from there.
	rel := func(out, arg string) string {
		return strings.ReplaceAll(out, `"`+strings.TrimSuffix(filepath.ToSlash(arg), "/")+"/", `"`)
	}
	want, _, _ := run(t, "", "-f", "json", "--exit-zero", real)
	want = rel(want, real)
	out, _ := runJSONAllowEmpty(t, real)
	if out.Summary["files"] == 0 {
		t.Fatalf("the store itself has no files: %s", want)
	}
	for _, arg := range []string{link, link + "/"} {
		got, stderr, code := run(t, "", "-f", "json", "--exit-zero", arg)
		if code != ExitOK || rel(got, arg) != want {
			t.Errorf("ccvet %s: exit %d (%s), report differs from the folder's:\n%s", arg, code, stderr, got)
		}
	}
	t.Setenv("CLAUDE_CONFIG_DIR", link)
	if got, stderr, code := run(t, "", "-f", "json", "--exit-zero"); code != ExitOK || rel(got, link) != want {
		t.Errorf("CLAUDE_CONFIG_DIR=link: exit %d (%s), report differs:\n%s", code, stderr, got)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	if err := os.Symlink(real, filepath.Join(home, ".claude")); err != nil {
		t.Fatal(err)
	}
	if got, stderr, code := run(t, "", "-f", "json", "--exit-zero"); code != ExitOK || rel(got, filepath.Join(home, ".claude")) != want {
		t.Errorf("~/.claude a link: exit %d (%s), report differs:\n%s", code, stderr, got)
	}
}

func runJSONAllowEmpty(t *testing.T, args ...string) (jsonOut, []byte) {
	t.Helper()
	out, b, _ := runJSON(t, append([]string{"--exit-zero"}, args...)...)
	return out, b
}

// TestLinksLeakNothing: links inside the walk to a file outside the paths
// given (a secret, /proc/self/environ) are named as notes and never read:
// nothing of their content reaches any output format. Dangling links and
// loops are named too.
func TestLinksLeakNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestLinksLeakNothing skipped: creates symbolic links (Windows allows them only in developer mode or as administrator)")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	const canary = "CANARY-7f3a9c-SECRET"
	t.Setenv("CCVET_TEST_CANARY", canary)
	base := t.TempDir()
	secret := filepath.Join(base, "elsewhere-7f3a", "secret.jsonl")
	if err := os.MkdirAll(filepath.Dir(secret), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secret, []byte(`{"type":"`+canary+`","uuid":"`+canary+`"}`+"\n"+canary+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(base, "repo", "exports")
	copyTree(t, filepath.Join(fixtures, "unreadable", "good"), tree)
	links := map[string]string{
		"secret.jsonl":   secret,
		"environ.jsonl":  "/proc/self/environ",
		"dangling.jsonl": filepath.Join(base, "nothing-here"),
		"loop.jsonl":     "loop.jsonl",
		"up":             filepath.Join(base, "elsewhere-7f3a"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(tree, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"text", "json", "sarif", "github"} {
		for _, args := range [][]string{{tree}, {tree + "/"}, {filepath.Join(tree, "session.jsonl"), tree}} {
			out, stderr, code := run(t, "", append([]string{"-f", format, "--enable", "timestamp-order,unknown-field"}, args...)...)
			if code > ExitFindings {
				t.Fatalf("-f %s %v: exit %d: %s", format, args, code, stderr)
			}
			if strings.Contains(out+stderr, canary) || strings.Contains(out+stderr, "elsewhere-7f3a") {
				t.Errorf("-f %s %v: something from outside the tree reached the output:\n%s%s", format, args, out, stderr)
			}
			for name := range links {
				if !strings.Contains(out, name) {
					t.Errorf("-f %s %v: the link %s is not named:\n%s", format, args, name, out)
				}
			}
		}
	}
	out, _, _ := runJSON(t, "--exit-zero", tree)
	notes := 0
	for _, f := range out.Findings {
		if f.Rule == "unfollowed-link" {
			notes++
			if f.Severity != "note" {
				t.Errorf("%s: severity %s", f.Path, f.Severity)
			}
		}
	}
	if notes != len(links) {
		t.Errorf("want %d unfollowed-link notes, got %d: %+v", len(links), notes, out.Findings)
	}
}

// TestLinkInsideFollowed: a link to a file inside the paths given is checked.
func TestLinkInsideFollowed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("TestLinkInsideFollowed skipped: creates symbolic links (Windows allows them only in developer mode or as administrator)")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := t.TempDir()
	bad := filepath.Join(dir, "kept", "bad.data")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bad, filepath.Join(dir, "x.jsonl")); err != nil {
		t.Fatal(err)
	}
	out, _, code := runJSON(t, dir)
	if code != ExitFindings || len(out.Findings) == 0 || out.Findings[0].Path != "x.jsonl" || out.Findings[0].Rule != "invalid-json" {
		t.Fatalf("link inside: exit %d, %+v", code, out.Findings)
	}
}
