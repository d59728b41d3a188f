//go:build unix

package oracle

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// synthTurns is a hand-written session shaped like BaseTurns.
func synthTurns() []byte {
	ts := func(i int) string { return fmt.Sprintf("2026-01-01T00:00:%02d.000Z", i) }
	u := func(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	msg := func(i, parent int, role, content string) {
		p := "null"
		if parent > 0 {
			p = `"` + u(parent) + `"`
		}
		line(fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"type":%q,"message":{"role":%q,"content":%s},"uuid":%q,"timestamp":%q,"sessionId":"s"}`, p, role, role, content, u(i), ts(i)))
	}
	use := func(id, cmd string) string {
		return fmt.Sprintf(`[{"type":"tool_use","id":%q,"name":"Bash","input":{"command":%q}}]`, id, cmd)
	}
	res := func(id string) string {
		return fmt.Sprintf(`[{"type":"tool_result","tool_use_id":%q,"content":"ok"}]`, id)
	}
	msg(1, 0, "user", `"`+TurnOnePrompt+`\nplan"`)
	msg(2, 1, "assistant", use("toolu_1", CmdOne))
	msg(3, 2, "user", res("toolu_1"))
	msg(4, 3, "assistant", `[{"type":"text","text":"`+TurnOneDone+`"}]`)
	line(`{"type":"last-prompt","leafUuid":"` + u(4) + `","sessionId":"s"}`)
	msg(5, 4, "user", `"`+TurnTwoPrompt+`"`)
	msg(6, 5, "assistant", use("toolu_2a", CmdTwoA))
	msg(7, 6, "assistant", use("toolu_2b", CmdTwoB))
	msg(8, 7, "user", res("toolu_2a"))
	msg(9, 8, "user", res("toolu_2b"))
	msg(10, 9, "assistant", `[{"type":"text","text":"`+TurnTwoDone+`"}]`)
	line(`{"type":"api-request","sessionId":"s"}`)
	return []byte(b.String())
}

func synthCompact() []byte {
	return []byte(`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"before"},"uuid":"a","timestamp":"2026-01-01T00:00:00.000Z"}
{"parentUuid":null,"logicalParentUuid":"a","isSidechain":false,"type":"system","subtype":"compact_boundary","uuid":"b","timestamp":"2026-01-01T00:00:01.000Z"}
{"parentUuid":"b","isSidechain":false,"type":"user","message":{"role":"user","content":"summary"},"uuid":"c","timestamp":"2026-01-01T00:00:02.000Z"}
`)
}

func TestSessionRoundTrip(t *testing.T) {
	for _, in := range [][]byte{synthTurns(), synthCompact(), []byte("{}"), nil, []byte("a\n\nb\n")} {
		if got := ParseSession(in).Bytes(); !bytes.Equal(got, in) {
			t.Errorf("round trip %q -> %q", in, got)
		}
	}
}

// TestCorruptionsApply: every corruption applies to a session of its base's
// shape and changes it (the baseline rows excepted), without the real
// program.
func TestCorruptionsApply(t *testing.T) {
	ids := map[string]bool{}
	for _, c := range Corruptions() {
		if ids[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		ids[c.ID] = true
		in := synthTurns()
		switch c.Base {
		case BaseCompact:
			in = synthCompact()
		case BaseLarge:
			in = bytes.ReplaceAll(synthTurns(), []byte(TurnOneDone), []byte("Big reply 0."))
		case BaseHand, BaseHandFork:
			h := &Hand{SID: HandSessionID, Cwd: "/hand"}
			if c.Base == BaseHand {
				linear(h)
			} else {
				forked(h, 4000, 5000)
			}
			in = h.Bytes()
		}
		s := ParseSession(in)
		if err := c.Apply(s); err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		out := s.Bytes()
		if changed := !bytes.Equal(in, out); changed != !strings.HasSuffix(c.ID, "none") {
			t.Errorf("%s: changed=%v\n%s", c.ID, changed, out)
		}
	}
	s := ParseSession(synthTurns())
	c, _ := LookupCorruption("dangling-parent-paused")
	if err := c.Apply(s); err != nil {
		t.Fatal(err)
	}
	if i := s.withText("user", TurnTwoPrompt); i < 0 || s.E[i].Timestamp != "2026-01-01T00:01:05.000Z" || s.E[i-1].Type != "last-prompt" {
		t.Errorf("paused: the orphan's time is %q", s.E[i].Timestamp)
	}
}

func TestRespace(t *testing.T) {
	s := ParseSession(synthTurns())
	s.Respace(100 * time.Millisecond)
	if s.E[0].Timestamp != "2026-01-01T00:00:01.000Z" || s.E[10].Timestamp != "2026-01-01T00:00:02.000Z" || s.E[11].Timestamp != "" {
		t.Errorf("respaced: %q %q", s.E[0].Timestamp, s.E[10].Timestamp)
	}
}

func TestApplyCorruptionFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(f, synthTurns(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ApplyCorruption("missing-final-newline", f); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(f)
	if len(b) == 0 || b[len(b)-1] == '\n' {
		t.Errorf("final newline still there")
	}
	if err := ApplyCorruption("no-such", f); err == nil {
		t.Error("unknown id accepted")
	}
}

func TestFileSignatures(t *testing.T) {
	got := strings.Join(FileSignatures(synthTurns()), "|")
	want := "user text:Oracle turn one.|tool_use:toolu_1|tool_result:toolu_1|assistant text:Oracle turn one done.|user text:Oracle turn two.|tool_use:toolu_2a|tool_use:toolu_2b|tool_result:toolu_2a|tool_result:toolu_2b|assistant text:Oracle turn two done."
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
