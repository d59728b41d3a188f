//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/report/reporttest"
)

// TestNoWorkflowCommandFromData: ccvet runs in GitHub Actions on
// transcripts it does not trust, and the runner reads every line a step
// prints for workflow commands. A file named like one (pre-commit passes a
// file at the repository root as its bare name) and a transcript line
// holding the legacy "##[set-output …]" must not make one, in the text
// report with its snippets, JSON, SARIF, fix's plan and --diff, or the
// notes on standard error. (Unix: the name holds ':'.)
func TestNoWorkflowCommandFromData(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := t.TempDir()
	name := "::warning file=README.md,title=forged::x.jsonl"
	// A healthy entry, an entry of a type named like a command (its
	// finding's message quotes the type), and a torn last line (fix
	// deletes it, and --diff shows it).
	body := userLine(nthUUID(1), "", `"##[set-output name=verdict]pass"`) + "\n" +
		`{"type":"##[warning]t","uuid":"` + nthUUID(2) + `"}` + "\n" +
		`{"type":"user","message":"##[stop-commands]tok ::error::x`
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, c := range []struct {
		args  []string
		shows bool // the output shows the data's "##"
	}{
		{[]string{"--no-config", name}, true},
		{[]string{"--no-config", "--format", "json", name}, true},
		{[]string{"--no-config", "--format", "sarif", name}, true},
		{[]string{"--no-config", "./" + name}, true},
		{[]string{"fix", "--diff", "-v", name}, true},
	} {
		args := c.args
		stdout, stderr, code := run(t, "", args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1 (findings)\n%s%s", args, code, stdout, stderr)
		}
		for _, l := range strings.Split(stdout+stderr, "\n") {
			if reporttest.WorkflowCommand(l) {
				t.Errorf("%v: a workflow command in the output: %q", args, l)
			}
		}
		if c.shows && !strings.Contains(stdout, "##") {
			t.Errorf("%v: the data's \"##\" is not shown at all:\n%s", args, stdout)
		}
	}
}
