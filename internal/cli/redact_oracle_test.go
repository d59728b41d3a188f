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
	oracle.Require(t)
	cache, err := oracle.CacheRoot()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CCVET_CLAUDE_CACHE", cache) // before HOME moves to a temp folder
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	versions := []string{"2.1.330", "2.1.332"}
	if v := os.Getenv("CCVET_ORACLE_VERSIONS"); v != "" {
		versions = strings.Split(v, ",")
	}
	for _, v := range versions {
		bin, err := oracle.Install(context.Background(), v)
		if err != nil {
			t.Errorf("Claude Code %s: %v", v, err)
			continue
		}
		t.Run(v, func(t *testing.T) { redactRealResume(t, v, bin) })
	}
}

func redactRealResume(t *testing.T, v, bin string) {
	ctx := context.Background()
	g := secrettest.New(332)
	aws, gh := g.AWS(), g.GitHub()
	srv, err := oracle.NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env, err := oracle.NewEnv(v, bin, filepath.Join(t.TempDir(), "env"), srv)
	if err != nil {
		t.Fatal(err)
	}
	r, err := env.Run(ctx, oracle.RunOpts{Prompt: oracle.Prompt("Deploy with AWS_ACCESS_KEY_ID="+aws+" in steps.",
		oracle.Call(oracle.Bash("echo GITHUB_TOKEN="+gh)),
		oracle.Call(oracle.Bash("echo done")),
		oracle.Text("All done."))})
	if err != nil || r.Exit != 0 || r.SessionID == "" {
		t.Fatalf("session: %v %+v", err, r)
	}
	file := env.SessionFile(r.SessionID)
	healthy, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	resume := func() []oracle.Request {
		srv.Reset()
		rr, err := env.Run(ctx, oracle.RunOpts{Prompt: oracle.Prompt("Go on.", oracle.Text("Resumed.")), Args: []string{"--resume", r.SessionID}})
		if err != nil || rr.Exit != 0 {
			t.Fatalf("resume: %v %+v", err, rr)
		}
		return srv.Requests()
	}
	mainShape := func(reqs []oracle.Request) []string {
		for _, q := range reqs {
			if q.Kind == "main" {
				msgs, _ := q.Messages()
				var out []string
				for _, m := range msgs {
					for _, b := range m.Content {
						switch b.Type {
						case "tool_use":
							out = append(out, m.Role+" tool_use "+b.ID+" "+string(b.Input))
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
		}
		return nil
	}
	before := mainShape(resume())
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
	backups := filepath.Join(t.TempDir(), "backups")
	stdout, stderr, code := run(t, "", "redact", "--write", "--force", "--backup-dir", backups, env.Root)
	if code != ExitOK {
		t.Fatalf("redact --write: exit %d: %s%s", code, stdout, stderr)
	}
	reqs := resume()
	for _, q := range reqs {
		if q.Status >= 400 {
			t.Fatalf("the stand-in rejected a request after the redaction: %d %s", q.Status, q.Error)
		}
		for _, s := range []string{aws, gh} {
			if strings.Contains(string(q.Body), s) {
				t.Errorf("request %d (%s) still sends secret %s", q.Seq, q.Kind, secret.Fingerprint(s))
			}
		}
	}
	after := mainShape(reqs)
	// What was sent before, with each secret read as its placeholder.
	repl := strings.NewReplacer(aws, "[REDACTED:aws-access-token:"+secret.Fingerprint(aws)+"]",
		gh, "[REDACTED:github-pat:"+secret.Fingerprint(gh)+"]")
	want := make([]string, len(before))
	for i, s := range before {
		want[i] = repl.Replace(s)
	}
	if !reflect.DeepEqual(after, want) {
		t.Errorf("the resume after redact sends other messages:\nwant %q\nhave %q", want, after)
	}
}
