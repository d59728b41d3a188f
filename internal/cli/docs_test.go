package cli

import (
	"fmt"
	"os"
	"path/filepath"
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
