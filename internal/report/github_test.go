package report

import (
	"bytes"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
)

func githubCases() map[string]*Run {
	cases := sarifCases()
	cases["escapes"] = &Run{Version: "v0.1.0", Files: 2, Entries: 3, Findings: []finding.Finding{
		{Rule: "invalid-json", Severity: finding.Error, Path: "a,b:c/100%.jsonl", Line: 3, Column: 12,
			Message: "50% done\r\nthen ::set-output name=x::y, and a, comma: colon"},
		{Rule: "blank-line", Severity: finding.Warning, Path: "p/line\nbreak.jsonl", Line: 1, Column: 1,
			Message: "blank line"},
	}}
	return cases
}

func TestGitHubGolden(t *testing.T) {
	for name, run := range githubCases() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := GitHub(&buf, run, false); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".github.txt")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from the output (run with -update after a deliberate change):\n%s", golden, buf.String())
			}
			checkGitHubInvariants(t, run, buf.String())
		})
	}
}

// checkGitHubInvariants: one command a finding, each on one line, with no
// control character at all, and nothing else but the summary line.
func checkGitHubInvariants(t *testing.T, run *Run, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(run.Findings)+1 {
		t.Fatalf("%d lines for %d findings and a summary:\n%s", len(lines), len(run.Findings), out)
	}
	for i, f := range run.Findings {
		l := lines[i]
		want := map[finding.Severity]string{finding.Error: "::error ", finding.Warning: "::warning ", finding.Note: "::notice "}[f.Severity]
		if !strings.HasPrefix(l, want+"file=") {
			t.Errorf("line %d: want prefix %q: %q", i+1, want, l)
		}
		props, _, ok := strings.Cut(strings.TrimPrefix(l, want), "::")
		if !ok {
			t.Errorf("line %d: no :: before the message: %q", i+1, l)
		}
		if (f.Line > 0) != strings.Contains(props, ",line=") {
			t.Errorf("line %d: line property present = %v for a finding on line %d", i+1, f.Line <= 0, f.Line)
		}
		for _, r := range l {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' || r == '\u2028' || r == '\u2029' {
				t.Errorf("line %d holds control character %U: %q", i+1, r, l)
			}
		}
	}
	if strings.HasPrefix(lines[len(lines)-1], "::") {
		t.Errorf("summary line looks like a command: %q", lines[len(lines)-1])
	}
}

func TestGitHubQuiet(t *testing.T) {
	var buf bytes.Buffer
	if err := GitHub(&buf, &Run{}, true); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Errorf("quiet, no findings: got %q", buf.String())
	}
}

// runnerUnescape undoes the workflow-command escaping the way the Actions
// runner does: %0D, %0A (and %3A, %2C in a property) first, %25 last.
func runnerUnescape(s string, property bool) string {
	s = strings.ReplaceAll(s, "%0D", "\r")
	s = strings.ReplaceAll(s, "%0A", "\n")
	if property {
		s = strings.ReplaceAll(s, "%3A", ":")
		s = strings.ReplaceAll(s, "%2C", ",")
	}
	return strings.ReplaceAll(s, "%25", "%")
}

// TestGitHubRunnerParse parses each command as the runner does (the command
// ends at the first "::" after the leading one, properties split at "," and
// then at the first "="): whatever the path and message hold, the runner
// reads back exactly the file, line, col and title written, and the message,
// each escaped as Sanitize escapes it, and nothing else.
func TestGitHubRunnerParse(t *testing.T) {
	pieces := []string{"a", "%", "%25", "%0A", "%3A", ":", "::", ",", "=", "\r", "\n", " ", "\x1b", "\u202e", "\u2028",
		"\xff", "é", "😀", `\`, "/", "title=x", ",line=5", "::error::x"}
	rng := rand.New(rand.NewSource(1))
	text := func() string {
		var b strings.Builder
		for range rng.Intn(8) + 1 {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		return b.String()
	}
	for range 5000 {
		path, msg := text(), text()
		var buf bytes.Buffer
		run := &Run{Findings: []finding.Finding{{Rule: "schema", Severity: finding.Error, Path: path, Line: 2, Column: 3, Message: msg}}}
		if err := GitHub(&buf, run, true); err != nil {
			t.Fatal(err)
		}
		line, ok := strings.CutSuffix(buf.String(), "\n")
		if !ok || strings.ContainsAny(line, "\r\n") || !strings.HasPrefix(line, "::error ") {
			t.Fatalf("path %q, message %q: not one command line: %q", path, msg, buf.String())
		}
		end := strings.Index(line[2:], "::") + 2
		_, props, _ := strings.Cut(line[2:end], " ")
		got := map[string]string{}
		for _, p := range strings.Split(props, ",") {
			k, v, _ := strings.Cut(p, "=")
			got[k] = runnerUnescape(v, true)
		}
		want := map[string]string{"file": Sanitize(path), "line": "2", "col": "3", "title": "schema"}
		if !maps.Equal(got, want) {
			t.Fatalf("path %q: the runner reads %q, want %q", path, got, want)
		}
		if data := runnerUnescape(line[end+2:], false); data != Sanitize(msg) {
			t.Fatalf("message %q: the runner reads %q, want %q", msg, data, Sanitize(msg))
		}
	}
}

// TestGitHubNoColumnZero: a finding on a line but at no column (ccvet's
// unreadable, when a read fails part-way through a file) gets line= and no
// col=: the runner's columns start at 1, so col=0 names no column.
func TestGitHubNoColumnZero(t *testing.T) {
	run := &Run{Findings: []finding.Finding{
		{Rule: "unreadable", Severity: finding.Error, Path: "s.jsonl", Line: 4, Message: "cannot read: input/output error"},
		{Rule: "schema", Severity: finding.Warning, Path: "s.jsonl", Line: 5, Column: 7, Message: "m"},
	}}
	var buf bytes.Buffer
	if err := GitHub(&buf, run, true); err != nil {
		t.Fatal(err)
	}
	want := "::error file=s.jsonl,line=4,title=unreadable::cannot read: input/output error\n" +
		"::warning file=s.jsonl,line=5,col=7,title=schema::m\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
