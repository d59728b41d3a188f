package cli

import (
	"strings"
	"testing"
)

// TestHelp: `ccvet --help`, `ccvet help [CMD]` and `ccvet CMD --help` (and
// -h) exit 0, print on stdout only, and open with one line on what the
// command does; an unknown command is a one-line usage error.
func TestHelp(t *testing.T) {
	isolate(t)
	main, stderr, code := run(t, "", "--help")
	if code != ExitOK || stderr != "" || !strings.HasPrefix(main, "ccvet lints ") {
		t.Fatalf("--help: exit %d, stderr %q, stdout %.80q", code, stderr, main)
	}
	for _, c := range commands {
		if !strings.Contains(main, "\n  "+c.name+" ") {
			t.Errorf("--help does not list %s", c.name)
		}
		first := upperFirst(c.summary) + ".\n\nUsage: ccvet " + c.name
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
			out, stderr, code := run(t, "", args...)
			if code != ExitOK || stderr != "" || !strings.HasPrefix(out, first) {
				t.Errorf("ccvet %s: exit %d, stderr %q, stdout %q", strings.Join(args, " "), code, stderr, out)
			}
		}
	}
	if out, _, code := run(t, "", "help"); code != ExitOK || out != main {
		t.Errorf("ccvet help: exit %d, differs from --help", code)
	}
	if out, stderr, code := run(t, "", "help", "nope"); code != ExitUsage || out != "" || strings.Count(stderr, "\n") != 1 ||
		!strings.Contains(stderr, "rules, explain") {
		t.Errorf("help nope: exit %d, %q", code, stderr)
	}
	if _, stderr, code := run(t, "", "rules", "--bogus"); code != ExitUsage || strings.Count(stderr, "\n") != 1 ||
		!strings.Contains(stderr, "ccvet rules --help") {
		t.Errorf("rules --bogus: exit %d, %q", code, stderr)
	}
	// --stdin-filename takes a NAME (issue 13, item 8).
	if !strings.Contains(main, "--stdin-filename NAME") {
		t.Errorf("--help: --stdin-filename does not take NAME")
	}
}

// TestSmallTruths: the small things the README and the help promise (issue
// 13, item 8).
func TestSmallTruths(t *testing.T) {
	isolate(t)
	// ccvet rules says what docs/rules.md says.
	out, _, _ := run(t, "", "rules")
	if strings.Contains(out, " strict ") || !strings.Contains(out, "off (on with --strict)") {
		t.Errorf("rules: want \"off (on with --strict)\":\n%s", out)
	}
	// explain goes on past an unknown id and names every unknown one.
	out, stderr, code := run(t, "", "explain", "nope-one", "blank-line", "nope-two")
	if code != ExitUsage || !strings.HasPrefix(out, "blank-line ") || strings.Count(stderr, "\n") != 2 ||
		!strings.Contains(stderr, `"nope-one"`) || !strings.Contains(stderr, `"nope-two"`) {
		t.Errorf("explain with unknown ids: exit %d, stdout %.40q, stderr %q", code, out, stderr)
	}
	// stats takes the flags users carry over from lint.
	good := fixtures + "/missing-final-newline/good"
	if _, stderr, code := run(t, "", "stats", "-q", "--no-config", good); code != ExitOK {
		t.Errorf("stats -q --no-config: exit %d, %q", code, stderr)
	}
	// One file skipped is "1 other file skipped".
	dir := t.TempDir()
	writeFile(t, dir+"/notes.txt", []byte("x"))
	writeFile(t, dir+"/s.jsonl", []byte(`{"type":"summary","summary":"x","leafUuid":"1c1e3bd9-2bb9-4626-bd99-86a5f04492e6"}`+"\n"))
	_, stderr, _ = run(t, "", dir)
	out, _, _ = run(t, "", "--color", "never", dir)
	if !strings.Contains(out, "(1 other file skipped)") {
		t.Errorf("summary: %q %q", out, stderr)
	}
}
