package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRulesDoc keeps docs/rules.md equal to the catalogue.
func TestRulesDoc(t *testing.T) {
	out, _, code := run(t, "", "rules", "--format", "markdown")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	path := filepath.Join("..", "..", "docs", "rules.md")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/cli -run TestRulesDoc -update)", err)
	}
	if string(want) != out {
		t.Errorf("docs/rules.md is out of date: go test ./internal/cli -run TestRulesDoc -update")
	}
}

// TestReadme keeps the README's generated block (the sample run, as `go run`
// shows it: the sample store is broken on purpose, so it ends with go run's
// "exit status 1") equal to what ccvet prints now.
func TestReadme(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	t.Chdir(filepath.Join("..", "..")) // paths as a run from the repository root prints them
	path := "README.md"
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sample, _, code := run(t, "", "--color", "never", filepath.Join("testdata", "store"))
	if code != ExitFindings {
		t.Errorf("the sample store exits %d, want %d: the README says it is broken on purpose", code, ExitFindings)
	}
	blocks := map[string]string{
		"sample-output": "```\n$ go run ./cmd/ccvet testdata/store\n" + sample + fmt.Sprintf("exit status %d\n", code) + "```\n",
	}
	got := string(readme)
	for name, body := range blocks {
		got = replaceBlock(t, got, name, body)
	}
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != string(readme) {
		t.Errorf("README.md is out of date: go test ./internal/cli -run TestReadme -update")
	}
}

func replaceBlock(t *testing.T, doc, name, body string) string {
	start, end := "<!-- "+name+" -->\n", "<!-- /"+name+" -->"
	i := strings.Index(doc, start)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %s markers", name)
	}
	return doc[:i+len(start)] + body + doc[j:]
}

// TestReadmeRedactExample runs the README's secret example: the dummy key
// its recipe makes (the first 32 hex digits of SHA-256 of "demo") in the
// secret fixture, checked as the README shows, must give the line the
// README prints (the key's fingerprint and its resends).
func TestReadmeRedactExample(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ ccvet -q --no-snippet export"
	_, after, ok := strings.Cut(string(readme), cmd)
	if !ok || !strings.Contains(string(readme), "printf demo | { sha256sum") {
		t.Fatalf("README.md lacks the redact example (%q and its key recipe)", cmd)
	}
	want, _, _ := strings.Cut(after[strings.Index(after, "\n")+1:], "\n")
	fixture, err := os.ReadFile(filepath.Join(fixtures, "secret", "bad", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("demo"))
	key := hex.EncodeToString(sum[:])[:32]
	data := regexp.MustCompile(`\{\{secrettest[^}]*\}\}`).ReplaceAll(fixture, []byte(key))
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "export"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "export", "session.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, stderr, code := run(t, "", "-q", "--no-snippet", "export")
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitFindings, stderr)
	}
	if got := strings.TrimSuffix(out, "\n"); got != want {
		t.Errorf("README.md's redact example prints\n%s\nccvet prints\n%s", want, got)
	}
	if strings.Contains(out, key) {
		t.Error("the output holds the key")
	}
}
