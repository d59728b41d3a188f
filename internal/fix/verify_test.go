package fix

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
)

// TestVerifyMessageStable: when fixed bytes fail verification for several
// rules, the message names the same one every run (the first by name),
// not whichever a map gives first.
func TestVerifyMessageStable(t *testing.T) {
	f := &File{File: &layout.File{Path: "s.jsonl"}}
	var final []finding.Finding
	for _, rule := range []string{"unmatched-tool-use", "duplicate-tool-use-id", "orphan-parent", "parent-cycle"} {
		final = append(final, finding.Finding{Rule: rule, Severity: finding.Error, Path: "s.jsonl"})
	}
	for range 50 {
		err := verify(f, final)
		if err == nil || !strings.Contains(err.Error(), " duplicate-tool-use-id ") {
			t.Fatalf("verify: %v, want the duplicate-tool-use-id finding named", err)
		}
	}
}

// turns is a healthy main transcript of n user and assistant entries, each
// the parent of the next, a second apart.
func turns(n int) []string {
	const sid = "11111111-2222-4333-8444-555555555555"
	var out []string
	parent := "null"
	for i := 1; i <= n; i++ {
		uuid := fmt.Sprintf("aaaaaaaa-0000-4000-8000-%012d", i)
		msg := fmt.Sprintf(`{"role":"user","content":"prompt %d"}`, i)
		typ := "user"
		if i%2 == 0 {
			typ = "assistant"
			msg = fmt.Sprintf(`{"id":"msg_%d","type":"message","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"reply %d"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, i, i)
		}
		out = append(out, fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/h","sessionId":"%s","version":"2.1.100","gitBranch":"main","type":"%s","message":%s,"uuid":"%s","timestamp":"2025-01-01T00:00:%02d.000Z"}`,
			parent, sid, typ, msg, uuid, i))
		parent = `"` + uuid + `"`
	}
	return out
}

// TestFixLastLine: damage on the last line hides the last turn, so a resume
// starts one entry earlier; the safe fixes of two entries fused there and of
// a NUL run before the entry give the turn back, and the resume starts from
// it again: a conversation that grows back, which verification accepts (it
// refused it as a change of leaf, and with it the whole run).
func TestFixLastLine(t *testing.T) {
	isolate(t)
	ls := turns(6)
	healthy := strings.Join(ls, "\n") + "\n"
	head := strings.Join(ls[:4], "\n") + "\n"
	for name, bad := range map[string]string{
		"fused":   head + ls[4] + ls[5] + "\n",
		"nul-run": head + ls[4] + "\n" + strings.Repeat("\x00", 16) + ls[5] + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			proj := filepath.Join(t.TempDir(), "projects", "-h")
			if err := os.MkdirAll(proj, 0o755); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(proj, "11111111-2222-4333-8444-555555555555.jsonl")
			if err := os.WriteFile(p, []byte(bad), 0o600); err != nil {
				t.Fatal(err)
			}
			res := planPaths(t, false, p)
			if len(res.Files) != 1 {
				t.Fatalf("want one file planned, got %d", len(res.Files))
			}
			f := res.Files[0]
			if f.Err != nil {
				t.Fatalf("plan refused: %v", f.Err)
			}
			if string(f.New) != healthy {
				t.Fatalf("fixed bytes are not the healthy file:\n%q", f.New)
			}
		})
	}
}

// TestSameResumeOtherBranch: a fix that moves the leaf to an entry whose
// conversation does not go through the old leaf is still refused.
func TestSameResumeOtherBranch(t *testing.T) {
	ls := turns(4)
	old := []byte(strings.Join(ls, "\n") + "\n")
	// a fifth entry parented to the second: a resume would start there and
	// leave the third and fourth out
	fifth := strings.Replace(turns(5)[4], `"parentUuid":"aaaaaaaa-0000-4000-8000-000000000004"`,
		`"parentUuid":"aaaaaaaa-0000-4000-8000-000000000002"`, 1)
	nw := append(append([]byte{}, old...), fifth+"\n"...)
	lf := &layout.File{Path: "s.jsonl", Kind: layout.Transcript}
	if err := sameResume(old, nw, lf); err == nil {
		t.Fatal("a leaf on another branch was accepted")
	}
	grown := append(append([]byte{}, old...), turns(5)[4]+"\n"...)
	if err := sameResume(old, grown, lf); err != nil {
		t.Fatalf("a conversation grown by one turn was refused: %v", err)
	}
}

// TestVerifyInverseMultiEdit: the inverse check, made span by span
// without building the restored bytes, still fails a plan of several
// edits when one of them, or a byte between them, is wrong.
func TestVerifyInverseMultiEdit(t *testing.T) {
	isolate(t)
	ls := turns(8)
	var b strings.Builder
	for i, l := range ls {
		b.WriteString(l + "\n")
		switch i {
		case 1, 6:
			b.WriteString("\n") // three blank lines: three edits
		case 4:
			b.WriteString("  \n")
		}
	}
	bad := b.String()
	proj := filepath.Join(t.TempDir(), "projects", "-h")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(proj, "11111111-2222-4333-8444-555555555555.jsonl")
	if err := os.WriteFile(p, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	res := planPaths(t, false, p)
	if len(res.Files) != 1 || res.Files[0].Err != nil || len(res.Files[0].Edits) < 3 {
		t.Fatalf("want one file planned with 3 edits and verified: %+v", res.Files)
	}
	f := res.Files[0]
	if want := strings.Join(ls, "\n") + "\n"; string(f.New) != want {
		t.Fatalf("fixed bytes:\n%q\nwant\n%q", f.New, want)
	}
	if err := verify(f, res.Final); err != nil {
		t.Fatalf("verify of the plan itself: %v", err)
	}
	wrong := func(name string, g *File) {
		t.Helper()
		if err := verify(g, res.Final); err == nil || !strings.Contains(err.Error(), "inverse edits") {
			t.Errorf("%s: verify = %v, want the inverse edits refused", name, err)
		}
	}
	for i := range f.Edits {
		g := *f
		g.Edits = append([]edit.Edit(nil), f.Edits...)
		g.Edits[i].Length++ // deletes one more byte than the new bytes lack
		wrong(fmt.Sprintf("edit %d one byte longer", i), &g)
	}
	g := *f
	g.New = append([]byte(nil), f.New...)
	k := bytes.Index(g.New, []byte("prompt 5"))
	g.New[k+len("prompt ")] = '7' // a byte between the edits, in a message
	wrong("a byte between the edits", &g)
}

// TestFixCopyOfReusedUUID: an entry reuses an earlier, different entry's
// uuid, and a later line repeats it byte for byte. Without --unsafe, the
// safe fix deletes the earlier copy and leaves the other duplicate-uuid
// finding (its fix, a fresh uuid, is unsafe): verification counts the
// findings about that uuid instead of refusing the file because one is
// left (it refused it, exit 4 even without --write).
func TestFixCopyOfReusedUUID(t *testing.T) {
	isolate(t)
	ls := turns(3)
	other := strings.Replace(ls[2], "prompt 3", "prompt 3, edited", 1)
	other = strings.Replace(other, "000000000003", "000000000002", 1)
	other = strings.Replace(other, `"parentUuid":"aaaaaaaa-0000-4000-8000-000000000002"`, `"parentUuid":"aaaaaaaa-0000-4000-8000-000000000001"`, 1)
	bad := strings.Join([]string{ls[0], ls[1], other, other}, "\n") + "\n"
	proj := filepath.Join(t.TempDir(), "projects", "-h")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(proj, "11111111-2222-4333-8444-555555555555.jsonl")
	if err := os.WriteFile(p, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, unsafe := range []bool{false, true} {
		res := planPaths(t, unsafe, p)
		if len(res.Files) != 1 {
			t.Fatalf("unsafe %v: want one file planned, got %d", unsafe, len(res.Files))
		}
		f := res.Files[0]
		if f.Err != nil {
			t.Fatalf("unsafe %v: plan refused: %v", unsafe, f.Err)
		}
		if got := strings.Count(string(f.New), other); got != 1 && !unsafe {
			t.Fatalf("safe fixes left %d copies of the repeated line, want 1:\n%s", got, f.New)
		}
	}
}
