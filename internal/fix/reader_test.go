//go:build unix

package fix

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
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
// healthy file sends. Opt-in like every oracle test (CCVET_ORACLE=1);
// 2.1.330 and 2.1.110 unless CCVET_ORACLE_VERSIONS names others.
func TestRealReader(t *testing.T) {
	oracle.RunVersions(t, []string{"2.1.330", "2.1.110"}, realReader)
}

func realReader(t *testing.T, v, bin string) {
	ctx := context.Background()
	srv := oracle.TestServer(t)
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
		r, reqs, err := e.Resume(ctx, id, oracle.Prompt("Go on.", oracle.Text("Resumed.")), 0)
		if err != nil {
			t.Fatal(err)
		}
		return reqs, r
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
	want := oracle.MainShape(reqs, false)
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
			have := oracle.MainShape(reqs, false)
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

// TestRealReaderCatalogue runs ccvet fix over the oracle's own corruption
// catalogue (damage written independently of fix's generators), applied
// to the oracle's two-turn base session of each version: after a safe
// `fix --write`, the resume is accepted whenever the fix changed the file
// and sends every block the resume of the damaged file sent; after an
// unsafe one, it is accepted.
func TestRealReaderCatalogue(t *testing.T) {
	oracle.Require(t)
	oracle.Isolate(t)
	versions := oracle.VersionsOr("2.1.330", "2.1.110")
	m := oracle.NewMatrix(t.TempDir())
	ctx := context.Background()
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			b, err := m.Base(ctx, v, oracle.BaseTurns)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Env.Server.Close()
			for _, c := range oracle.Corruptions() {
				if c.Base != oracle.BaseTurns || c.ID == "none" {
					continue
				}
				s := oracle.ParseSession(b.Pristine)
				if err := c.Apply(s); err != nil {
					continue // not applicable to this version's file
				}
				bad := s.Bytes()
				t.Run(c.ID, func(t *testing.T) {
					damaged, err := b.Resume(ctx, bad, oracle.ResumePrompt)
					if err != nil {
						t.Fatal(err)
					}
					for _, unsafe := range []bool{false, true} {
						fixed := fixBytes(t, b, bad, unsafe)
						if string(fixed) == string(bad) {
							continue
						}
						r, err := b.Resume(ctx, fixed, oracle.ResumePrompt)
						if err != nil {
							t.Fatal(err)
						}
						q, ok := r.Main()
						if !ok || q.Status >= 400 || r.Run.Exit != 0 {
							t.Fatalf("unsafe=%v: the resume of the fixed file was not accepted: sent %v status %d %s exit %d %s",
								unsafe, ok, q.Status, q.Error, r.Run.Exit, r.Run.Stderr)
						}
						if unsafe {
							continue
						}
						if dq, ok := damaged.Main(); ok && dq.Status < 400 {
							dm, _ := dq.Messages()
							fm, _ := q.Messages()
							have := map[string]int{}
							for _, sig := range oracle.Signatures(fm) {
								have[sig]++
							}
							for _, sig := range oracle.Signatures(dm) {
								if have[sig] == 0 {
									t.Errorf("the safe fix lost %q, which the resume of the damaged file sent", sig)
								}
								have[sig]--
							}
						}
					}
				})
			}
		})
	}
}

// fixBytes writes bad as the base's session file, runs the fix plan and
// --write over its data root, and returns the file's bytes afterwards.
func fixBytes(t *testing.T, b *oracle.Base, bad []byte, unsafe bool) []byte {
	t.Helper()
	if err := os.WriteFile(b.File, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	res := planPaths(t, unsafe, b.Env.Root)
	changed := false
	for _, f := range res.Files {
		if f.Err != nil {
			t.Logf("unsafe=%v: %s not fixed: %v", unsafe, f.File.Path, f.Err)
			return bad
		}
		changed = changed || f.Changed()
		for _, i := range f.Chosen {
			t.Logf("unsafe=%v: line %d [%s] %s: %s", unsafe, f.Fixes[i].Line, f.Fixes[i].Safety, f.Fixes[i].Rule, f.Fixes[i].Message)
		}
		for _, st := range f.Later {
			t.Logf("unsafe=%v: pass %d line %d [%s] %s: %s", unsafe, st.Pass, st.Fix.Line, st.Fix.Safety, st.Fix.Rule, st.Fix.Message)
		}
	}
	if changed {
		writeAll(t, res, filepath.Join(t.TempDir(), "backups"))
	}
	out, err := os.ReadFile(b.File)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
