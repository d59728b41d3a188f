package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The ledger fixtures are hand-made in the shape 2.1.330 writes (hashes as
// it computes them); rebuilt requests were checked against the requests the
// oracle's stand-in API received.
const ledgerSession = "7b0c6a52-0d3e-4f57-9a61-2f3f6a1c2b10.jsonl"

func TestRequestRebuild(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	path := filepath.Join(fixtures, "ledger-dangling-tail", "good", ledgerSession)
	for _, arg := range []string{path, path + ":1d000000-0000-4000-8000-000000000004", path + ":69f300fe-ba90-41eb-908b-9644eb9ec0b2"} {
		out, errOut, code := run(t, "", "request", arg)
		if code != ExitOK {
			t.Fatalf("request %s: exit %d: %s", arg, code, errOut)
		}
		var req struct {
			Model    string `json:"model"`
			System   []map[string]any
			Tools    []map[string]any
			Messages []struct {
				Role    string `json:"role"`
				Content []map[string]any
			} `json:"messages"`
		}
		if err := json.Unmarshal([]byte(out), &req); err != nil {
			t.Fatalf("request %s: %v\n%s", arg, err, out)
		}
		var roles []string
		for _, m := range req.Messages {
			roles = append(roles, m.Role)
		}
		if got := strings.Join(roles, ","); got != "user,system,assistant,user" {
			t.Errorf("request %s: roles %s, want user,system,assistant,user", arg, got)
		}
		if req.Model != "claude-opus-5-5" || len(req.Tools) != 1 || len(req.System) != 1 {
			t.Errorf("request %s: params or shape lost: %s", arg, out)
		}
	}
	// The first request, named by its assistant entry: two messages, the
	// cache_control marker put back on system[0].
	out, _, code := run(t, "", "request", path+":1d000000-0000-4000-8000-000000000002")
	if code != ExitOK || !strings.Contains(out, `"cache_control"`) || strings.Count(out, `"role"`) != 2 {
		t.Errorf("first request: exit %d\n%s", code, out)
	}
}

func TestRequestBroken(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	path := filepath.Join(fixtures, "ledger-dangling-tail", "bad", ledgerSession)
	_, errOut, code := run(t, "", "request", path+":69f300fe-ba90-41eb-908b-9644eb9ec0b1")
	if code != ExitFindings || !strings.Contains(errOut, "neither a stored blob") {
		t.Errorf("exit %d, stderr %q: want a clear error", code, errOut)
	}
	_, errOut, code = run(t, "", "request", "--root", t.TempDir(), "no-such-session")
	if code != ExitUsage || !strings.Contains(errOut, "no transcript") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestRequestNoLinksOutOfRoot: a session id under --root is looked up in
// the real project folders only, as `ccvet sessions` reads them: a
// transcript or a project folder that is a symbolic link (it may lead out
// of the root) is not followed, and the id is a name, not a pattern.
func TestRequestNoLinksOutOfRoot(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	data, err := os.ReadFile(filepath.Join(fixtures, "ledger-dangling-tail", "good", ledgerSession))
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSuffix(ledgerSession, ".jsonl")
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "proj", ledgerSession), data, 0o644); err != nil {
		t.Fatal(err)
	}
	linkedFile, linkedFolder, linkedProjects := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(linkedFile, "projects", "-work-proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(linkedFolder, "projects"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "proj", ledgerSession), filepath.Join(linkedFile, "projects", "-work-proj", ledgerSession)); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(filepath.Join(outside, "proj"), filepath.Join(linkedFolder, "projects", "-work-proj")); err != nil {
		t.Fatal(err)
	}
	// projects/ itself a link to a real store elsewhere.
	if err := os.MkdirAll(filepath.Join(outside, "store", "projects", "-work-proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "store", "projects", "-work-proj", ledgerSession), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "store", "projects"), filepath.Join(linkedProjects, "projects")); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{linkedFile, linkedFolder, linkedProjects} {
		out, errOut, code := run(t, "", "request", "--root", root, id)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, "which ccvet does not follow under --root") {
			t.Errorf("request --root %s %s: exit %d, stdout %d bytes, stderr %q: want exit 2, the link named and not followed", root, id, code, len(out), errOut)
		}
	}
	// The same store with the file in a real folder: found; "*" is not.
	real := t.TempDir()
	if err := os.MkdirAll(filepath.Join(real, "projects", "-work-proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "projects", "-work-proj", ledgerSession), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, "", "request", "--root", real, id); code != ExitOK {
		t.Errorf("request --root %s %s: exit %d: %s", real, id, code, errOut)
	}
	if out, errOut, code := run(t, "", "request", "--root", real, "*"); code != ExitUsage || out != "" {
		t.Errorf("request --root %s '*': exit %d, stderr %q: want exit 2 (an id is not a pattern)", real, code, errOut)
	}
}

// TestRequestNotAFile: a named transcript that cannot be opened (a device,
// a FIFO) is said to be so, not taken for a transcript without a ledger.
func TestRequestNotAFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	_, errOut, code := run(t, "", "request", os.DevNull)
	if code != ExitUsage || !strings.Contains(errOut, "not a regular file") {
		t.Errorf("request %s: exit %d, stderr %q: want exit 2, not a regular file", os.DevNull, code, errOut)
	}
}
