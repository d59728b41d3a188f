package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/drift"
)

// TestStatsInjection: a newline (and a forged GitHub Actions command)
// inside an entry's type, its version or an unknown field's key never
// starts an output line of its own, in any stats format nor in the lint
// report's.
func TestStatsInjection(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	const forge = "\n::error file=README.md,line=1::pwned\r\n"
	lines := []string{
		`{"type":"x` + jsonEsc(forge) + `","uuid":"a1","version":"2.1.0"}`,
		`{"type":"user","uuid":"a2","version":"9` + jsonEsc(forge) + `","message":{"role":"user","content":"hi"}}`,
		`{"type":"user","uuid":"a3","version":"2.1.0","k` + jsonEsc(forge) + `":1,"message":{"role":"user","content":"hi"}}`,
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "s"+strings.ReplaceAll(forge, "\n", "")+".jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(what, out string) {
		t.Helper()
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " \r"), "::error file=README") {
				t.Errorf("%s: a forged line reached the output:\n%s", what, out)
			}
			if strings.ContainsAny(l, "\r\x1b") {
				t.Errorf("%s: a raw control character: %q", what, l)
			}
		}
	}
	text, stderr, code := run(t, "", "stats", p)
	if code != ExitOK {
		t.Fatalf("stats: exit %d: %s", code, stderr)
	}
	check("stats text", text)
	if !strings.Contains(text, `\n::error`) {
		t.Errorf("stats text does not show the escaped newline:\n%s", text)
	}
	js, _, _ := run(t, "", "stats", "-f", "json", p)
	check("stats json", js)
	var doc drift.Report
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, v := range doc.Versions {
		found["version:"+v.Version] = true
		for _, u := range v.UnknownTypes {
			found["type:"+u.Name] = true
		}
		for _, f := range v.UnknownFields {
			found["field:"+f.Pointer] = true
		}
	}
	for _, want := range []string{"version:9" + forge, "type:x" + forge, "field:/k" + forge} {
		if !found[want] {
			t.Errorf("stats json: %q not kept exactly: %v", want, found)
		}
	}
	for _, f := range []string{"text", "json", "sarif", "github"} {
		out, _, _ := run(t, "", "-f", f, "--enable", "unknown-field", "--exit-zero", p)
		check("lint "+f, out)
	}
}

func jsonEsc(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestJSONCommandsEscapeInvisible: the JSON of ccvet stats and ccvet sessions
// writes DEL, C1 and bidirectional controls from transcripts as \u escapes,
// as the lint's JSON report does (encoding/json leaves them raw), and still
// carries the exact strings.
func TestJSONCommandsEscapeInvisible(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	const evil = "a\u202eb\u0085c\x7fd"
	root := t.TempDir()
	sid := "11111111-1111-4111-8111-111111111111"
	dir := filepath.Join(root, "projects", "-w")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w` + jsonEsc(evil) +
		`","sessionId":"` + sid + `","version":"2.1.330` + jsonEsc(evil) + `","type":"user","message":{"role":"user","content":"hi ` +
		jsonEsc(evil) + `"},"uuid":"a1111111-1111-4111-8111-111111111111","timestamp":"2026-11-20T10:00:00Z","x` + jsonEsc(evil) + `":1}`
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"stats", "-f", "json", root}, {"sessions", "-f", "json", root}} {
		out, stderr, code := run(t, "", args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if strings.ContainsAny(out, "\u202e\u0085\x7f") {
			t.Errorf("%v: a raw DEL, C1 or bidirectional control in the output:\n%s", args, out)
		}
		if !strings.Contains(out, `\u202e`) {
			t.Errorf("%v: the escaped character is not in the output:\n%s", args, out)
		}
		var doc any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if b, _ := json.Marshal(doc); !strings.Contains(string(b), evil) {
			t.Errorf("%v: the exact string is lost: %s", args, b)
		}
	}
}
