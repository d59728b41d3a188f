//go:build unix

package oracle

import (
	"context"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What the tests of other packages that run the real Claude Code share:
// which versions, the isolated home of the test process, the stand-in API,
// a resume and what its main request says.

// VersionsOr is the versions a test covers: $CCVET_ORACLE_VERSIONS (a
// comma list) when set, else def.
func VersionsOr(def ...string) []string {
	if v := os.Getenv("CCVET_ORACLE_VERSIONS"); v != "" {
		return strings.Split(v, ",")
	}
	return def
}

// Isolate points the test process's own HOME, CLAUDE_CONFIG_DIR and
// XDG_STATE_HOME (what ccvet, run inside the test, reads and writes) at a
// temporary folder, after pinning CCVET_CLAUDE_CACHE to the cache they
// gave, so that the installed versions are still found. It returns the
// temporary home.
func Isolate(t testing.TB) string {
	t.Helper()
	cache, err := CacheRoot()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CCVET_CLAUDE_CACHE", cache) // before HOME moves
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	return home
}

// InstallEach yields each version with its claude binary, installing a
// missing one first; a version that does not install is an error of t and
// is passed over.
func InstallEach(ctx context.Context, t testing.TB, versions []string) iter.Seq2[string, string] {
	return func(yield func(v, bin string) bool) {
		for _, v := range versions {
			bin, err := Install(ctx, v)
			if err != nil {
				t.Errorf("Claude Code %s: %v", v, err)
				continue
			}
			if !yield(v, bin) {
				return
			}
		}
	}
}

// RunVersions is the frame of a test, outside this package, of what the
// real Claude Code does: skipped unless the oracle is enabled (Require),
// the test process isolated (Isolate), then f run as a subtest named after
// each version (VersionsOr(def...)) with its claude binary.
func RunVersions(t *testing.T, def []string, f func(t *testing.T, v, bin string)) {
	t.Helper()
	Require(t)
	Isolate(t)
	for v, bin := range InstallEach(context.Background(), t, VersionsOr(def...)) {
		t.Run(v, func(t *testing.T) { f(t, v, bin) })
	}
}

// TestServer starts a stand-in API that is closed when t ends.
func TestServer(t testing.TB) *Server {
	t.Helper()
	srv, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// Resume runs `claude -p PROMPT --resume ID` (timeout 0: Run's default)
// against the env's stand-in, reset first, and returns the run and every
// request the stand-in received.
func (e *Env) Resume(ctx context.Context, id, prompt string, timeout time.Duration) (RunRecord, []Request, error) {
	e.Server.Reset()
	run, err := e.Run(ctx, RunOpts{Prompt: prompt, Args: []string{"--resume", id}, Timeout: timeout})
	return run, e.Server.Requests(), err
}

// resumeFile resumes session id, whose transcript at path holds data, and
// reads the transcript afterwards.
func (e *Env) resumeFile(ctx context.Context, path, id string, data []byte, prompt string) (Resumed, error) {
	run, reqs, err := e.Resume(ctx, id, prompt, 90*time.Second)
	r := Resumed{Run: run, Requests: reqs, Before: data}
	if err != nil {
		return r, err
	}
	r.After, err = os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	return r, err
}

// Shape is what messages say, without the texts Claude Code adds around
// them (reminders, dates): one "ROLE tool_use ID", "ROLE tool_result ID"
// or "ROLE text TEXT" a block, in order; withInput adds each tool_use's
// input JSON.
func Shape(msgs []Message, withInput bool) []string {
	var out []string
	for _, m := range msgs {
		for _, b := range m.Content {
			switch b.Type {
			case "tool_use":
				s := m.Role + " tool_use " + b.ID
				if withInput {
					s += " " + string(b.Input)
				}
				out = append(out, s)
			case "tool_result":
				out = append(out, m.Role+" tool_result "+b.ToolUseID)
			case "text":
				if !strings.HasPrefix(strings.TrimSpace(b.Text), "<") {
					out = append(out, m.Role+" text "+b.Text)
				}
			}
		}
	}
	return out
}

// MainShape is the Shape of the first main request of reqs (nil when none
// was sent).
func MainShape(reqs []Request, withInput bool) []string {
	for _, q := range reqs {
		if q.Kind == "main" {
			msgs, _ := q.Messages()
			return Shape(msgs, withInput)
		}
	}
	return nil
}
