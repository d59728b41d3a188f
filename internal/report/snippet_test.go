package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// displayWidth counts columns as runeWidth does.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func TestSnippet(t *testing.T) {
	long := `{"a":"` + strings.Repeat("x", 200) + `","target":1,"b":"` + strings.Repeat("y", 200) + `"}`
	targetCol := strings.Index(long, `"target"`) + 1
	cases := []struct {
		name      string
		line      string
		col       int
		text      string
		caret     int
		ok        bool
		caretChar string // what the caret points at, if text is not given
	}{
		{name: "short line", line: `{"type":"user"}`, col: 9, text: `{"type":"user"}`, caret: 8, ok: true},
		{name: "first column", line: `abc`, col: 1, text: `abc`, caret: 0, ok: true},
		{name: "just past the end", line: `abc`, col: 4, text: `abc`, caret: 3, ok: true},
		{name: "past the end", line: `abc`, col: 5, ok: false},
		{name: "empty line", line: ``, col: 1, text: ``, caret: 0, ok: true},
		{name: "no column", line: `abc`, col: 0, ok: false},
		{name: "control characters escaped, caret after them", line: "\x1b[31m\tred", col: 7, text: `\x1b[31m\tred`, caret: 10, ok: true},
		{name: "invalid UTF-8", line: "caf\xe9 x", col: 6, text: `caf\xe9 x`, caret: 8, ok: true},
		{name: "bidi override", line: "a\u202eb", col: 3, text: `a\u202eb`, caret: 7, ok: true},
		{name: "Arabic letter mark", line: "a\u061cb", col: 3, text: `a\u061cb`, caret: 7, ok: true},
		{name: "line separator", line: "a\u2028b", col: 3, text: `a\u2028b`, caret: 7, ok: true},
		{name: "wide characters count two", line: "日本語 x", col: 5, text: "日本語 x", caret: 7, ok: true},
		{name: "combining mark counts zero", line: "e\u0301x", col: 3, text: "e\u0301x", caret: 1, ok: true},
		{name: "long line cut both sides", line: long, col: targetCol, caretChar: `"target"`, ok: true},
		{name: "long line, caret near the start", line: long, col: 3, caretChar: `a"`, ok: true},
		{name: "long line, caret at the end", line: long, col: utf8.RuneCountInString(long), caretChar: `}`, ok: true},
		{name: "NUL run", line: strings.Repeat("\x00", 64), col: 1, caretChar: `\x00`, ok: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, caret, ok := snippet([]byte(c.line), c.col, SnippetWidth)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if c.caretChar == "" && (text != c.text || caret != c.caret) {
				t.Errorf("got %q caret %d, want %q caret %d", text, caret, c.text, c.caret)
			}
			if w := displayWidth(text); w > SnippetWidth {
				t.Errorf("%d columns, more than %d: %q", w, SnippetWidth, text)
			}
			if strings.ContainsFunc(text, func(r rune) bool { return NeedsEscape(r) }) {
				t.Errorf("raw control character in %q", text)
			}
			if c.caretChar != "" {
				// The caret's column, in display width, starts the expected text.
				prefix := ""
				w := 0
				for _, r := range text {
					if w >= caret {
						break
					}
					prefix += string(r)
					w += runeWidth(r)
				}
				if w != caret || !strings.HasPrefix(text[len(prefix):], c.caretChar) {
					t.Errorf("caret %d points at %q, want %q (text %q)", caret, text[len(prefix):], c.caretChar, text)
				}
			}
		})
	}
}

type fakeLines map[string][]string

func (f fakeLines) Line(path string, n int) ([]byte, bool) {
	ls := f[path]
	if n < 1 || n > len(ls) {
		return nil, false
	}
	return []byte(ls[n-1]), true
}

func TestTextSnippets(t *testing.T) {
	src := fakeLines{"a.jsonl": {`{"type":"user"}`, "{\"type\":\"\x1b[2J\",\"x\":1}"}}
	run := &Run{Files: 1, Entries: 2, Findings: []finding.Finding{
		{Rule: "schema", Severity: finding.Error, Path: "a.jsonl", Message: "whole file"},
		{Rule: "schema", Severity: finding.Error, Path: "a.jsonl", Line: 1, Column: 9, Message: "bad type",
			Related: []finding.Location{{Path: "a.jsonl", Line: 2, Column: 1, Message: "see also"}}},
		{Rule: "unknown-type", Severity: finding.Warning, Path: "a.jsonl", Line: 2, Column: 20, Message: "x"},
		{Rule: "schema", Severity: finding.Error, Path: "gone.jsonl", Line: 3, Column: 1, Message: "file is gone"},
	}}
	var buf bytes.Buffer
	if err := Text(&buf, run, TextOptions{Snippets: src, Quiet: true}); err != nil {
		t.Fatal(err)
	}
	want := `a.jsonl: error: whole file [schema]
a.jsonl:1:9: error: bad type [schema]
    1 | {"type":"user"}
      |         ^
    a.jsonl:2:1: see also
a.jsonl:2:20: warning: x [unknown-type]
    2 | {"type":"\x1b[2J","x":1}
      |                       ^
gone.jsonl:3:1: error: file is gone [schema]
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
	buf.Reset()
	if err := Text(&buf, run, TextOptions{Quiet: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), " | ") {
		t.Errorf("snippets without a line source:\n%s", buf.String())
	}
}

// TestColumnOffset: the ASCII steps of columnOffset land where decoding one
// code point at a time does, on text mixing ASCII, multi-byte and invalid
// bytes, for every column up to two past the end.
func TestColumnOffset(t *testing.T) {
	naive := func(line []byte, col int) (int, bool) {
		at := 0
		for c := 1; c < col; c++ {
			if at >= len(line) {
				return 0, false
			}
			_, n := utf8.DecodeRune(line[at:])
			at += n
		}
		return at, true
	}
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"a", "abcdefgh", "0123456789abcdef", "é", "世界", "\xff", "\xe4\xb8", "😀", `\"`}
	for range 500 {
		var b []byte
		for range rng.IntN(20) {
			b = append(b, parts[rng.IntN(len(parts))]...)
		}
		for col := 1; col <= utf8.RuneCount(b)+2; col++ {
			wantAt, wantOK := naive(b, col)
			at, ok := columnOffset(b, col)
			if at != wantAt || ok != wantOK {
				t.Fatalf("%q col %d: %d %v, want %d %v", b, col, at, ok, wantAt, wantOK)
			}
		}
	}
}

// countedLines is fakeLines that counts the lines it gives.
type countedLines struct {
	fakeLines
	n int
}

func (c *countedLines) Line(path string, n int) ([]byte, bool) {
	c.n++
	return c.fakeLines.Line(path, n)
}

// TestSnippetsOfOneLine: the findings of one long line, by column, read
// the line once, and each snippet is the one a line read for it alone
// gives (columns out of order, past the end, and of another line too).
func TestSnippetsOfOneLine(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"content":[`)
	for i := range 3000 {
		fmt.Fprintf(&b, `{"id":"t%d","text":"é€😀 %d"},`, i, i)
	}
	b.WriteString(`{}]}`)
	src := &countedLines{fakeLines: fakeLines{"a.jsonl": {b.String(), `{"short":1}`}}}
	var shared snippetLine
	cols := []int{1}
	for c := 2; c < 80000; c += 37 {
		cols = append(cols, c)
	}
	cols = append(cols, 40, 3, 1_000_000)
	for _, c := range cols {
		f := &finding.Finding{Path: "a.jsonl", Line: 1, Column: c}
		var got, want bytes.Buffer
		writeSnippet(&got, src, f, func(s string) string { return s }, &shared)
		writeSnippet(&want, fakeLines(src.fakeLines), f, func(s string) string { return s }, &snippetLine{})
		if got.String() != want.String() {
			t.Fatalf("column %d: %q, want %q", c, got.String(), want.String())
		}
	}
	if src.n != 1 {
		t.Errorf("%d snippets of one line read it %d times", len(cols), src.n)
	}
	var got, want bytes.Buffer
	f := &finding.Finding{Path: "a.jsonl", Line: 2, Column: 3}
	writeSnippet(&got, src, f, func(s string) string { return s }, &shared)
	writeSnippet(&want, src.fakeLines, f, func(s string) string { return s }, &snippetLine{})
	if got.String() != want.String() || src.n != 2 {
		t.Errorf("the next line: %q, want %q (%d reads)", got.String(), want.String(), src.n)
	}
}

// A key whose byte after its short keyword is a \u escape in the raw line
// ("SK\u0030…", built at run time) is masked: the raw line shows no place
// of "sk" (the keyword pass reads it only before hex digits), its decoded
// string does.
func TestMaskSecretsEscapedAfterKeyword(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 41))
	var key strings.Builder
	key.WriteString("S" + "K")
	for range 32 {
		key.WriteByte("0123456789abcdef"[rng.IntN(16)])
	}
	k := key.String()
	line := []byte(`{"note":"` + k[:2] + fmt.Sprintf(`\u%04x`, k[2]) + k[3:] + `"}`)
	got := MaskSecrets(line)
	start, end := len(`{"note":"`), len(line)-len(`"}`)
	if want := string(line[:start]) + strings.Repeat("*", end-start) + string(line[end:]); string(got) != want {
		t.Fatalf("masked %d of the key's %d raw bytes", bytes.Count(got, []byte("*")), end-start)
	}
}

// A key in a line that does not parse (a torn last line, cut after the
// key) is masked too: the raw line holds `api_key = \"…\"`, whose
// backslash before the quote the "name = value" rule does not take, so the
// line's string literals are read decoded (secret.ScanBroken).
func TestMaskSecretsInBrokenLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 77))
	var key strings.Builder
	for range 32 {
		key.WriteByte("0123456789abcdef"[rng.IntN(16)])
	}
	for _, k := range []string{key.String(), secrettest.New(77).Generic()} {
		maskedInBrokenLine(t, k)
	}
}

func maskedInBrokenLine(t *testing.T, k string) {
	t.Helper()
	whole := `{"type":"user","message":{"role":"user","content":"my config has api_key = \"` + k + `\" please use it"},"uuid":"u"}`
	// cut inside the string after the key, and after it
	cuts := []string{whole[:strings.Index(whole, k)+len(k)+10], whole[:strings.Index(whole, `"uuid"`)+2]}
	for _, line := range append(cuts, strings.Replace(cuts[0], `"content"`, `"content"`+"\x00", 1)) {
		got := string(MaskSecrets([]byte(line)))
		if strings.Contains(got, k[4:len(k)-4]) || !strings.Contains(got, strings.Repeat("*", len(k))) {
			t.Errorf("the key is not masked in %q", strings.ReplaceAll(got, k, "<key>"))
		}
	}
	// a byte of the key written as a \u escape: the escape is masked with
	// the rest, and nothing around the key
	esc := k[:10] + fmt.Sprintf(`\u%04x`, k[10]) + k[11:]
	line := strings.Replace(cuts[0], k, esc, 1)
	got := string(MaskSecrets([]byte(line)))
	if want := strings.Replace(line, esc, strings.Repeat("*", len(esc)), 1); got != want {
		t.Errorf("the escaped key is masked as %q", strings.ReplaceAll(strings.ReplaceAll(got, k[11:], "<key>"), k[:10], "<key>"))
	}
}

// A key in a field the rule does not scan (an id, a link, the entry type,
// a timestamp) or in a member name, plain or spelt with a \u escape, is
// masked in a snippet too: a finding's message masks it (an unknown type,
// a bad timestamp), and the line printed under the finding showed it.
func TestMaskSecretsInUnscannedFields(t *testing.T) {
	g := secrettest.New(31)
	keys := []string{g.GitHub(), g.AWS(), g.GitHub(), g.GitHub(), g.GitHub(), g.GitHub(), g.GitHub(), g.GitHub()}
	line := `{"type":"` + keys[0] + `","uuid":"` + keys[1] + `","parentUuid":"` + keys[2] +
		`","timestamp":"` + keys[3] + `","` + keys[4] + `":1,"\u0067` + keys[5][1:] + `":2,"requestId":"\u0067` + keys[6][1:] +
		`","message":{"content":[{"type":"image","source":{"type":"base64","data":"` + keys[7] + `"}}]}}`
	got := string(MaskSecrets([]byte(line)))
	for i, k := range keys {
		if strings.Contains(got, k[5:]) {
			t.Errorf("key %d is not masked in the snippet line", i)
		}
	}
}
