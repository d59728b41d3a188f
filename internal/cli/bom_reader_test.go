package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestByteOrderMarkReaders: a first line after a byte order mark is read by
// Claude Code 2.0.69 and later and skipped by the versions before (measured
// on 1.0.25 to 2.0.67): a warning for today's reader, which names the older
// version that wrote the line, and an error under --reader-version of an
// older one.
func TestByteOrderMarkReaders(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	src := filepath.Join(fixtures, "byte-order-mark", "bad", "projects", "-src-experiments-claude-p",
		"256ba646-2c15-437a-98e9-4171aafd030e.jsonl")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// The same file with its first line dropped: the byte order mark then
	// stands before an entry written by 2.0.60.
	lines := bytes.SplitAfter(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), []byte("\n"))
	first := bytes.Replace(lines[1], []byte(`"version":"2.1.17"`), []byte(`"version":"2.0.60"`), 1)
	old := append(append([]byte("\xef\xbb\xbf"), first...), bytes.Join(lines[2:], nil)...)
	dir := filepath.Join(t.TempDir(), "projects", "-src-experiments-claude-p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), old, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, reader, severity, says string
	}{
		{src, "", "warning", "reads the line after it and loses nothing (measured on 2.0.69 to 2.1.332)"},
		{src, "2.0.69", "warning", "reads the line after it and loses nothing"},
		{src, "2.0.67", "error", "Claude Code 2.0.67 skips the first line"},
		{src, "1.0.25", "error", "Claude Code 1.0.25 skips the first line"},
		{dir, "", "warning", "versions before 2.0.69 skip it, 2.0.60 among them, which wrote this line"},
		{dir, "2.0.60", "error", "Claude Code 2.0.60 skips the first line"},
	} {
		args := []string{"--no-config"}
		if c.reader != "" {
			args = append(args, "--reader-version", c.reader)
		}
		res, _, _ := runJSON(t, append(args, c.path)...)
		var got []string
		for _, f := range res.Findings {
			if f.Rule == "byte-order-mark" {
				got = append(got, f.Severity+": "+f.Message)
				if f.Severity != c.severity || !strings.Contains(f.Message, c.says) {
					t.Errorf("%s, reader %q: %s: %s; want %s saying %q", filepath.Base(c.path), c.reader, f.Severity, f.Message, c.severity, c.says)
				}
			}
		}
		if len(got) != 1 {
			t.Errorf("%s, reader %q: %d byte-order-mark findings, want 1: %q", filepath.Base(c.path), c.reader, len(got), got)
		}
	}
}
