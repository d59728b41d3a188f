package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawControl reports a control character (other than the newlines ending
// lines and tabs) or a bidirectional control in out.
func rawControl(out string) bool {
	for _, r := range out {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return true
		}
	}
	return false
}

// TestSessionsEscapesPidFileText: a sessionId with a newline in a
// sessions/<pid>.json cannot start a line of its own (a forged GitHub
// annotation) in `ccvet sessions`, in any format.
func TestSessionsEscapesPidFileText(t *testing.T) {
	root := sessionRoot(t, "pidfile")
	live := os.Getpid()
	body := fmt.Sprintf(`{"pid":%d,"sessionId":"ab\n::error file=x::forged\u001b[31m\u202e","cwd":"/home/dev/app\u0007"}`, live)
	if err := os.WriteFile(filepath.Join(root, "sessions", strconv.Itoa(live)+".json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		out, errOut, _ := run(t, "", "sessions", "--format", format, "--now", sessionsNow.Format(time.RFC3339), root)
		if strings.Contains(out, "\n::error") || rawControl(out) || rawControl(errOut) {
			t.Errorf("%s: raw control text from a pid file:\n%q", format, out)
		}
	}
}

// TestListBackupsEscapes: a run folder name and a manifest's created with
// ESC, BEL and a newline are printed escaped.
func TestListBackupsEscapes(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	bak := t.TempDir()
	id := "run\x1b[2J\x07\n::error::x"
	_ = os.MkdirAll(filepath.Join(bak, id), 0o700)
	m := fmt.Sprintf(`{"id":%q,"tool":"ccvet","format":2,"ccvet_version":"x","created":"\u001b]0;t\u0007\n::error::y","files":[{"path":"/a\nb","backup":"x","edits":[]}]}`, id)
	_ = os.WriteFile(filepath.Join(bak, id, "manifest.json"), []byte(m), 0o600)
	_ = os.MkdirAll(filepath.Join(bak, "cut\x1boff"), 0o700)
	out, _, code := run(t, "", "fix", "--list-backups", "--backup-dir", bak)
	if code != ExitOK || rawControl(out) || strings.Contains(out, "\n::error") || !strings.Contains(out, "cut\\x1boff") {
		t.Fatalf("list-backups: %d\n%q", code, out)
	}
}

// TestResumeEscapesAndRefusesNonRegular: resume --format json escapes a
// U+202E from the transcript; a FIFO and a device are refused at once.
func TestResumeEscapesAndRefusesNonRegular(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	line := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"0b6f3f0e-4d6b-4b0e-9a35-6c1f2b7d0c11","version":"2.1.330","type":"user","message":{"role":"user","content":"evil ` + "\u202e" + `txt.exe"},"uuid":"5e1a0b4e-7c55-4c0a-8a52-0c9f4d1e2b3a","timestamp":"2026-11-20T10:00:00.000Z"}` + "\n"
	_ = os.WriteFile(p, []byte(line), 0o600)
	for _, format := range []string{"text", "json"} {
		out, _ := runResume(t, "--format", format, p)
		if rawControl(out) || !strings.Contains(out, "evil") {
			t.Errorf("resume %s: raw U+202E or no message:\n%q", format, out)
		}
	}
	if fifo := makeFifo(t, dir); fifo != "" {
		if out, code := runResume(t, fifo); code != ExitUsage || !strings.Contains(out, "not a regular file") {
			t.Errorf("FIFO: %d %s", code, out)
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if out, code := runResume(t, "/dev/zero"); code != ExitUsage || !strings.Contains(out, "not a regular file") {
			t.Errorf("/dev/zero: %d %s", code, out)
		}
	}
}
