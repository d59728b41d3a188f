//go:build unix

package oracle

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/pathenc"
)

// TestResumeFile resumes one transcript with the real reader and logs what
// it sends: the check used on real stores (docs/real-stores.md). Opt-in:
//
//	CCVET_ORACLE=1 CCVET_RESUME_FILE=/path/to/<id>.jsonl [CCVET_RESUME_VERSION=2.1.332] \
//	[CCVET_RESUME_OUT=dir] go test ./internal/oracle -run TestResumeFile -v -timeout 10m
//
// The file is copied into a fresh data root as a main transcript (a
// subagent's isSidechain lines are resumed as they are); CCVET_RESUME_OUT,
// when set, receives the messages sent as sent.json.
func TestResumeFile(t *testing.T) {
	src := os.Getenv("CCVET_RESUME_FILE")
	if src == "" {
		t.Skip("set CCVET_RESUME_FILE to a transcript to resume")
	}
	Require(t)
	v := os.Getenv("CCVET_RESUME_VERSION")
	if v == "" {
		v = "2.1.332"
	}
	ctx := context.Background()
	bin, err := Install(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	e, err := NewEnv(v, bin, t.TempDir(), srv)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	proj := filepath.Join(e.Root, "projects", pathenc.Encode(e.Work))
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, id+".jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	run, err := e.Run(ctx, RunOpts{Prompt: ResumePrompt, Args: []string{"--resume", id}, Timeout: 180 * time.Second})
	t.Logf("claude %s: exit %d, err %v", v, run.Exit, err)
	for _, r := range srv.Requests() {
		if r.Kind != "main" {
			continue
		}
		msgs, err := r.Messages()
		if err != nil {
			t.Fatal(err)
		}
		if out := os.Getenv("CCVET_RESUME_OUT"); out != "" {
			b, _ := json.Marshal(msgs)
			if err := os.WriteFile(filepath.Join(out, "sent.json"), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("status %d, %d messages", r.Status, len(msgs))
		for _, s := range Signatures(msgs) {
			if len(s) > 200 {
				s = s[:200]
			}
			t.Log(s)
		}
		return
	}
	t.Fatal("no main request was sent")
}
