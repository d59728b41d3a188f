//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// Hostile input: every case goes through Main with the JSON report and must
// end with exit 0 or 1 (runJSON fails the test on 2 and on 3, which is what
// Main returns when it recovers a panic).
// The file is unix-only: it needs FIFOs, symbolic links and permissions.

const hostileSession = "0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e77"

// userLine is a healthy user entry; parent "" means the first of its chain.
func userLine(uuid, parent, text string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"parentUuid":` + p + `,"isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"` +
		hostileSession + `","version":"2.1.39","gitBranch":"main","type":"user","message":{"role":"user","content":` +
		text + `},"uuid":"` + uuid + `","timestamp":"2026-01-05T10:00:00.000Z"}`
}

func nthUUID(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

// chain is n healthy user entries, each the child of the one before.
func chain(n int, eol string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		parent := ""
		if i > 1 {
			parent = nthUUID(i - 1)
		}
		b.WriteString(userLine(nthUUID(i), parent, `"line `+fmt.Sprint(i)+`"`))
		b.WriteString(eol)
	}
	return b.String()
}

// TestHostileHugeLine: a single 100 MB line is read, reported by oversized,
// and does not allocate out of proportion.
//
// The bound (TotalAlloc during the run, 8x the line) is generous on
// purpose: the reader doubles its buffer (about 2.6x the line in all), the
// JSON decoder in jsontree.Decode copies the line into a buffer of its own that
// also grows by doubling (about 2-3x), and the decoded string is one more
// copy. Measured at 6.5x with Go 1.26; 8.9x before the reader doubled its
// buffer (append grows by 1.25x only). 8x still catches a per-rule copy.
func TestHostileHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 100 MB file")
	}
	isolate(t)
	dir := t.TempDir()
	const size = 100_000_000 // 100 MB, under oversized's 100 MiB file limit
	p := filepath.Join(dir, hostileSession+".jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	head := userLine(nthUUID(1), "", `"`+"PLACEHOLDER"+`"`)
	pre, post, _ := strings.Cut(head, "PLACEHOLDER")
	fill := bytes.Repeat([]byte("lorem ipsum "), 1<<16)
	w := bufio.NewWriter(f)
	// bufio.Writer keeps its first error and Flush returns it.
	_, _ = w.WriteString(pre)
	for n := len(pre) + len(post); n < size; n += len(fill) {
		_, _ = w.Write(fill[:min(len(fill), size-n)])
	}
	_, _ = w.WriteString(post + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, _, code := runJSON(t, p)
	runtime.ReadMemStats(&after)

	if got := rulesOf(out); got["oversized"] != 1 || len(out.Findings) != 1 {
		t.Errorf("want exactly one oversized finding, got %+v", out.Findings)
	}
	if code != ExitOK {
		t.Errorf("exit %d, want %d (oversized is a warning)", code, ExitOK)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	ratio := float64(alloc) / float64(st.Size())
	t.Logf("line of %d MB: %.0f MB allocated (%.1fx), %d mallocs", st.Size()>>20, float64(alloc)/(1<<20), ratio, after.Mallocs-before.Mallocs)
	if ratio > 8 {
		t.Errorf("a %d MB line allocated %.1fx its size", st.Size()>>20, ratio)
	}
}

func TestHostileRandomBytes(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	writeFile(t, filepath.Join(dir, "random.jsonl"), data)
	out, _, code := runJSON(t, dir)
	got := rulesOf(out)
	if code != ExitFindings || got["invalid-utf8"]+got["nul-bytes"]+got["invalid-json"] == 0 {
		t.Fatalf("random bytes: exit %d, findings %v", code, got)
	}
}

func TestHostileNULBytes(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	lines := strings.SplitAfter(chain(3, "\n"), "\n")
	data := lines[0] + lines[1] + strings.Repeat("\x00", 4096) + lines[2]
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(data))
	out, _, code := runJSON(t, dir)
	if got := rulesOf(out); code != ExitFindings || got["nul-bytes"] != 1 {
		t.Fatalf("NUL run: exit %d, findings %+v", code, out.Findings)
	}
	for _, f := range out.Findings {
		if f.Rule == "nul-bytes" && f.Line != 3 {
			t.Errorf("nul-bytes on line %d, want 3", f.Line)
		}
	}
}

func TestHostileInvalidUTF8(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := userLine(nthUUID(1), "", "\"caf\xe9 \xff\xfe\"") + "\n"
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(data))
	out, _, code := runJSON(t, dir)
	if got := rulesOf(out); code != ExitFindings || got["invalid-utf8"] != 1 {
		t.Fatalf("invalid UTF-8: exit %d, findings %+v", code, out.Findings)
	}
}

// TestHostileCRLF: Claude Code never writes "\r\n", but an export through a
// Windows editor does. JSON allows "\r" as white space after the value and
// Claude Code's reader trims it, so ccvet treats such a file as healthy.
func TestHostileCRLF(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(chain(5, "\r\n")))
	out, _, code := runJSON(t, dir)
	if code != ExitOK || len(out.Findings) != 0 || out.Summary["entries"] != 5 {
		t.Fatalf("CRLF: exit %d, summary %v, findings %+v", code, out.Summary, out.Findings)
	}
}

// TestHostileBOM: a UTF-8 byte order mark before the first line is read
// past, as the reader of Claude Code reads the line after it (2.1.330,
// 2.1.332): one byte-order-mark warning, no invalid-json, no orphan-parent
// for the entry below it, and resume keeps line 1's prompt.
func TestHostileBOM(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, "projects", "-h", hostileSession+".jsonl"), []byte("\xef\xbb\xbf"+chain(3, "\n")))
	out, _, code := runJSON(t, dir)
	if code != ExitOK || out.Summary["entries"] != 3 {
		t.Fatalf("BOM: exit %d, summary %v, findings %+v", code, out.Summary, out.Findings)
	}
	got := rulesOf(out)
	delete(got, "project-dir-mismatch") // the folder is not the one its cwd encodes
	if got["byte-order-mark"] != 1 || len(got) != 1 {
		t.Fatalf("BOM: want one byte-order-mark finding only, got %v", got)
	}
	for _, f := range out.Findings {
		if f.Rule == "byte-order-mark" && (f.Severity != "warning" || f.Line != 1 || !strings.Contains(f.Message, "json.loads")) {
			t.Errorf("BOM finding: %+v", f)
		}
	}
	var stdout, stderr bytes.Buffer
	if c := Main([]string{"resume", "--format", "json", p}, strings.NewReader(""), &stdout, &stderr); c != ExitOK {
		t.Fatalf("resume: exit %d: %s", c, stderr.String())
	}
	var doc struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || len(doc.Messages) == 0 ||
		len(doc.Messages[0].Content) == 0 || doc.Messages[0].Content[0].Text != "line 1" {
		t.Fatalf("resume does not keep line 1's prompt: %v %s", err, stdout.String())
	}
}

func TestHostileEmptyFile(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), nil)
	out, _, code := runJSON(t, dir)
	if code != ExitOK || len(out.Findings) != 0 || out.Summary["files"] != 1 {
		t.Fatalf("empty file: exit %d, summary %v, findings %+v", code, out.Summary, out.Findings)
	}
}

// TestHostileGrowingFile appends lines while ccvet reads the file: no crash,
// and what was complete is checked. Only the last line read may be cut (an
// append caught half-way).
func TestHostileGrowingFile(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(chain(20000, "\n")))
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			done <- 0
			return
		}
		defer f.Close()
		// Bounded and paced so that the reader reaches the end of the file.
		n := 20000
		for n < 40000 {
			select {
			case <-stop:
				done <- n
				return
			default:
			}
			for i := 0; i < 20; i++ {
				n++
				if _, err := f.WriteString(userLine(nthUUID(n), nthUUID(n-1), `"appended"`) + "\n"); err != nil {
					done <- n
					return
				}
			}
			time.Sleep(time.Millisecond)
		}
		<-stop
		done <- n
	}()
	out, _, code := runJSON(t, p)
	close(stop)
	appended := <-done
	t.Logf("%d lines appended during the run; ccvet read %d entries", appended-20000, out.Summary["entries"])
	if out.Summary["entries"] < 20000 {
		t.Errorf("read %d entries, want at least the 20000 present at the start", out.Summary["entries"])
	}
	last := out.Summary["entries"] + 1
	for _, f := range out.Findings {
		switch {
		case (f.Rule == "truncated-line" || f.Rule == "missing-final-newline") && f.Line >= last-1:
		default:
			t.Errorf("unexpected finding %+v", f)
		}
	}
	if code > ExitFindings {
		t.Errorf("exit %d", code)
	}
}

func TestHostileSymlinkLoops(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(chain(2, "\n")))
	for old, name := range map[string]string{".": "a", "c": "b", "b": "c", hostileSession + ".jsonl": "link.jsonl"} {
		if err := os.Symlink(old, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	var out jsonOut
	var code int
	go func() {
		defer close(done)
		out, _, code = runJSON(t, dir)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ccvet did not finish on a tree with link loops")
	}
	// The file link is checked like the file itself; it is a second copy of
	// the same session, which the rules may report: only loops matter here.
	if code > ExitFindings || out.Summary["files"] != 2 {
		t.Fatalf("link loops: exit %d, summary %v, findings %+v", code, out.Summary, out.Findings)
	}
}

// unreadableStore is a folder holding a transcript and a folder that
// cannot be read (mode 0); the test is skipped as root, who reads all.
func unreadableStore(t *testing.T) string {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("root reads everything")
	}
	isolate(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "locked", "inner.jsonl"), []byte(chain(1, "\n")))
	p := writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(chain(1, "\n")))
	for _, q := range []string{p, filepath.Join(dir, "locked")} {
		if err := os.Chmod(q, 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	return dir
}

func TestHostileUnreadable(t *testing.T) {
	dir := unreadableStore(t)
	out, _, code := runJSON(t, dir)
	if got := rulesOf(out); code != ExitFindings || got["unreadable"] != 2 {
		t.Fatalf("unreadable: exit %d, findings %+v", code, out.Findings)
	}
}

func TestHostileFIFO(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(chain(2, "\n")))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.jsonl"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	var out jsonOut
	var code int
	go func() {
		defer close(done)
		out, _, code = runJSON(t, dir)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ccvet blocks on a FIFO")
	}
	if code != ExitOK || out.Summary["files"] != 1 || out.Summary["skipped"] != 1 {
		t.Fatalf("FIFO: exit %d, summary %v, findings %+v", code, out.Summary, out.Findings)
	}
}

// TestHostileDeepNesting: 100k nested arrays. Go's decoder stops at depth
// 10000 with an error, which ccvet reports as invalid-json (Claude Code's
// JSON.parse would overflow its stack on such a line too).
func TestHostileDeepNesting(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	deep := strings.Repeat("[", 100000)
	closed := deep + strings.Repeat("]", 100000)
	data := deep + "\n" + userLine(nthUUID(1), "", closed) + "\n"
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(data))
	out, _, code := runJSON(t, dir)
	bad, deepOK := map[int]bool{}, map[int]bool{}
	for _, f := range out.Findings {
		switch {
		case f.Rule == "invalid-json":
			bad[f.Line] = true
		case f.Rule == "oversized" && f.Severity == "warning" && strings.Contains(f.Message, "more than 10000 deep"):
			deepOK[f.Line] = true
		}
	}
	// Line 1 never closes: not JSON. Line 2 is JSON (Node's JSON.parse
	// reads it) nested deeper than ccvet reads: oversized, not invalid.
	if code != ExitFindings || !bad[1] || bad[2] || !deepOK[2] {
		t.Fatalf("deep nesting: exit %d, findings %+v", code, out.Findings)
	}
}

// TestHostileDeepLastLine: a line nested deeper than ccvet reads, last in
// its file and without a newline, is JSON whose newline is missing (not a
// truncated line), and resume says the reader reads it.
func TestHostileDeepLastLine(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	data := userLine(nthUUID(1), "", `"first"`) + "\n" + userLine(nthUUID(2), nthUUID(1), deep)
	p := filepath.Join(dir, hostileSession+".jsonl")
	writeFile(t, p, []byte(data))
	out, _, _ := runJSON(t, dir)
	got := map[string]bool{}
	for _, f := range out.Findings {
		if f.Line == 2 {
			got[f.Rule] = true
		}
	}
	if !got["oversized"] || !got["missing-final-newline"] || got["truncated-line"] || got["invalid-json"] {
		t.Fatalf("deep last line: findings %+v", out.Findings)
	}
	stdout, _, code := run(t, "", "resume", p)
	if code != ExitOK || !strings.Contains(stdout, "more than 10000 deep") || strings.Contains(stdout, "cut off") {
		t.Fatalf("resume: exit %d\n%s", code, stdout)
	}
	// fix appends the newline; it never deletes the line as torn.
	if stdout, stderr, code := run(t, "", "fix", "--write", "--force", dir); code != ExitOK {
		t.Fatalf("fix --write: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != data+"\n" {
		t.Fatalf("after fix: %d bytes (%v), want the %d bytes and a newline", len(b), err, len(data))
	}
}

// TestHostileManyUnknownMembers: a line of 200,000 unknown members, and one
// of an array of 50,000 items with one each, under --strict and stats: the
// fast check lists them in one walk of the line (and the schema's echoes
// are found by sorting, not pair by pair), so both end, as a lint of the
// same bytes does.
func TestHostileManyUnknownMembers(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var root, items strings.Builder
	for k := range 200_000 {
		fmt.Fprintf(&root, `,"zz%d":%d`, k, k)
	}
	for k := range 50_000 {
		if k > 0 {
			items.WriteByte(',')
		}
		fmt.Fprintf(&items, `{"type":"text","text":"t","zz":%d}`, k)
	}
	first := userLine(nthUUID(1), "", `"hi"`)
	first = first[:len(first)-1] + root.String() + "}"
	second := `{"parentUuid":"` + nthUUID(1) + `","isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"` + hostileSession +
		`","version":"2.1.39","gitBranch":"main","type":"assistant","message":{"model":"claude-opus-4-5-20251101","id":"msg_01","type":"message","role":"assistant","content":[` +
		items.String() + `],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}},"uuid":"` + nthUUID(2) + `","timestamp":"2026-01-05T10:00:01.000Z"}`
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(first+"\n"+second+"\n"))
	out, _, _ := runJSON(t, "--strict", dir)
	n := map[int]int{}
	for _, f := range out.Findings {
		if f.Rule == "unknown-field" {
			n[f.Line]++
		}
	}
	if n[1] != 101 || n[2] != 101 { // 100 each, and one that counts the rest
		t.Fatalf("unknown-field findings by line: %v", n)
	}
	stdout, stderr, code := run(t, "", "stats", "--format", "json", dir)
	if code != 0 || !strings.Contains(stdout, `"/message/content/*/zz"`) || !strings.Contains(stdout, `"/zz199999"`) {
		t.Fatalf("stats: exit %d: %.300s %s", code, stdout, stderr)
	}
}

// TestHostileEscapes: terminal control sequences inside transcript values
// never reach the text output raw, and JSON and SARIF stay valid JSON.
func TestHostileEscapes(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	evil := `\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202e`
	lines := []string{
		// a bad timestamp and an unknown type, both quoted in messages
		strings.Replace(userLine(nthUUID(1), "", `"`+evil+`"`), `"2026-01-05T10:00:00.000Z"`, `"`+evil+`"`, 1),
		strings.Replace(userLine(nthUUID(2), nthUUID(1), `"x"`), `"type":"user"`, `"type":"`+evil+`"`, 1),
		// raw control bytes: not valid JSON, quoted in the error
		"{\"type\":\"\x1b[31m\x07\"}",
	}
	writeFile(t, filepath.Join(dir, "e\x1b[1mvil.jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	text, _, code := run(t, "", "--color", "never", "--enable", "unknown-field", dir)
	if code != ExitFindings || !strings.Contains(text, "error") {
		t.Fatalf("text: exit %d\n%s", code, text)
	}
	if strings.ContainsAny(text, "\x1b\x07\u009b\u202e") {
		t.Fatalf("raw control characters in text output: %q", text)
	}
	for _, format := range []string{"json", "sarif"} {
		out, _, code := run(t, "", "-f", format, "--enable", "unknown-field", dir)
		if code != ExitFindings || !json.Valid([]byte(out)) {
			t.Fatalf("%s: exit %d, valid JSON %v\n%s", format, code, json.Valid([]byte(out)), out)
		}
	}
}

// TestShownPromptsMaskSecrets: the pieces of a transcript that resume and
// sessions show (a message's text, a session's first prompt and label, a
// lost session's first prompt in history.jsonl) never print a key.
func TestShownPromptsMaskSecrets(t *testing.T) {
	isolate(t)
	root := t.TempDir()
	key := secrettest.New(31).Generic()
	prompt := `"deploy with api_key = \"` + key + `\" please"`
	file := writeFile(t, filepath.Join(root, "projects", "-home-dev-app", hostileSession+".jsonl"),
		[]byte(userLine(nthUUID(1), "", prompt)+"\n"))
	writeFile(t, filepath.Join(root, "history.jsonl"), []byte(`{"display":"api_key = \"`+key+
		`\"","pastedContents":{},"timestamp":1735689600000,"project":"/gone","sessionId":"1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9"}`+"\n"))
	// (not resume's JSON: it is the conversation as sent, content and all)
	for _, args := range [][]string{{"resume", file}, {"sessions", root}, {"sessions", "-f", "json", root}} {
		out, errOut, _ := run(t, "", args...)
		if strings.Contains(out+errOut, key) {
			t.Errorf("ccvet %s prints the key", strings.Join(args[:len(args)-1], " "))
		}
	}
}

// TestSecretOnBrokenLine: a key on a line that does not parse (the torn
// last line a crash leaves) is a [secret] finding, as it is on a line that
// parses, and its snippet masks it.
func TestSecretOnBrokenLine(t *testing.T) {
	isolate(t)
	root := t.TempDir()
	key := secrettest.New(32).Generic()
	torn := userLine(nthUUID(2), nthUUID(1), `"use api_key = \"`+key+`\" now"`)
	torn = torn[:strings.Index(torn, `,"uuid"`)]
	file := writeFile(t, filepath.Join(root, "projects", "-home-dev-app", hostileSession+".jsonl"),
		[]byte(userLine(nthUUID(1), "", `"hello"`)+"\n"+torn))
	out, _, _ := runJSON(t, file)
	found := false
	for _, f := range out.Findings {
		if f.Rule == "secret" && f.Line == 2 {
			found = true
		}
	}
	if !found {
		t.Errorf("no secret finding on the torn line: %+v", out.Findings)
	}
	text, _, _ := run(t, "", file)
	if strings.Contains(text, key) {
		t.Error("the text report prints the key")
	}
}

// TestHostileLongCycle: a parentUuid loop of thousands of entries is one
// parent-cycle finding whose message lists the first ids of the loop and
// how many more, not every id (a loop of a million entries made a message,
// and a GitHub annotation line, of 40 MB).
func TestHostileLongCycle(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	const n = 5000
	data := strings.Replace(chain(n, "\n"), `"parentUuid":null`, `"parentUuid":"`+nthUUID(n)+`"`, 1)
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(data))
	out, _, _ := runJSON(t, dir)
	found := false
	for _, f := range out.Findings {
		if f.Rule != "parent-cycle" {
			continue
		}
		found = true
		if len(f.Message) > 2000 || !strings.Contains(f.Message, fmt.Sprintf("after %d entries", n)) ||
			!strings.Contains(f.Message, fmt.Sprintf("… %d more → %s)", n-10, nthUUID(1))) {
			t.Fatalf("parent-cycle message of %d bytes: %.600s", len(f.Message), f.Message)
		}
	}
	if !found {
		t.Fatalf("no parent-cycle finding: %+v", out.Summary)
	}
}

// TestHostileUntypedDuplicate: an entry whose type is not a string, then a
// later line reusing its uuid: duplicate-uuid names the earlier one
// "untyped", not "the  entry".
func TestHostileUntypedDuplicate(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	const id = "5ec7e700-0000-4000-8000-00000000d0b1"
	data := `{"type":7,"uuid":"` + id + `","parentUuid":null,"sessionId":"` + hostileSession + `","timestamp":"2026-01-01T00:00:00.000Z"}` + "\n" +
		`{"type":"user","uuid":"` + id + `","parentUuid":null,"sessionId":"` + hostileSession + `","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}` + "\n"
	writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(data))
	out, _, _ := runJSON(t, dir)
	found := false
	for _, f := range out.Findings {
		if f.Rule == "duplicate-uuid" {
			found = true
			if strings.Contains(f.Message, "the  entry") || !strings.Contains(f.Message, "the untyped entry on line 1") {
				t.Errorf("duplicate-uuid message: %s", f.Message)
			}
		}
	}
	if !found {
		t.Fatalf("no duplicate-uuid finding: %+v", out.Findings)
	}
}

// TestFixUnreadable: a transcript fix cannot read is a manual step of the
// plan, named with its reason, and the other files are still planned (the
// plan failed as a whole, exit 3, naming no other file).
func TestFixUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads everything")
	}
	isolate(t)
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, hostileSession+".jsonl"), []byte(chain(1, "\n")))
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "11111111-2222-4333-8444-555555555555.jsonl"), []byte(chain(2, "\n")+"\n"))
	stdout, stderr, code := run(t, "", "fix", dir)
	if code != ExitFindings || stderr != "" ||
		!strings.Contains(stdout, hostileSession+".jsonl:0: [manual] unreadable: the file cannot be read: open: permission denied") ||
		!strings.Contains(stdout, "[safe] blank-line") {
		t.Fatalf("fix: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestStatsUnreadable: a transcript or folder stats cannot read is named
// on standard error (it was counted as a file of no entries, in silence),
// and -q drops the note.
func TestStatsUnreadable(t *testing.T) {
	dir := unreadableStore(t)
	_, stderr, code := run(t, "", "stats", dir)
	if code != 0 || strings.Count(stderr, ": skipped: cannot read") != 2 ||
		!strings.Contains(stderr, hostileSession+".jsonl: skipped: cannot read") {
		t.Fatalf("stats: exit %d, stderr:\n%s", code, stderr)
	}
	if _, stderr, _ := run(t, "", "stats", "-q", dir); stderr != "" {
		t.Fatalf("stats -q printed notes:\n%s", stderr)
	}
}
