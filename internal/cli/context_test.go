package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// forkPair writes a session and its fork into a project folder: the fork
// continues from the session's last entry, so its first entry's parent and
// the call its tool_result answers live in the other file. It returns the
// paths of the session and the fork.
func forkPair(t *testing.T, dir string) (string, string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(fixtures, "orphan-parent", "good", "projects", "-src-experiments-claude-p",
		"256ba646-2c15-437a-98e9-4171aafd030e.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	// The fork's first line says which entry made the call; that field
	// only names entries of its own file, so the fork leaves it out.
	lines[5] = regexp.MustCompile(`,"sourceToolAssistantUUID":"[^"]*"`).ReplaceAllString(lines[5], "")
	proj := filepath.Join(dir, "projects", "-src-experiments-claude-p")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	session := filepath.Join(proj, "256ba646-2c15-437a-98e9-4171aafd030e.jsonl")
	fork := filepath.Join(proj, "9f1c0e2a-7b3d-4e5f-8a6b-0c1d2e3f4a5b.jsonl")
	if err := os.WriteFile(session, []byte(strings.Join(lines[:5], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fork, []byte(strings.Join(lines[5:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return session, fork
}

func lintJSON(t *testing.T, args ...string) (jsonOut, int) {
	t.Helper()
	r, _, code := runJSON(t, args...)
	return r, code
}

// TestFileArgumentContext: a transcript passed alone (as a pre-commit hook
// passes it) is checked against the other transcripts of its folder, which
// are read but not reported on.
func TestFileArgumentContext(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	session, fork := forkPair(t, t.TempDir())

	// Without its folder the fork looks broken: this is what context fixes.
	_, lone := forkPair(t, t.TempDir())
	if err := os.Remove(filepath.Join(filepath.Dir(lone), filepath.Base(session))); err != nil {
		t.Fatal(err)
	}
	r, code := lintJSON(t, lone)
	rulesSeen := map[string]bool{}
	for _, f := range r.Findings {
		rulesSeen[f.Rule] = true
	}
	if code != ExitFindings || !rulesSeen["orphan-parent"] || !rulesSeen["unmatched-tool-result"] {
		t.Fatalf("fork without its session: exit %d, findings %+v; the test needs a pair that depends on context", code, r.Findings)
	}

	// The fork alone, in its folder: clean, and the session (which has a
	// warning of its own) is read but neither reported nor counted.
	r, code = lintJSON(t, fork)
	if code != ExitOK || len(r.Findings) != 0 {
		t.Errorf("fork passed alone: exit %d, findings %+v", code, r.Findings)
	}
	if r.Summary["files"] != 1 || r.Summary["entries"] != 6 {
		t.Errorf("fork passed alone: summary %+v, want 1 file and 6 entries", r.Summary)
	}

	// Both named: the session is no longer context, its warning shows.
	r, _ = lintJSON(t, fork, session)
	if len(r.Findings) != 1 || r.Findings[0].Rule != "unmatched-tool-use" || r.Summary["files"] != 2 {
		t.Errorf("both passed: findings %+v, summary %+v", r.Findings, r.Summary)
	}
	// The same as the folder run, whatever the way the files are split.
	whole, _ := lintJSON(t, filepath.Dir(fork))
	if len(whole.Findings) != 1 || whole.Findings[0].Rule != "unmatched-tool-use" {
		t.Errorf("folder run: findings %+v", whole.Findings)
	}
}

// TestFileByFileEqualsFolder: for every transcript of the sample store,
// passing the file alone gives exactly the findings a run over its project
// folder gives on it (a pre-commit hook passes changed files only).
func TestFileByFileEqualsFolder(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	_, fork := forkPair(t, t.TempDir())
	folders, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "store", "projects", "*"))
	folders = append(folders, filepath.Dir(fork),
		filepath.Join(fixtures, "orphan-subagent", "good-nested", "projects", "-home-jenkins-Personal-AI-Infrastructure"))
	key := func(path string, line, col int, sev, msg, rule string) string {
		return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", path, line, col, sev, msg, rule)
	}
	for _, dir := range folders {
		whole, _, _ := runJSON(t, dir)
		byFile := map[string][]string{}
		for _, f := range whole.Findings {
			p := filepath.Join(dir, filepath.FromSlash(f.Path))
			byFile[p] = append(byFile[p], key(p, f.Line, f.Column, f.Severity, f.Message, f.Rule))
		}
		var files []string
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
		if len(files) == 0 {
			t.Fatalf("no transcript in %s", dir)
		}
		for _, p := range files {
			alone, _, _ := runJSON(t, p)
			var got []string
			for _, f := range alone.Findings {
				k := key(p, f.Line, f.Column, f.Severity, f.Message, f.Rule)
				if f.Path != filepath.ToSlash(p) {
					t.Errorf("%s alone: finding on another file %s: %s", p, f.Path, k)
					continue
				}
				got = append(got, k)
			}
			if strings.Join(got, "\n") != strings.Join(byFile[p], "\n") {
				t.Errorf("%s alone:\n%s\nin its folder:\n%s", p, strings.Join(got, "\n"), strings.Join(byFile[p], "\n"))
			}
			if alone.Summary["files"] != 1 {
				t.Errorf("%s alone: %d files counted, want 1", p, alone.Summary["files"])
			}
		}
	}
}
