package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRawUUIDIsNotAWrittenOne: a uuid not written as Claude Code writes
// them ("user-1") and a written one are different uuids to every rule,
// whatever their bits: the pair that named the same ID under an unkeyed
// hash (FNV-1a of "user-1" is 2fa86782-b23c-64bf-6f3a-91164680b46c) gives
// what the strings give, an orphan-parent in one order, nothing in the other.
func TestRawUUIDIsNotAWrittenOne(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	const (
		session = "5d3c1a2b-7e4f-4a1b-9c8d-0e1f2a3b4c5d"
		written = "2fa86782-b23c-64bf-6f3a-91164680b46c"
		other   = "33333333-3333-4333-8333-333333333333"
	)
	line := func(typ, uuid, parent string, sec int) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		msg := `{"role":"user","content":"hello"}`
		if typ == "assistant" {
			msg = `{"model":"claude-opus-4-5-20251101","id":"msg_01AbCdEfGhIjKlMnOpQrStUv","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`
		}
		return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/src/p","sessionId":"%s","version":"2.1.17","gitBranch":"","type":"%s","message":%s,"uuid":"%s","timestamp":"2026-01-23T17:19:%02d.590Z"}`,
			p, session, typ, msg, uuid, sec) + "\n"
	}
	for _, c := range []struct {
		name  string
		lines string
		want  []string // rule ids, in order
	}{
		{"written-then-raw-parent", line("user", written, "", 1) + line("user", other, "user-1", 2), []string{"orphan-parent"}},
		{"raw-then-written-child", line("user", "user-1", "", 1) + line("assistant", written, "user-1", 2), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "projects", "-src-p")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, session+".jsonl"), []byte(c.lines), 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, _ := runJSON(t, "--no-config", root)
			var got []string
			for _, f := range out.Findings {
				got = append(got, f.Rule)
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("findings %v, want %v", out.Findings, c.want)
			}
		})
	}
}
