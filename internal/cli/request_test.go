package cli

import (
	"encoding/json"
	"path/filepath"
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
