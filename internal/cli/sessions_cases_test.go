package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/pathenc"
)

// largeSession writes, in root's project folder of cwd, session 92: about
// 24 MB of transcript (anthropics/claude-code#25594: a 23 MB session missing
// from the picker), a prompt at the start and one at the end.
func largeSession(t *testing.T, root, cwd string) string {
	t.Helper()
	id := fixtureID(92)
	dir := filepath.Join(root, "projects", pathenc.Encode(cwd))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	parent := "null"
	filler := strings.Repeat("0123456789abcdef", 1750) // 28 KB of reply text
	line := func(n int, typ, content string) {
		uuid := fmt.Sprintf("0000005c-0001-4000-9000-%012x", n)
		ts := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Second).Format("2006-01-02T15:04:05.000Z")
		msg := `{"role":"user","content":` + content + `}`
		if typ == "assistant" {
			msg = fmt.Sprintf(`{"id":"msg_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":%s}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, n, content)
		}
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":%q,"sessionId":%q,"version":"2.1.330","entrypoint":"cli","type":%q,"message":%s,"uuid":%q,"timestamp":%q}`+"\n",
			parent, cwd, id, typ, msg, uuid, ts)
		parent = `"` + uuid + `"`
	}
	line(0, "user", `"Prompt of the large session 92"`)
	for n := 1; n < 1700; n++ {
		if n%2 == 1 {
			line(n, "assistant", `"`+filler+`"`)
		} else {
			line(n, "user", fmt.Sprintf(`"Follow-up %d of the large session"`, n))
		}
	}
	line(1700, "user", `"Last prompt of the large session 92"`)
	p := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	return p
}

// The picker cases users report, as ccvet models them (the real pickers'
// verdicts are TestSessionsPickerAgreement's "picker" root): a first line
// that is a queue-operation without cwd (anthropics/claude-code#67110), a
// file-history-snapshot first line (#16579), a 24 MB file (#25594). All
// three are listed.
func TestSessionsPickerCases(t *testing.T) {
	root := sessionRoot(t, "picker")
	p := largeSession(t, root, "/home/dev/app")
	if st, err := os.Stat(p); err != nil || st.Size() < 23<<20 {
		t.Fatalf("large session: %v %v", st, err)
	}
	r := sessionsJSON(t, root)
	want := map[int]string{90: "Queued prompt of session 90", 91: "Prompt of session 91 after a snapshot line", 92: "Prompt of the large session 92"}
	for n, label := range want {
		s := sessionByID(t, r, fixtureID(n))
		if !s.Picker.Listed || len(s.Picker.Hidden) != 0 || s.Picker.Label != label || s.Cwd != "/home/dev/app" {
			t.Errorf("session %d: %+v", n, s)
		}
	}
	if len(r.Problems) != 0 || len(r.Sessions) != 3 {
		t.Errorf("problems %+v", r.Problems)
	}
}
