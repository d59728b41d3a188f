package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type checkDoc struct {
	SchemaVersion int    `json:"schema_version"`
	Failed        string `json:"failed"`
	Check         struct {
		Status string `json:"status"`
		Exit   int    `json:"exit_code"`
		Reason string `json:"reason"`
		Lost   []struct {
			Kind string `json:"kind"`
		} `json:"lost"`
		Traces *struct {
			Prompts int `json:"prompts"`
		} `json:"traces"`
	} `json:"check"`
}

func runCheck(t *testing.T, args ...string) (checkDoc, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(append([]string{"resume", "--check", "--format", "json"}, args...), strings.NewReader(""), &stdout, &stderr)
	var doc checkDoc
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("resume --check %v: exit %d, bad JSON: %v\n%s%s", args, code, err, stdout.String(), stderr.String())
	}
	if doc.Check.Exit != code || doc.SchemaVersion != 1 {
		t.Errorf("resume --check %v: exit %d, check %+v", args, code, doc.Check)
	}
	return doc, stderr.String(), code
}

// The preflight: 0 resumes without loss, 1 with loss, 5 cannot resume;
// never 2 or 3 for a session that cannot be resumed.
func TestResumeCheck(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	rules := filepath.Join("..", "..", "testdata", "rules")
	healthy := filepath.Join(rules, "unmatched-tool-use", "good-flushed-early", "projects", "-src-demo", "5b0e2c8a-1f3d-4c6e-9a7b-2d4f6e8a0c1e.jsonl")
	if doc, _, code := runCheck(t, healthy); code != ExitOK || doc.Check.Status != "resumes" || len(doc.Check.Lost) != 0 {
		t.Errorf("healthy: exit %d %+v", code, doc.Check)
	}
	doc, _, code := runCheck(t, filepath.Join(rules, "invalid-json", "bad", "session.jsonl"))
	if code != ExitFindings || doc.Check.Status != "resumes-with-loss" || len(doc.Check.Lost) == 0 || doc.Check.Lost[0].Kind != "skipped-line" {
		t.Errorf("a bad line: exit %d %+v", code, doc.Check)
	}
	sidechain := filepath.Join(rules, "sidechain-leaf", "bad", "projects", "-src-demo", "5b0e2c8a-1f3d-4c6e-9a7b-2d4f6e8a0c1e.jsonl")
	if doc, _, code := runCheck(t, sidechain); code != ExitCannotResume || doc.Check.Reason != "sidechain-leaf" || doc.Failed == "" {
		t.Errorf("sidechain leaf: exit %d %+v", code, doc.Check)
	}
	if doc, _, code := runCheck(t, filepath.Join(t.TempDir(), "gone.jsonl")); code != ExitCannotResume || doc.Check.Reason != "no-transcript" {
		t.Errorf("no file: exit %d %+v", code, doc.Check)
	}

	root := lostRoot(t)
	agent := filepath.Join(root, "projects", "-home-dev-app", fixtureID(82), "subagents", "agent-b1.jsonl")
	if doc, _, code := runCheck(t, agent); code != ExitCannotResume || doc.Check.Reason != "subagent-transcript" {
		t.Errorf("subagent transcript: exit %d %+v", code, doc.Check)
	}
	if doc, _, code := runCheck(t, "--root", root, fixtureID(80)); code != ExitOK || doc.Check.Status != "resumes" {
		t.Errorf("--root, a session: exit %d %+v", code, doc.Check)
	}
	if doc, _, code := runCheck(t, "--root", root, fixtureID(83)); code != ExitCannotResume || doc.Check.Reason != "stale-pid-file" {
		t.Errorf("--root, a stale pid file: exit %d %+v", code, doc.Check)
	}
	if doc, _, code := runCheck(t, "--root", root, fixtureID(81)); code != ExitCannotResume || doc.Check.Reason != "no-transcript" ||
		doc.Check.Traces == nil || doc.Check.Traces.Prompts != 2 {
		t.Errorf("--root, a lost session: exit %d %+v", code, doc.Check)
	}
	if doc, _, code := runCheck(t, "--root", root, fixtureID(99)); code != ExitCannotResume || doc.Check.Reason != "no-transcript" || doc.Check.Traces != nil {
		t.Errorf("--root, an unknown session: exit %d %+v", code, doc.Check)
	}

	// Text: the verdict on stdout, what is lost on stderr.
	var stdout, stderr bytes.Buffer
	code = Main([]string{"resume", "--check", filepath.Join(rules, "invalid-json", "bad", "session.jsonl")}, strings.NewReader(""), &stdout, &stderr)
	if code != ExitFindings || !strings.Contains(stdout.String(), "resumes with loss") || !strings.Contains(stderr.String(), "  - line ") {
		t.Errorf("text: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	// Usage errors stay 2.
	for _, args := range [][]string{{"--root", root, "not-a-session"}, {"--root", root}, {"--root", filepath.Join(root, "nope"), fixtureID(80)}, {root}} {
		if _, code := runResume(t, append([]string{"--check"}, args...)...); code != ExitUsage {
			t.Errorf("resume --check %v: exit %d, want %d", args, code, ExitUsage)
		}
	}
}

// resume --root ROOT SESSION_ID reads projects/*/SESSION_ID.jsonl.
func TestResumeBySessionID(t *testing.T) {
	root := lostRoot(t)
	byID, code := runResume(t, "--root", root, fixtureID(80))
	byPath, _ := runResume(t, filepath.Join(root, "projects", "-home-dev-app", fixtureID(80)+".jsonl"))
	if code != ExitOK || !strings.Contains(byID, "It sends 4 messages") || strings.TrimSpace(byID[strings.Index(byID, "\n"):]) != strings.TrimSpace(byPath[strings.Index(byPath, "\n"):]) {
		t.Errorf("by id (exit %d):\n%s\nby path:\n%s", code, byID, byPath)
	}
	if out, code := runResume(t, "--root", root, fixtureID(81)); code != ExitUsage || !strings.Contains(out, "no transcript of session") {
		t.Errorf("lost session without --check: exit %d %s", code, out)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
}

// docs/resume.md states the exit statuses of --check as stable: they are
// these constants, and the help names them.
func TestResumeCheckDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "resume.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{"| 0 | the reader resumes it without loss", "| 1 | the reader resumes it **with loss**", "| 5 | it **cannot be resumed**"} {
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/resume.md lacks %q", row)
		}
	}
	for _, r := range []string{reasonNoTranscript, reasonStalePid, reasonNoConversation, reasonSidechainLeaf, reasonCrash, reasonSubagent} {
		if !strings.Contains(string(doc), "`"+r+"`") {
			t.Errorf("docs/resume.md does not name the reason %s", r)
		}
	}
	if ExitCannotResume != 5 || exitLossStatus != 1 || ExitRefused == ExitCannotResume {
		t.Errorf("exit statuses changed: %d %d", ExitCannotResume, exitLossStatus)
	}
	if out, _ := runResume(t, "--help"); !strings.Contains(out, "exit 0 resumes without loss, 1 resumes with loss, 5 cannot resume") {
		t.Errorf("resume --help:\n%s", out)
	}
}
