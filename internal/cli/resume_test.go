package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/ccvet/ccvet/internal/resume"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func runResume(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(append([]string{"resume"}, args...), strings.NewReader(""), &stdout, &stderr)
	if code == ExitInternal {
		t.Fatalf("ccvet resume %v: %s", args, stderr.String())
	}
	return stdout.String() + stderr.String(), code
}

func TestResumeJSON(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	path := filepath.Join("..", "..", "testdata", "rules", "unmatched-tool-use", "good-flushed-early", "projects", "-src-demo",
		"5b0e2c8a-1f3d-4c6e-9a7b-2d4f6e8a0c1e.jsonl")
	out, code := runResume(t, "--format", "json", path)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, out)
	}
	var doc struct {
		ReaderVersion string `json:"reader_version"`
		Leaf          *struct {
			Line int    `json:"line"`
			UUID string `json:"uuid"`
		} `json:"leaf"`
		Messages []struct {
			Role    string           `json:"role"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
		LeftOut []any `json:"left_out"`
		Changed []any `json:"changed"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	var got []string
	for _, m := range doc.Messages {
		var bs []string
		for _, b := range m.Content {
			s, _ := b["type"].(string)
			if id, ok := b["id"].(string); ok {
				s += ":" + id
			}
			if id, ok := b["tool_use_id"].(string); ok {
				s += ":" + id
			}
			bs = append(bs, s)
		}
		got = append(got, m.Role+"["+strings.Join(bs, ",")+"]")
	}
	want := "user[text] assistant[tool_use:toolu_01AbCdEf,tool_use:call_00_k3LmQ9] " +
		"user[tool_result:call_00_k3LmQ9,tool_result:toolu_01AbCdEf] assistant[text]"
	if strings.Join(got, " ") != want {
		t.Errorf("messages:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if doc.ReaderVersion != resume.Newest.String() || doc.Leaf == nil || doc.Leaf.Line != 6 || doc.LeftOut == nil || doc.Changed == nil {
		t.Errorf("reader %q leaf %+v left_out %v changed %v", doc.ReaderVersion, doc.Leaf, doc.LeftOut, doc.Changed)
	}
}

func TestResumeTextFailsOnSidechainLeaf(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	path := filepath.Join("..", "..", "testdata", "rules", "sidechain-leaf", "bad", "projects", "-src-demo",
		"5b0e2c8a-1f3d-4c6e-9a7b-2d4f6e8a0c1e.jsonl")
	out, _ := runResume(t, path)
	if !strings.Contains(out, "The resume fails: No conversation found with session ID") {
		t.Errorf("2.1.330 output:\n%s", out)
	}
	out, _ = runResume(t, "--reader-version", "2.1.110", path)
	if !strings.Contains(out, "The resume fails: No conversation found with session ID") {
		t.Errorf("2.1.110 output:\n%s", out)
	}
	if _, code := runResume(t, "--reader-version", "two", path); code != ExitUsage {
		t.Errorf("bad --reader-version: exit %d, want %d", code, ExitUsage)
	}
}

func TestResumeNamesTheFileHoldingAMissingParent(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	old := `{"parentUuid":null,"type":"user","uuid":"u1","timestamp":"2025-01-01T10:00:00.000Z","isSidechain":false,"message":{"role":"user","content":"hi"},"version":"1.0.100"}` + "\n"
	cur := `{"parentUuid":"u1","type":"assistant","uuid":"a1","timestamp":"2025-01-01T11:00:00.000Z","isSidechain":false,"message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hello"}]},"version":"1.0.100"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "old.jsonl"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "cur.jsonl")
	if err := os.WriteFile(p, []byte(cur), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := runResume(t, p)
	if !strings.Contains(out, "the parent is in old.jsonl (line 1), which the reader does not load") {
		t.Errorf("output:\n%s", out)
	}
}

// TestReaderVersionNotice: a --reader-version outside the versions the
// resume model was measured on gets one line on standard error saying which
// measured reader stands for it, in resume and in lint (not with -q); one
// inside gets none.
func TestReaderVersionNotice(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := filepath.Join(fixtures, "nul-bytes", "bad")
	file := filepath.Join(dir, "session.jsonl")
	newer := "ccvet: --reader-version 9.9.9: Claude Code 9.9.9 is newer than the readers ccvet's model was measured on (2.1.110 to 2.1.332): it is modelled as 2.1.332\n"
	older := "ccvet: --reader-version 1.0.0: Claude Code 1.0.0 is older than the readers ccvet's model was measured on (2.1.110 to 2.1.332): it is modelled as 2.1.110, without the 5 s bridge that 2.1.94 added; on ccvet's 46 hand-written sessions, the oldest reader measured, 1.0.25, sent what that predicts for 26 (docs/resume.md says where they differ); before 1.0.30 a tool call the file ends on is sent without a result, which the API refuses (unmatched-tool-use says so, ccvet resume does not)\n"
	older101 := "ccvet: --reader-version 2.1.101: Claude Code 2.1.101 is older than the readers ccvet's model was measured on (2.1.110 to 2.1.332): it is modelled as 2.1.110; on ccvet's 46 hand-written sessions, 2.1.101 sent what that predicts for all of them (docs/resume.md says where they differ)\n"
	older100 := "ccvet: --reader-version 2.1.100: Claude Code 2.1.100 is older than the readers ccvet's model was measured on (2.1.110 to 2.1.332): it is modelled as 2.1.110; on ccvet's 46 hand-written sessions, the nearest readers measured, 2.1.94 and 2.1.101, sent what that predicts for 40 and all of them (docs/resume.md says where they differ)\n"
	older105 := "ccvet: --reader-version 2.1.105: Claude Code 2.1.105 is older than the readers ccvet's model was measured on (2.1.110 to 2.1.332): it is modelled as 2.1.110; on ccvet's 46 hand-written sessions, the nearest older reader measured, 2.1.101, sent what that predicts for all of them (docs/resume.md says where they differ)\n"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"resume", "--reader-version", "9.9.9", file}, newer},
		{[]string{"resume", "--reader-version", "1.0.0", file}, older},
		{[]string{"resume", "--reader-version", "2.1.101", file}, older101},
		{[]string{"resume", "--reader-version", "2.1.100", file}, older100},
		{[]string{"resume", "--reader-version", "2.1.105", file}, older105},
		{[]string{"resume", "--reader-version", "2.1.200", file}, ""},
		{[]string{"resume", "--reader-version", "2.1.330", file}, ""},
		{[]string{"resume", "--reader-version", "2.1.332", file}, ""},
		{[]string{"--reader-version", "9.9.9", "--no-snippet", dir}, newer},
		{[]string{"-q", "--reader-version", "9.9.9", dir}, ""},
		{[]string{"--reader-version", "2.1.110", dir}, ""},
	} {
		_, stderr, code := run(t, "", c.args...)
		if code == ExitUsage || code == ExitInternal {
			t.Errorf("%v: exit %d: %s", c.args, code, stderr)
		}
		if got := noticeLines(stderr); got != c.want {
			t.Errorf("%v: stderr notice %q, want %q", c.args, got, c.want)
		}
	}
}

func noticeLines(stderr string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if strings.HasPrefix(l, "ccvet: --reader-version") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// TestResumeRootNoLinkedFolder: a session id under --root is looked up in
// the real project folders only: a project folder that is a symbolic link
// (it may lead out of the root) is not read, as `ccvet sessions` does not
// read it. Nor is the session said to have no transcript (Claude Code may
// read it): a usage error names the link, for --check too.
func TestResumeRootNoLinkedFolder(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	const id = "dab5506f-e535-403f-9a60-49f21a42571a"
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "store", "projects", "-home-jenkins-Personal-AI-Infrastructure", id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	outside, root := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, id+".jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "projects"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "projects", "-home-jenkins")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	for _, args := range [][]string{{"--root", root, id}, {"--check", "--root", root, id}, {"--check", "--format", "json", "--root", root, id}} {
		if out, code := runResume(t, args...); code != ExitUsage || !strings.Contains(out, "which ccvet does not follow under --root") || strings.Contains(out, "sends") {
			t.Errorf("resume %v: exit %d: want 2, the link named and not followed\n%s", args, code, out)
		}
	}
}

// TestResumeTextMasksEveryString: the text masks a key wherever the
// session put it, as the JSON does, not only in text blocks: a tool's name
// or id, and the reasons of --check that quote an id.
func TestResumeTextMasksEveryString(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	g := secrettest.New(31)
	key, tok := g.Anthropic(), g.GitHub()
	const sid = "5e551011-0000-4000-8000-000000000001"
	line := func(uuid, parent, typ string, content any) string {
		var p any
		if parent != "" {
			p = parent
		}
		m := map[string]any{"role": typ, "content": content}
		if typ == "assistant" {
			m = map[string]any{"id": "msg_1", "type": "message", "role": typ, "model": "claude-x", "content": content}
		}
		b, err := json.Marshal(map[string]any{"parentUuid": p, "isSidechain": false, "type": typ, "sessionId": sid,
			"version": "2.1.330", "cwd": "/w", "uuid": uuid, "timestamp": "2026-11-20T10:00:0" + uuid[len(uuid)-1:] + ".000Z", "message": m})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	u := func(n int) string { return "5e551011-0000-4000-8000-00000000010" + string(rune('0'+n)) }
	data := line(u(1), "", "user", "run it") +
		line(u(2), u(1), "assistant", []any{map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Bash " + key + " x", "input": map[string]any{}}}) +
		line(u(3), u(2), "user", []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_01", "content": "ok"},
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_02 " + tok + " x", "content": "stray"}}) +
		line(u(4), u(3), "assistant", []any{map[string]any{"type": "text", "text": "done"}})
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	// The JSON keeps a tool_use_id as it is (the secret rule does not
	// search id fields), and masks the name.
	for _, args := range [][]string{{path}, {"--check", path}, {"--format", "json", path}} {
		out, _ := runResume(t, args...)
		if strings.Contains(out, key) || (args[0] != "--format" && strings.Contains(out, tok)) {
			t.Errorf("resume %v prints a key in clear:\n%s", args, out)
		}
	}
	if out, _ := runResume(t, path); !strings.Contains(out, "Bash ****") {
		t.Errorf("resume: want the tool's name with its key masked:\n%s", out)
	}
}

// TestResumeRequestReadToSizeAtOpen: resume and request read a transcript
// up to the size it had when opened, so that a writer appending to it (a
// live session, a runaway process faster than the reader) cannot keep them
// reading forever.
func TestResumeRequestReadToSizeAtOpen(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	src, err := os.ReadFile(filepath.Join(fixtures, "ledger-dangling-tail", "good", ledgerSession))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ledgerSession)
	// What a writer appends once the file is open: a line that does not
	// parse (a loss for resume --check) and an api-request that would be
	// the last one named.
	extra := "{not json\n" + `{"type":"assistant","uuid":"1d000000-0000-4000-8000-0000000000ff","requestRef":"69f300fe-ba90-41eb-908b-9644eb9ec0ff","message":{"role":"assistant","content":[]}}` + "\n"
	testAfterOpen = func(p string) {
		if p != path {
			return
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(extra); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { testAfterOpen = func(string) {} }()
	for _, args := range [][]string{{"resume", "--check", path}, {"request", path}} {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := run(t, "", args...)
		if code != ExitOK {
			t.Errorf("%v: exit %d, want 0 (the lines appended after the open not read)\n%s%s", args, code, out, errOut)
		}
	}
}

// TestResumeSearchesABigSiblingInPieces: the transcript beside the one
// resumed that holds a missing parent is searched a piece at a time, not
// read whole into memory (a sibling may be hundreds of MB), and the line
// it names is still right.
func TestResumeSearchesABigSiblingInPieces(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	filler := `{"type":"progress","data":"` + strings.Repeat("x", 1000) + `"}` + "\n"
	const n = 40 << 10 // 40 MiB of lines before the parent
	var b strings.Builder
	b.Grow(n*len(filler) + 512)
	for range n {
		b.WriteString(filler)
	}
	b.WriteString(`{"parentUuid":null,"type":"user","uuid":"u1","timestamp":"2025-01-01T10:00:00.000Z","isSidechain":false,"message":{"role":"user","content":"hi"},"version":"1.0.100"}` + "\n")
	if err := os.WriteFile(filepath.Join(dir, "old.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b = strings.Builder{}
	cur := `{"parentUuid":"u1","type":"assistant","uuid":"a1","timestamp":"2025-01-01T11:00:00.000Z","isSidechain":false,"message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hello"}]},"version":"1.0.100"}` + "\n"
	p := filepath.Join(dir, "cur.jsonl")
	if err := os.WriteFile(p, []byte(cur), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, _ := runResume(t, p)
	runtime.ReadMemStats(&after)
	want := fmt.Sprintf("the parent is in old.jsonl (line %d), which the reader does not load", n+1)
	if !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("resume allocated %d MiB to search a 40 MiB sibling: want it read in pieces", got>>20)
	}
}

// TestFirstLines: a needle is found at its first occurrence, whatever the
// piece size, also across the boundary between two pieces.
func TestFirstLines(t *testing.T) {
	data := "a\nbb\n\"uuid\":\"x\"\nccc\n\"uuid\":\"yy\"\n\"uuid\":\"x\"\n"
	needles := [][]byte{[]byte(`"uuid":"x"`), []byte(`"uuid":"yy"`), []byte(`"uuid":"z"`), []byte("a")}
	for size := 1; size <= len(data)+1; size++ {
		got := firstLines(strings.NewReader(data), needles, size)
		if fmt.Sprint(got) != "[3 5 0 1]" {
			t.Errorf("piece size %d: lines %v, want [3 5 0 1]", size, got)
		}
	}
}

// TestResumeFileRewritten: a transcript rewritten (not appended to) after
// resume read it, before it reads again the lines its messages need, is
// read again from the start; rewritten at every attempt, it is a usage
// error that says so (exit 2), never a half-old answer or an internal
// failure.
func TestResumeFileRewritten(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	src, err := os.ReadFile(filepath.Join(fixtures, "ledger-dangling-tail", "good", ledgerSession))
	if err != nil {
		t.Fatal(err)
	}
	// Another session's bytes: every text one character longer.
	other := []byte(strings.ReplaceAll(string(src), `"text":"`, `"text":"!`))
	if len(other) == len(src) {
		t.Fatal("the fixture has no text to change")
	}
	path := filepath.Join(t.TempDir(), ledgerSession)
	defer func() { testAfterLoad = func(string) {} }()
	for _, every := range []bool{false, true} {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		loads := 0
		testAfterLoad = func(p string) {
			if p != path || (loads > 0 && !every) {
				return
			}
			loads++
			// Rewritten in place, flipping between the two contents.
			data := other
			if loads%2 == 0 {
				data = src
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, errOut, code := run(t, "", "resume", "--check", "--format", "json", path)
		if loads == 0 {
			t.Fatal("the file was not rewritten")
		}
		switch {
		case !every && (code != ExitOK || !strings.Contains(out, `"status": "resumes"`)):
			t.Errorf("rewritten once: exit %d\n%s%s", code, out, errOut)
		case every && (code != ExitUsage || !strings.Contains(errOut, "rewritten while ccvet read it, 3 times")):
			t.Errorf("rewritten at every attempt: exit %d\n%s%s", code, out, errOut)
		}
	}
}
