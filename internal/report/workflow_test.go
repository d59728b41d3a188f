package report

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/report/reporttest"
)

func TestSanitizeNoWorkflowCommand(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"projects/a/s.jsonl", "projects/a/s.jsonl"},
		{"a::b", "a::b"},
		{"::warning file=README.md::x.jsonl", `\x3a:warning file=README.md::x.jsonl`},
		{"  ::stop-commands::t", `  \x3a:stop-commands::t`},
		{"\u00a0\u3000::error::x", "\u00a0\u3000\\x3a:error::x"},
		{":x", ":x"},
		{"tool said ##[set-output name=ok]yes", `tool said ##\x5bset-output name=ok]yes`},
		{"###[##[", `###\x5b##\x5b`},
		{"##", "##"},
		{"\x1b[31m::error::x ##[warning]y", `\x1b[31m::error::x ##\x5bwarning]y`},
		{"\n::error::x", `\n::error::x`},
	} {
		got := Sanitize(c.in)
		if got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
		if reporttest.WorkflowCommand(got) {
			t.Errorf("Sanitize(%q) = %q: a workflow command", c.in, got)
		}
	}
}

// mapLines is a LineSource of one line per path.
type mapLines map[string]string

func (m mapLines) Line(path string, n int) ([]byte, bool) {
	l, ok := m[path]
	return []byte(l), ok
}

// TestNoWorkflowCommandInAnyFormat: whatever a file name and a transcript
// line hold, no line of the text (with snippets), JSON or SARIF report is
// a workflow command, and the JSON still says the same strings.
func TestNoWorkflowCommandInAnyFormat(t *testing.T) {
	pieces := []string{"a", ":", "::", "#", "##", "[", "]", "##[", " ", "\t", "\u00a0", "\u2003", "\n", "\r",
		"\x1b", "é", "error", "set-output name=x", "stop-commands", ",", "=", "%", "\u202e"}
	rng := rand.New(rand.NewSource(7))
	text := func() string {
		var b strings.Builder
		for range rng.Intn(10) + 1 {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		return b.String()
	}
	for range 3000 {
		path, msg, line := text(), text(), text()+text()
		f := finding.Finding{Rule: "schema", Severity: finding.Error, Path: path, Line: 1, Column: 1 + rng.Intn(3),
			Message: msg, Related: []finding.Location{{Path: text(), Line: 1, Column: 1, Message: text()}}}
		run := &Run{Findings: []finding.Finding{f}, Files: 1, Entries: 1}
		var txt, js, sf bytes.Buffer
		if err := Text(&txt, run, TextOptions{Snippets: mapLines{path: line}}); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&js, run); err != nil {
			t.Fatal(err)
		}
		if err := SARIF(&sf, run); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string][]byte{"text": txt.Bytes(), "json": js.Bytes(), "sarif": sf.Bytes()} {
			for l := range strings.SplitSeq(string(out), "\n") {
				// The runner splits a step's output at '\n' only; a
				// '\r' stays in the line (and is white space to trim).
				if reporttest.WorkflowCommand(l) {
					t.Fatalf("path %q, message %q, line %q: %s report line is a workflow command: %q", path, msg, line, name, l)
				}
			}
		}
		var doc struct {
			Findings []struct {
				Message string `json:"message"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Findings) != 1 {
			t.Fatalf("message %q: JSON report does not decode: %v\n%s", msg, err, js.Bytes())
		}
		if strings.Contains(msg, "##[") && !strings.Contains(doc.Findings[0].Message, "##[") {
			t.Fatalf("message %q: the JSON's message decodes to %q, which lost its \"##[\"", msg, doc.Findings[0].Message)
		}
	}
}
