//go:build unix

package cli

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/oracle"
	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// TestRedactRealResume: a session written by the real Claude Code with
// secrets in a prompt and in tool calls and results is redacted by
// `ccvet redact --write`; `claude -p --resume` of it then sends every
// message and tool call it sent before (the secrets read as their
// placeholders) and no secret in any request. Opt-in (CCVET_ORACLE=1);
// 2.1.330 and 2.1.332 unless CCVET_ORACLE_VERSIONS names others.
func TestRedactRealResume(t *testing.T) {
	oracle.RunVersions(t, []string{"2.1.330", "2.1.332"}, redactRealResume)
}

func redactRealResume(t *testing.T, v, bin string) {
	ctx := context.Background()
	g := secrettest.New(332)
	aws, gh, slack := g.AWS(), g.GitHub(), g.Slack()
	srv := oracle.TestServer(t)
	env, err := oracle.NewEnv(v, bin, filepath.Join(t.TempDir(), "env"), srv)
	if err != nil {
		t.Fatal(err)
	}
	dotenv := filepath.Join(env.Work, "app.env")
	r, err := env.Run(ctx, oracle.RunOpts{Prompt: oracle.Prompt("Deploy with AWS_ACCESS_KEY_ID="+aws+" in steps.",
		oracle.Call(oracle.Bash("echo GITHUB_TOKEN="+gh)),
		oracle.Call(oracle.Tool{Name: "Write", Input: map[string]any{"file_path": dotenv, "content": "SLACK_TOKEN=" + slack + "\n"}}),
		oracle.Call(oracle.Tool{Name: "Edit", Input: map[string]any{"file_path": dotenv, "old_string": "SLACK_TOKEN=" + slack, "new_string": "SLACK_TOKEN=${SLACK}"}}),
		oracle.Call(oracle.Bash("echo done")),
		oracle.Text("All done."))})
	if err != nil || r.Exit != 0 || r.SessionID == "" {
		t.Fatalf("session: %v %+v", err, r)
	}
	file := env.SessionFile(r.SessionID)
	// Where lint finds each secret: the transcript (prompt, tool_use
	// input, tool result) and history.jsonl (the prompt); the Write's
	// content is in the transcript, and in a file-history backup when the
	// version keeps one.
	found := map[string]map[string]bool{}
	out, _, _ := runJSON(t, env.Root)
	for _, f := range out.Findings {
		if f.Rule != "secret" {
			continue
		}
		if found[f.Path] == nil {
			found[f.Path] = map[string]bool{}
		}
		for _, s := range []string{aws, gh, slack} {
			if strings.Contains(f.Message, secret.Fingerprint(s)) {
				found[f.Path][secret.Fingerprint(s)] = true
			}
		}
	}
	rel := func(p string) string { r, _ := filepath.Rel(env.Root, p); return filepath.ToSlash(r) }
	for _, s := range []string{aws, gh, slack} {
		if !found[rel(file)][secret.Fingerprint(s)] {
			t.Errorf("lint does not report secret %s in the transcript: %v", secret.Fingerprint(s), found)
		}
	}
	// claude -p keeps no history.jsonl and no file-history backups: they
	// are checked only if this version wrote them.
	if b, err := os.ReadFile(filepath.Join(env.Root, "history.jsonl")); err == nil && strings.Contains(string(b), aws) &&
		!found["history.jsonl"][secret.Fingerprint(aws)] {
		t.Errorf("lint does not report the prompt's secret in history.jsonl: %v", found)
	}
	_ = filepath.WalkDir(filepath.Join(env.Root, "file-history"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), slack) && !found[rel(p)][secret.Fingerprint(slack)] {
			t.Errorf("lint does not report the secret of backup %s", rel(p))
		}
		return nil
	})
	healthy, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	resume := func() []oracle.Request {
		rr, reqs, err := env.Resume(ctx, r.SessionID, oracle.Prompt("Go on.", oracle.Text("Resumed.")), 0)
		if err != nil || rr.Exit != 0 {
			t.Fatalf("resume: %v %+v", err, rr)
		}
		return reqs
	}
	before := oracle.MainShape(resume(), true)
	if len(before) == 0 {
		t.Fatal("the resume sent no main request")
	}
	for _, s := range []string{aws, gh} {
		if !strings.Contains(strings.Join(before, "\n"), s) {
			t.Fatalf("the resume before redact did not send secret %s: the test would prove nothing", secret.Fingerprint(s))
		}
	}
	// The resume appended to the session: put its bytes back first.
	if err := os.WriteFile(file, healthy, 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(file, old, old)
	bdir := filepath.Join(t.TempDir(), "backups")
	stdout, stderr, code := run(t, "", "redact", "--write", "--force", "--backup-dir", bdir, env.Root)
	if code != ExitOK {
		t.Fatalf("redact --write: exit %d: %s%s", code, stdout, stderr)
	}
	// Nothing is left under the data root, and lint finds no secret.
	_ = filepath.WalkDir(env.Root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		for _, s := range []string{aws, gh, slack} {
			if strings.Contains(string(b), s) {
				t.Errorf("%s still holds secret %s", rel(p), secret.Fingerprint(s))
			}
		}
		return nil
	})
	if out, _, _ := runJSON(t, env.Root); true {
		for _, f := range out.Findings {
			if f.Rule == "secret" {
				t.Errorf("after redact: %s:%d: %s", f.Path, f.Line, f.Message)
			}
		}
	}
	reqs := resume()
	for _, q := range reqs {
		if q.Status >= 400 {
			t.Fatalf("the stand-in rejected a request after the redaction: %d %s", q.Status, q.Error)
		}
		for _, s := range []string{aws, gh, slack} {
			if strings.Contains(string(q.Body), s) {
				t.Errorf("request %d (%s) still sends secret %s", q.Seq, q.Kind, secret.Fingerprint(s))
			}
		}
	}
	after := oracle.MainShape(reqs, true)
	// What was sent before, with each secret read as its placeholder.
	repl := strings.NewReplacer(aws, "[REDACTED:aws-access-token:"+secret.Fingerprint(aws)+"]",
		gh, "[REDACTED:github-pat:"+secret.Fingerprint(gh)+"]", slack, "[REDACTED:slack-bot-token:"+secret.Fingerprint(slack)+"]")
	want := make([]string, len(before))
	for i, s := range before {
		want[i] = repl.Replace(s)
	}
	if !reflect.DeepEqual(after, want) {
		t.Errorf("the resume after redact sends other messages:\nwant %q\nhave %q", want, after)
	}
}
