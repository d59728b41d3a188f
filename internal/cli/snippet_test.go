package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSnippets(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	bad := filepath.Join(fixtures, "nul-bytes", "bad")
	out, _, _ := run(t, "", "--color", "never", bad)
	want := "session.jsonl:6:1: error: run of 64 NUL bytes; the reader skips this line and reads on: the entry it held is lost, the entries after it are kept [nul-bytes]\n" +
		"    6 | " + strings.Repeat(`\x00`, 24) + "…\n" +
		"      | ^\n"
	if !strings.Contains(out, want) {
		t.Errorf("want\n%s\nin\n%s", want, out)
	}
	out, _, _ = run(t, "", "--color", "never", "--no-snippet", bad)
	if strings.Contains(out, " | ") {
		t.Errorf("--no-snippet still shows snippets:\n%s", out)
	}

	// Standard input is read once; the snippet comes from the bytes kept.
	in := `{"type":"user","message":{"role":"user","content":"hi"},"uuid":"x"}` + "\n" + "{oops\n"
	out, _, _ = run(t, in, "--color", "never", "--stdin-filename", "s.jsonl", "-")
	want = "s.jsonl:2:2: error: line is not valid JSON: invalid character 'o' looking for beginning of object key string [invalid-json]\n" +
		"    2 | {oops\n" +
		"      |  ^\n"
	if !strings.Contains(out, want) {
		t.Errorf("stdin: want\n%s\nin\n%s", want, out)
	}
}
