package fix

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/fix/store"
	"github.com/ccvet/ccvet/internal/oracle"
)

// TestRealReader is the real-reader check of ccvet fix: for each corruption
// of a session written by the real Claude Code, `ccvet fix --write` (with
// --unsafe for the unsafe ones), then `claude -p --resume` of the fixed
// file must send requests the stand-in API accepts (no 400), and where the
// fix restored the original bytes, the same messages a resume of the
// healthy file sends. Opt-in (it runs the installed Claude Code): set
// CCVET_ORACLE=1; versions from the oracle cache (CCVET_ORACLE_VERSIONS
// narrows them).
func TestRealReader(t *testing.T) {
	if os.Getenv("CCVET_ORACLE") == "" {
		t.Skip("real-reader test skipped: set CCVET_ORACLE=1 to run the installed Claude Code against the stand-in API")
	}
	cache, err := oracle.CacheRoot()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CCVET_CLAUDE_CACHE", cache) // before HOME moves to a temp folder
	isolate(t)
	versions := []string{"2.1.330", "2.1.110"}
	if v := os.Getenv("CCVET_ORACLE_VERSIONS"); v != "" {
		versions = strings.Split(v, ",")
	}
	ran := 0
	for _, v := range versions {
		bin, ok := oracle.Installed(v)
		if !ok {
			t.Logf("Claude Code %s is not installed in %s; skipped", v, cache)
			continue
		}
		ran++
		t.Run(v, func(t *testing.T) { realReader(t, v, bin) })
	}
	if ran == 0 {
		t.Skip("no Claude Code version installed in the oracle cache")
	}
}

// shape is what a request's messages say, without the texts Claude Code
// adds around them (reminders, dates): roles, tool ids, plain texts.
func shape(msgs []oracle.Message) []string {
	var out []string
	for _, m := range msgs {
		for _, b := range m.Content {
			switch b.Type {
			case "tool_use":
				out = append(out, m.Role+" tool_use "+b.ID)
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

func realReader(t *testing.T, v, bin string) {
	ctx := context.Background()
	srv, err := oracle.NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base, err := oracle.NewEnv(v, bin, filepath.Join(t.TempDir(), "healthy"), srv)
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(base.Work, "f.txt")
	r, err := base.Run(ctx, oracle.RunOpts{Prompt: oracle.Prompt("Work in steps.",
		oracle.Call(oracle.Bash("echo one")),
		oracle.Call(oracle.Bash("echo two"), oracle.Bash("echo three")),
		oracle.Call(oracle.Tool{Name: "Write", Input: map[string]any{"file_path": work, "content": "alpha\n"}}),
		oracle.Call(oracle.Bash("echo four")),
		oracle.Text("All done."))})
	if err != nil || r.Exit != 0 || r.SessionID == "" {
		t.Fatalf("healthy session: %v %+v", err, r)
	}
	id := r.SessionID
	file := base.SessionFile(id)
	healthy, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}

	resume := func(e *oracle.Env) ([]oracle.Request, oracle.RunRecord) {
		srv.Reset()
		r, err := e.Run(ctx, oracle.RunOpts{Prompt: oracle.Prompt("Go on.", oracle.Text("Resumed.")), Args: []string{"--resume", id}})
		if err != nil {
			t.Fatal(err)
		}
		return srv.Requests(), r
	}
	mainShape := func(reqs []oracle.Request) []string {
		for _, q := range reqs {
			if q.Kind == "main" {
				msgs, _ := q.Messages()
				return shape(msgs)
			}
		}
		return nil
	}
	// Every case runs in the healthy session's own environment (the project
	// folder encodes its working folder), with the file put back first.
	fresh := func(_ string, data []byte) *oracle.Env {
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		_ = os.Chtimes(file, old, old)
		return base
	}
	reqs, br := resume(fresh("baseline", healthy))
	want := mainShape(reqs)
	if len(want) == 0 {
		kinds := []string{}
		for _, q := range reqs {
			kinds = append(kinds, q.Kind+" "+q.Path)
		}
		t.Fatalf("the resume of the healthy file sent no main request: %v %+v", kinds, br)
	}

	for _, c := range corruptions {
		ls := splitLines(healthy)
		bad, exact, ok := c.apply(ls)
		if !ok {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			e := fresh(c.name, bad)
			p := file
			res := planPaths(t, c.unsafe, e.Root)
			changed := false
			for _, f := range res.Files {
				if f.Err != nil && c.mayRefuse {
					t.Skipf("refused, nothing written: %v", f.Err)
				}
				if f.Err != nil {
					t.Fatalf("%s: %v", f.File.Path, f.Err)
				}
				changed = changed || f.Changed()
			}
			if changed {
				writeAll(t, res, filepath.Join(t.TempDir(), "backups"))
			}
			got, _ := os.ReadFile(p)
			reqs, run := resume(e)
			for _, q := range reqs {
				if q.Status >= 400 {
					t.Fatalf("the stand-in rejected a request after the fix: %d %s", q.Status, q.Error)
				}
			}
			if run.Exit != 0 {
				t.Fatalf("claude --resume exited %d: %s", run.Exit, run.Stderr)
			}
			have := mainShape(reqs)
			if len(have) == 0 {
				t.Fatal("no main request after the fix")
			}
			if exact != nil && string(got) == string(exact) && !reflect.DeepEqual(have, want) {
				for k := 0; k < max(len(want), len(have)); k++ {
					var a, b string
					if k < len(want) {
						a = want[k]
					}
					if k < len(have) {
						b = have[k]
					}
					if a != b {
						t.Fatalf("messages differ from the healthy resume at %d:\nwant %q\nhave %q", k, a, b)
					}
				}
			}
			if exact != nil && string(got) != string(exact) && !c.manual {
				t.Errorf("the fix did not give the original bytes back")
			}
			_ = store.ErrRefused
		})
	}
}
