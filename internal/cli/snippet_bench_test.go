package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkTextSnippets runs the text report over a file of 100,000 lines
// that each get several findings (a reformatted export), with and without
// snippets: snippets read each line once, so the two stay within 2x.
//
//	go test ./internal/cli -run XXX -bench TextSnippets -benchtime 3x
func BenchmarkTextSnippets(b *testing.B) {
	b.Setenv("HOME", b.TempDir())
	b.Setenv("CLAUDE_CONFIG_DIR", b.TempDir())
	p := filepath.Join(b.TempDir(), "export.jsonl")
	var sb strings.Builder
	for i := 0; i < 100_000; i++ {
		fmt.Fprintf(&sb, `{"type": "user", "uuid": "u%d", "parentUuid": "p%d", "message": {"role": "user", "content": "%s"}}`+"\n",
			i, i, strings.Repeat("x", 50))
	}
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{{"no-snippet", []string{"--no-snippet"}}, {"snippets", nil}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				code := Main(append(append([]string{"--color", "never", "-q"}, c.args...), p), strings.NewReader(""), io.Discard, io.Discard)
				if code != ExitFindings {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// TestSnippetsSeveralPerLine: every finding on a line shows the line, and
// the lines come out in order (the reader does not start over for each).
func TestSnippetsSeveralPerLine(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	p := filepath.Join(t.TempDir(), "export.jsonl")
	var sb strings.Builder
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&sb, `{"type": "user", "uuid": "u%d", "parentUuid": "p%d"}`+"\n", i, i)
	}
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := run(t, "", "--color", "never", "-q", p)
	for i := 1; i <= 3; i++ {
		heads := strings.Count(out, fmt.Sprintf("export.jsonl:%d:", i))
		snips := strings.Count(out, fmt.Sprintf("    %d | {", i)) + strings.Count(out, fmt.Sprintf("    %d | …", i))
		if heads < 2 || snips != heads {
			t.Errorf("line %d: %d findings, %d snippets:\n%s", i, heads, snips, out)
		}
	}
}
