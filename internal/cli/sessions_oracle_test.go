//go:build unix

package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/inventory"
	"github.com/ccvet/ccvet/internal/oracle"
)

// TestSessionsLostOracle plays an interactive session with the real Claude
// Code under a pseudo-terminal (it writes history.jsonl and file-history/),
// with a subagent that writes a file and a tool output large enough to be
// kept under <session>/tool-results/, then deletes the transcript and leaves
// its traces. `ccvet sessions` must list the session under "lost" with the
// counts found on disk, `resume --check --root` must exit 5, `--recover`
// must copy every surviving prompt, file version, subagent transcript and
// tool result byte for byte, and the data root must stay byte-identical.
//
// Opt-in like the oracle's tests: CCVET_ORACLE=1 (versions: 2.1.332, or
// CCVET_ORACLE_VERSIONS); needs python3.
func TestSessionsLostOracle(t *testing.T) {
	oracle.Require(t)
	ctx := context.Background()
	versions := []string{"2.1.332"}
	if v := os.Getenv("CCVET_ORACLE_VERSIONS"); v != "" {
		versions = strings.Split(v, ",")
	}
	for _, v := range versions {
		t.Run(v, func(t *testing.T) { lostOracle(ctx, t, v) })
	}
}

func lostOracle(ctx context.Context, t *testing.T, v string) {
	bin, err := oracle.Install(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := oracle.NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	if keep := os.Getenv("CCVET_ORACLE_KEEP"); keep != "" {
		dir = filepath.Join(keep, "sessions-lost-"+v) // kept for inspection
	}
	env, err := oracle.NewEnv(v, bin, dir, srv)
	if err != nil {
		t.Fatal(err)
	}
	if err := env.SeedInteractive(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", env.Home)
	t.Setenv("CLAUDE_CONFIG_DIR", env.Root)
	notes := filepath.Join(env.Work, "notes.txt")
	old := filepath.Join(env.Work, "existing.txt")
	sub := filepath.Join(env.Work, "for-subagent.txt")
	if err := os.WriteFile(old, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sub, []byte("before the subagent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prompt := oracle.Prompt("Write, edit, delegate.",
		oracle.Call(oracle.Tool{Name: "Write", Input: map[string]any{"file_path": notes, "content": "alpha\nbeta\n"}}),
		oracle.Call(oracle.Tool{Name: "Edit", Input: map[string]any{"file_path": notes, "old_string": "beta", "new_string": "gamma"}}),
		oracle.Call(oracle.Tool{Name: "Read", Input: map[string]any{"file_path": old}}),
		oracle.Call(oracle.Tool{Name: "Edit", Input: map[string]any{"file_path": old, "old_string": "two", "new_string": "three"}}),
		oracle.Call(oracle.Bash("seq 1 60000")),
		oracle.Call(oracle.Subagent(
			oracle.Call(oracle.Tool{Name: "Read", Input: map[string]any{"file_path": sub}}),
			oracle.Call(oracle.Tool{Name: "Edit", Input: map[string]any{"file_path": sub, "old_string": "before", "new_string": "after"}}),
			oracle.Text("Subagent edited its file."))),
		oracle.Text("OracleFinished: all done."))
	prompt = strings.ReplaceAll(prompt, "\n", " ")
	done := filepath.Join(env.Tmp, "oracle-finished")
	env.MarkWhenAnswered("OracleFinished", done)
	if _, err := env.RunPTY(ctx, []oracle.Key{{Wait: 20, Until: []string{"for shortcuts", "❯"}}, {Wait: 1}, {Send: prompt}, {Wait: 1}, {Send: "\r"},
		{Wait: 90, UntilFile: done}, {Wait: 2}, {Send: "/exit"}, {Wait: 1}, {Send: "\r"}, {Wait: 3}}, "--permission-mode", "default"); err != nil {
		t.Fatal(err)
	}
	files := env.SessionFiles()
	if len(files) != 1 {
		t.Fatalf("want one session written, got %v (see %s/pty-*.log)", files, env.Dir)
	}
	id := strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")
	folder := filepath.Join(filepath.Dir(files[0]), id)

	// What the real program left, counted here independently.
	var want struct{ prompts, versions, agents, results int }
	hist, _ := os.ReadFile(filepath.Join(env.Root, "history.jsonl"))
	for _, l := range strings.Split(string(hist), "\n") {
		if strings.Contains(l, `"sessionId":"`+id+`"`) {
			want.prompts++
		}
	}
	count := func(dir string, ok func(string) bool) int {
		n := 0
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && ok(d.Name()) {
				n++
			}
			return nil
		})
		return n
	}
	want.versions = count(filepath.Join(env.Root, "file-history", id), func(string) bool { return true })
	want.agents = count(filepath.Join(folder, "subagents"), func(n string) bool { return strings.HasPrefix(n, "agent-") && strings.HasSuffix(n, ".jsonl") })
	want.results = count(filepath.Join(folder, "tool-results"), func(string) bool { return true })
	t.Logf("%s wrote session %s: %d prompt(s) in history.jsonl, %d file-history version(s), %d subagent transcript(s), %d tool result(s)",
		v, id, want.prompts, want.versions, want.agents, want.results)
	if want.prompts == 0 || want.versions == 0 {
		t.Fatalf("the interactive run left no history prompt or no file-history version (see %s)", env.Dir)
	}

	// The transcript is deleted; its traces stay.
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	before := treeState(t, env.Root)

	stdout, stderr, code := run(t, "", "sessions", "--format", "json", env.Root)
	if code != ExitOK {
		t.Fatalf("sessions: exit %d: %s", code, stderr)
	}
	var rep inventory.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Lost) != 1 {
		t.Fatalf("want exactly one lost session, got %+v", rep.Lost)
	}
	l := rep.Lost[0]
	if l.SessionID != id || l.Prompts != want.prompts || l.FileVersion != want.versions || l.Subagents != want.agents ||
		l.ToolResults != want.results || l.Cwd != env.Work || l.Cause != inventory.CauseFolderLeft && want.agents+want.results > 0 {
		t.Errorf("lost: %+v, want %+v (cwd %s)", l, want, env.Work)
	}
	if _, _, code := run(t, "", "resume", "--check", "--root", env.Root, id); code != ExitCannotResume {
		t.Errorf("resume --check of the deleted session: exit %d, want %d", code, ExitCannotResume)
	}

	out := filepath.Join(t.TempDir(), "recovered")
	stdout, stderr, code = run(t, "", "sessions", "--recover", id, "--out", out, "--format", "json", env.Root)
	if code != ExitOK {
		t.Fatalf("--recover: exit %d: %s", code, stderr)
	}
	var rec inventory.Recovered
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Prompts != want.prompts || rec.FileVersions != want.versions || rec.Subagents != want.agents || rec.ToolResults != want.results {
		t.Errorf("recovered %+v, want %+v", rec, want)
	}
	lines, _ := os.ReadFile(filepath.Join(out, "prompts.jsonl"))
	if n := bytes.Count(lines, []byte("\n")); n != want.prompts || !bytes.Contains(lines, []byte("Write, edit, delegate.")) {
		t.Errorf("prompts.jsonl has %d lines, want %d:\n%s", n, want.prompts, lines)
	}
	// Every surviving file is in the recovery folder with the same bytes.
	got := map[[32]byte]int{}
	_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			got[sha256.Sum256(b)]++
		}
		return nil
	})
	for _, dir := range []string{filepath.Join(env.Root, "file-history", id), filepath.Join(folder, "subagents"), filepath.Join(folder, "tool-results")} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && !strings.HasSuffix(p, ".meta.json") {
				b, _ := os.ReadFile(p)
				if got[sha256.Sum256(b)] == 0 {
					t.Errorf("%s was not recovered", p)
				}
			}
			return nil
		})
	}
	// The prompt names every file (the plan carries the paths), and the
	// subagent's transcript names the file it edited: every version is named.
	if rec.Named != rec.FileVersions {
		t.Errorf("%d of %d file versions named by their path", rec.Named, rec.FileVersions)
	}
	t.Logf("recovered: %d prompt(s), %d file version(s) (%d named by path), %d subagent transcript(s), %d tool result(s); files %v",
		rec.Prompts, rec.FileVersions, rec.Named, rec.Subagents, rec.ToolResults, rec.Files)

	if after := treeState(t, env.Root); !equalStates(before, after) {
		t.Errorf("the data root changed under sessions, resume --check or --recover")
	}
}

type fileState struct {
	sum   [32]byte
	mtime time.Time
	mode  fs.FileMode
}

func treeState(t *testing.T, root string) map[string]fileState {
	t.Helper()
	m := map[string]fileState{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		st := fileState{mtime: info.ModTime(), mode: info.Mode()}
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			st.sum = sha256.Sum256(b)
		}
		m[p] = st
		return nil
	})
	return m
}

func equalStates(a, b map[string]fileState) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
