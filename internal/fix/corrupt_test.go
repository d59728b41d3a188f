package fix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/fix/store"
	"github.com/ccvet/ccvet/internal/rules"
)

// healthy real transcripts the corruptions start from: the original is the oracle.
func healthySources(t *testing.T) []string {
	var out []string
	for _, g := range []string{
		corpusDir + "/Smartagent-so__Personal_AI_Infrastructure/.claude/projects/*/*.jsonl",
		corpusDir + "/iansherr__claude-code-log/test/test_data/real_projects/*/*.jsonl",
		corpusDir + "/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/*/*.jsonl",
		"../../testdata/oracle/2.1.*/*/projects/*/*.jsonl",
	} {
		m, _ := filepath.Glob(g)
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Skip("no healthy real transcripts available")
	}
	return out
}

type lineRec struct {
	raw []byte // with its newline
	obj map[string]any
}

func splitLines(b []byte) []lineRec {
	var out []lineRec
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		var l []byte
		if i < 0 {
			l, b = b, nil
		} else {
			l, b = b[:i+1], b[i+1:]
		}
		var m map[string]any
		_ = json.Unmarshal(bytes.TrimSpace(l), &m)
		out = append(out, lineRec{raw: l, obj: m})
	}
	return out
}

func join(ls []lineRec) []byte {
	var b []byte
	for _, l := range ls {
		b = append(b, l.raw...)
	}
	return b
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func ms(s string) (int64, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t.UnixMilli(), err == nil
}

// userTextAt finds, on a user line, the offset just inside a text value
// ("text":" of a block, or "content":" of a plain prompt).
func userTextAt(l lineRec) int {
	if str(l.obj, "type") != "user" {
		return -1
	}
	for _, key := range []string{`"text":"`, `"role":"user","content":"`} {
		if i := bytes.Index(l.raw, []byte(key)); i >= 0 {
			return i + len(key)
		}
	}
	return -1
}

// corruption damages a healthy file; want is what fix must give back (nil:
// no byte-exact expectation), rule the finding it targets, unsafe whether
// the fix needs --unsafe.
type corruption struct {
	name   string
	rule   string
	unsafe bool
	manual bool // no automatic fix: nothing may be written for it
	// mainOnly: the damage moves a subagent's leaf (the leaf of a subagent
	// is its latest childless entry), so a fix there is refused.
	mainOnly bool
	fields   []string // top-level fields the fix may change, besides the parent links
	// mayRefuse: verification may refuse the fix (nothing written) when the
	// damaged file reaches, through the damage itself, an entry the fixed
	// one would not: the superset rule keeps that case for a person.
	mayRefuse bool
	apply     func(ls []lineRec) (bad, want []byte, ok bool)
}

// relinkable finds a line whose parent is the nearest earlier entry of its
// chain, at a gap inside (small) or over 5 s.
func relinkable(ls []lineRec, small bool) int {
	for k := len(ls) - 1; k > 0; k-- {
		o := ls[k].obj
		p := str(o, "parentUuid")
		if o == nil || p == "" || str(o, "type") == "progress" {
			continue
		}
		for j := k - 1; j >= 0; j-- {
			c := ls[j].obj
			switch str(c, "type") {
			case "user", "assistant", "system", "attachment":
			default:
				continue
			}
			if c["isSidechain"] != o["isSidechain"] || str(c, "agentId") != str(o, "agentId") || str(c, "uuid") == "" {
				continue
			}
			if str(c, "uuid") != p {
				break
			}
			t0, ok0 := ms(str(c, "timestamp"))
			t1, ok1 := ms(str(o, "timestamp"))
			if ok0 && ok1 && t1 >= t0 && (t1-t0 <= 5000) == small {
				return k
			}
			break
		}
	}
	return -1
}

func replaceParentLine(l lineRec, to string) []byte {
	p := str(l.obj, "parentUuid")
	return bytes.Replace(l.raw, []byte(`"parentUuid":"`+p+`"`), []byte(`"parentUuid":"`+to+`"`), 1)
}

func replaceParent(ls []lineRec, k int, to string) []byte {
	out := append([]lineRec(nil), ls...)
	p := str(ls[k].obj, "parentUuid")
	out[k].raw = bytes.Replace(ls[k].raw, []byte(`"parentUuid":"`+p+`"`), []byte(`"parentUuid":"`+to+`"`), 1)
	return join(out)
}

var corruptions = []corruption{
	{name: "torn-tail", rule: "truncated-line", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		orig := join(ls)
		last := ls[len(ls)-1].raw
		if len(last) < 10 || last[len(last)-1] != '\n' {
			return nil, nil, false
		}
		return append(append([]byte{}, orig...), last[:len(last)/2]...), orig, true
	}},
	{name: "no-final-newline", rule: "missing-final-newline", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		orig := join(ls)
		if orig[len(orig)-1] != '\n' {
			return nil, nil, false
		}
		return orig[:len(orig)-1], orig, true
	}},
	{name: "nul-run", rule: "nul-bytes", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		k := len(ls) / 2
		out := append([]lineRec(nil), ls...)
		out[k].raw = append(bytes.Repeat([]byte{0}, 37), ls[k].raw...)
		return join(out), join(ls), true
	}},
	{name: "nul-line", rule: "nul-bytes", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		k := len(ls) / 3
		out := append(append(append([]lineRec(nil), ls[:k]...), lineRec{raw: []byte("\x00\x00\x00\x00\n")}), ls[k:]...)
		return join(out), join(ls), true
	}},
	{name: "fused", rule: "invalid-json", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		k := len(ls) / 2
		if k+1 >= len(ls) || ls[k].obj == nil || ls[k+1].obj == nil {
			return nil, nil, false
		}
		out := append([]lineRec(nil), ls...)
		out[k].raw = bytes.TrimSuffix(ls[k].raw, []byte("\n"))
		return join(out), join(ls), true
	}},
	{name: "blank", rule: "blank-line", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		k := len(ls) / 2
		out := append(append(append([]lineRec(nil), ls[:k]...), lineRec{raw: []byte("  \n")}), ls[k:]...)
		return join(out), join(ls), true
	}},
	{name: "repeated", rule: "duplicate-uuid", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		for k := len(ls) / 2; k < len(ls); k++ {
			if str(ls[k].obj, "uuid") != "" && bytes.HasSuffix(ls[k].raw, []byte("\n")) {
				out := append(append(append([]lineRec(nil), ls[:k+1]...), ls[k]), ls[k+1:]...)
				return join(out), join(ls), true
			}
		}
		return nil, nil, false
	}},
	{name: "phantom-parent-under-5s", rule: "orphan-parent", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		k := relinkable(ls, true)
		if k < 0 {
			return nil, nil, false
		}
		return replaceParent(ls, k, "00000000-dead-4bad-8bad-000000000001"), join(ls), true
	}},
	{name: "phantom-parent-over-5s", rule: "orphan-parent", unsafe: true, apply: func(ls []lineRec) ([]byte, []byte, bool) {
		k := relinkable(ls, false)
		if k < 0 {
			return nil, nil, false
		}
		return replaceParent(ls, k, "00000000-dead-4bad-8bad-000000000002"), join(ls), true
	}},
	{name: "reparented-parallel-result", rule: "tool-result-off-chain", apply: func(ls []lineRec) ([]byte, []byte, bool) {
		children := map[string]bool{}
		first := ""
		uses := map[string]int{} // message.id -> assistant lines with a tool_use
		msgOf := map[string]string{}
		for _, l := range ls {
			children[str(l.obj, "parentUuid")] = true
			if first == "" && str(l.obj, "type") == "user" {
				first = str(l.obj, "uuid")
			}
			if str(l.obj, "type") == "assistant" && bytes.Contains(l.raw, []byte(`"tool_use"`)) {
				m, _ := l.obj["message"].(map[string]any)
				if id := str(m, "id"); id != "" {
					uses[id]++
					msgOf[str(l.obj, "uuid")] = id
				}
			}
		}
		for k := len(ls) - 4; k > 0; k-- {
			o := ls[k].obj
			if str(o, "type") != "user" || children[str(o, "uuid")] || !bytes.Contains(ls[k].raw, []byte(`"tool_result"`)) {
				continue
			}
			if id := msgOf[str(o, "parentUuid")]; id != "" && uses[id] >= 2 {
				return replaceParent(ls, k, first), join(ls), true
			}
		}
		return nil, nil, false
	}},
	{name: "dropped-tool-use", rule: "unmatched-tool-result", unsafe: true, fields: []string{"message"}, apply: func(ls []lineRec) ([]byte, []byte, bool) {
		for k := len(ls) / 2; k < len(ls)-2; k++ {
			if str(ls[k].obj, "type") == "assistant" && bytes.Contains(ls[k].raw, []byte(`"tool_use"`)) {
				out := append(append([]lineRec(nil), ls[:k]...), ls[k+1:]...)
				return join(out), nil, true
			}
		}
		return nil, nil, false
	}},
	{name: "dropped-tool-result", rule: "unmatched-tool-use", unsafe: true, apply: func(ls []lineRec) ([]byte, []byte, bool) {
		for k := len(ls) / 2; k < len(ls)-3; k++ {
			if str(ls[k].obj, "type") == "user" && bytes.Contains(ls[k].raw, []byte(`"tool_result"`)) {
				out := append(append([]lineRec(nil), ls[:k]...), ls[k+1:]...)
				return join(out), nil, true
			}
		}
		return nil, nil, false
	}},
	{name: "reordered-keys", rule: "reordered-keys", unsafe: true, apply: func(ls []lineRec) ([]byte, []byte, bool) {
		for k := len(ls) / 2; k < len(ls); k++ {
			raw := ls[k].raw
			p := str(ls[k].obj, "parentUuid")
			m := []byte(`"parentUuid":"` + p + `",`)
			if p == "" || !bytes.HasPrefix(raw, append([]byte("{"), m...)) || !bytes.HasSuffix(raw, []byte("}\n")) {
				continue
			}
			out := append([]lineRec(nil), ls...)
			body := raw[1+len(m) : len(raw)-2]
			var nr []byte
			nr = append(nr, '{')
			nr = append(nr, body...)
			nr = append(nr, ',')
			nr = append(nr, m[:len(m)-1]...)
			nr = append(nr, "}\n"...)
			out[k].raw = nr
			return join(out), join(ls), true
		}
		return nil, nil, false
	}},
	{name: "parent-cycle", rule: "parent-cycle", unsafe: true, mainOnly: true, apply: func(ls []lineRec) ([]byte, []byte, bool) {
		k := relinkable(ls, true)
		if k < 0 {
			k = relinkable(ls, false)
		}
		if k < 0 {
			return nil, nil, false
		}
		for c := k + 1; c < len(ls); c++ {
			if str(ls[c].obj, "parentUuid") == str(ls[k].obj, "uuid") {
				return replaceParent(ls, k, str(ls[c].obj, "uuid")), join(ls), true
			}
		}
		return nil, nil, false
	}},
	{name: "reused-uuid", rule: "duplicate-uuid", unsafe: true, mayRefuse: true, fields: []string{"uuid"}, apply: func(ls []lineRec) ([]byte, []byte, bool) {
		k := len(ls) / 3
		for ; k < len(ls) && str(ls[k].obj, "uuid") == ""; k++ {
		}
		if k >= len(ls) {
			return nil, nil, false
		}
		uk := str(ls[k].obj, "uuid")
		for j := len(ls) - 2; j > k+2; j-- {
			uj := str(ls[j].obj, "uuid")
			if uj == "" || str(ls[j].obj, "type") == "progress" || str(ls[j+1].obj, "parentUuid") != uj {
				continue // j must be on the chain: the next line hangs from it
			}
			out := append([]lineRec(nil), ls...)
			out[j].raw = bytes.Replace(ls[j].raw, []byte(`"uuid":"`+uj+`"`), []byte(`"uuid":"`+uk+`"`), 1)
			for c := j + 1; c < len(ls); c++ {
				if str(ls[c].obj, "parentUuid") == uj {
					out[c].raw = replaceParentLine(ls[c], uk)
				}
			}
			return join(out), nil, true
		}
		return nil, nil, false
	}},
	{name: "split-surrogate", rule: "lone-surrogate", unsafe: true, fields: []string{"message"}, apply: func(ls []lineRec) ([]byte, []byte, bool) {
		return insertAtUserText(ls, `\ud83d`)
	}},
	{name: "escaped-nul", rule: "escaped-nul", unsafe: true, fields: []string{"message"}, apply: func(ls []lineRec) ([]byte, []byte, bool) {
		return insertAtUserText(ls, `\u0000`)
	}},
}

// TestCorruptions damages healthy real transcripts and checks the repair:
// the targeted finding's fix is planned with its class, --write gives the
// original bytes back (where the damage destroyed nothing), provenance
// holds, a second plan is empty, and undo restores the damaged bytes.
func TestCorruptions(t *testing.T) {
	isolate(t)
	srcs := healthySources(t)
	for _, c := range corruptions {
		tried := 0
		for _, src := range srcs {
			orig, err := os.ReadFile(src)
			if err != nil || len(orig) == 0 || orig[len(orig)-1] != '\n' {
				continue
			}
			ls := splitLines(orig)
			if len(ls) < 6 {
				continue
			}
			bad, want, ok := c.apply(ls)
			if !ok {
				continue
			}
			if c.mainOnly && strings.HasPrefix(filepath.Base(src), "agent-") {
				continue
			}
			tried++
			t.Run(c.name+"/"+filepath.Base(src), func(t *testing.T) {
				checkCorruption(t, c, src, orig, bad, want)
			})
			if tried == 3 {
				break
			}
		}
		if tried == 0 {
			t.Errorf("%s: no healthy source it applies to", c.name)
		}
	}
}

func checkCorruption(t *testing.T, c corruption, src string, orig, bad, want []byte) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "projects", filepath.Base(filepath.Dir(src)))
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(proj, filepath.Base(src))
	if err := os.WriteFile(p, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	base := planPaths(t, c.unsafe, p)
	for _, f := range base.Files {
		if len(f.Edits) > 0 {
			t.Skipf("the healthy source already plans edits: %v", f.Edits)
		}
	}
	if err := os.WriteFile(p, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	res := planPaths(t, c.unsafe, p)
	if len(res.Files) != 1 {
		t.Fatalf("want findings on one file, got %d", len(res.Files))
	}
	f := res.Files[0]
	var targeted []string
	later := false
	for _, st := range f.Later {
		if st.Fix.Rule == c.rule {
			later = true
		}
	}
	for _, fx := range f.Fixes {
		if fx.Rule == c.rule {
			targeted = append(targeted, fmt.Sprintf("%s %s", fx.Safety, fx.Message))
			if c.manual && fx.Fixable() {
				t.Errorf("%s planned an edit: %+v", c.rule, fx)
			}
			if !c.manual && !fx.Fixable() && !later && f.Findings[fx.Finding].Severity > finding.Note {
				// (a note needs no fix: today's reader loses nothing there)
				t.Errorf("%s has no fix: %s", c.rule, fx.Message)
			}
			if c.unsafe && fx.Fixable() && fx.Safety != rules.FixUnsafe {
				t.Errorf("%s fix is %s, want unsafe", c.rule, fx.Safety)
			}
		}
	}
	if len(targeted) == 0 {
		t.Fatalf("no %s finding on the damaged file", c.rule)
	}
	if f.Err != nil && c.mayRefuse && strings.Contains(f.Err.Error(), "would no longer reach") {
		t.Logf("refused, nothing written: %v", f.Err)
		return
	}
	if f.Err != nil {
		t.Fatalf("plan failed: %v (%v)", f.Err, targeted)
	}
	if c.manual && len(f.Edits) == 0 {
		return
	}
	bdir := filepath.Join(t.TempDir(), "backups")
	run := writeAll(t, res, bdir)
	got, _ := os.ReadFile(p)
	provenance(t, bad, got, f.Edits)
	confined(t, bad, got, f.Edits, append([]string{"parentUuid", "sourceToolAssistantUUID"}, c.fields...)...)
	if c.manual {
		want = nil // other findings were fixed; this one stays
	}
	if want != nil && !bytes.Equal(got, want) {
		t.Fatalf("fixed bytes differ from the original (%d vs %d bytes)\nedits %v", len(got), len(want), f.Edits)
	}
	for _, x := range res.Final {
		if !c.manual && x.Rule == c.rule && x.Severity >= 2 {
			t.Errorf("%s finding remains: %s", c.rule, x.Message)
		}
	}
	again := planPaths(t, c.unsafe, p)
	for _, g := range again.Files {
		for _, fx := range g.Fixes {
			if fx.Fixable() && (fx.Safety == rules.FixSafe || c.unsafe) {
				t.Errorf("second plan not empty: %+v", fx)
			}
		}
	}
	if _, err := (&store.Store{Dir: bdir}).Undo(run.ID()); err != nil {
		t.Fatal(err)
	}
	back, _ := os.ReadFile(p)
	if !bytes.Equal(back, bad) {
		t.Fatal("undo did not restore the damaged bytes")
	}
}

func insertAtUserText(ls []lineRec, esc string) ([]byte, []byte, bool) {
	for k := range ls {
		if i := userTextAt(ls[k]); i >= 0 {
			out := append([]lineRec(nil), ls...)
			r := append([]byte{}, ls[k].raw[:i]...)
			r = append(r, esc...)
			out[k].raw = append(r, ls[k].raw[i:]...)
			return join(out), nil, true
		}
	}
	return nil, nil, false
}
