package redact

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/ledger"
	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

func testPlan(values []string) *Plan {
	p := &Plan{byFP: map[string]*Secret{}}
	for i, v := range values {
		esc := ledger.AppendCanon(nil, jsontree.AnyVal(v))
		s := &Secret{Rule: "r", Fingerprint: fmt.Sprintf("fp%03d", i), value: v, escaped: string(esc[1 : len(esc)-1])}
		p.byFP[s.Fingerprint] = s
		p.Secrets = append(p.Secrets, s)
	}
	p.index()
	return p
}

func userLine(text string) string {
	b, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
	return string(b)
}

// TestSearchRandom holds the plan's one search over all the secrets to
// the search per secret it replaced (old_test.go): the same edits, places,
// counts, ledger hashes replaced and verdict, on random files whose
// secrets overlap, hold each other, repeat, and need escaping.
func TestSearchRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alpha := []string{"a", "b", "c", "\"", "\\", "/", "\n", "é", "<", "\u2028", "ab", "abc", "]", "TED", "fp0", "\x80", "😀"}
	word := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(alpha[rng.Intn(len(alpha))])
		}
		return b.String()
	}
	var edits, rehashed, refused int
	for round := 0; round < 6000; round++ {
		seen := map[string]bool{}
		var values []string
		for k := 1 + rng.Intn(6); k > 0; k-- {
			v := word(1 + rng.Intn(12))
			if !seen[v] && strings.TrimSpace(v) != "" {
				seen[v] = true
				values = append(values, v)
			}
		}
		if len(values) == 0 {
			continue
		}
		text := func() string {
			var b strings.Builder
			for k := rng.Intn(6); k > 0; k-- {
				if rng.Intn(2) == 0 {
					b.WriteString(values[rng.Intn(len(values))])
				} else {
					b.WriteString(word(1 + rng.Intn(4)))
				}
			}
			return b.String()
		}
		var lines []string
		for k := 1 + rng.Intn(8); k > 0; k-- {
			switch rng.Intn(6) {
			case 0:
				lines = append(lines, strings.ReplaceAll(text(), "\n", " ")) // not JSON
			case 1:
				lines = append(lines, `{"type":"attachment"}`) // ends a run
			default:
				lines = append(lines, userLine(text()))
			}
		}
		// Ledger lines naming some of the run prefixes, a blob holding a
		// secret and one stored under another name.
		f0, _ := ledger.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), false)
		var tail, known []string
		for h := range f0.Known {
			known = append(known, h)
		}
		sort.Strings(known)
		for _, h := range known {
			if rng.Intn(2) == 0 {
				tail = append(tail, h)
			}
		}
		blob, _ := json.Marshal(map[string]any{"role": "user", "content": "blob " + values[0]})
		c := ledger.AppendMessageCanon(nil, jsontree.AnyVal(map[string]any{"role": "user", "content": "blob " + values[0]}))
		sum := sha256.Sum256(c)
		bh := hex.EncodeToString(sum[:])
		lines = append(lines, fmt.Sprintf(`{"type":"api-request-blob","hash":%q,"message":%s}`, bh, blob))
		lines = append(lines, fmt.Sprintf(`{"type":"api-request-blob","hash":%q,"message":%s}`, strings.Repeat("1", 64), blob))
		tail = append(tail, bh, strings.Repeat("1", 64))
		tj, _ := json.Marshal(tail)
		lines = append(lines, fmt.Sprintf(`{"type":"api-request","id":"r","keep":0,"tail":%s,"shapeHash":"s"}`, tj))
		orig := []byte(strings.Join(lines, "\n") + "\n")
		for _, kind := range []layout.Kind{layout.Transcript, layout.FileHistory} {
			p := testPlan(values)
			fo := &File{Kind: kind, Orig: bytes.Clone(orig), Count: map[string]int{}}
			fn := &File{Kind: kind, Orig: bytes.Clone(orig), Count: map[string]int{}}
			oldLocate(p, fo)
			p.locate(fn)
			if len(fo.Edits) > 0 && kind.IsTranscript() {
				oldRehash(p, fo)
				p.rehash(fn)
			}
			eo, en := fmt.Sprint(oldVerify(p, fo)), fmt.Sprint(p.verify(fn))
			if !reflect.DeepEqual(fo.Edits, fn.Edits) || !reflect.DeepEqual(fo.Places, fn.Places) ||
				!reflect.DeepEqual(fo.Count, fn.Count) || fo.Rehashed != fn.Rehashed || eo != en {
				t.Fatalf("round %d, kind %v, secrets %q:\n%s\nold: %v %v %v %d %s\nnew: %v %v %v %d %s", round, kind, values, orig,
					fo.Edits, fo.Places, fo.Count, fo.Rehashed, eo, fn.Edits, fn.Places, fn.Count, fn.Rehashed, en)
			}
			edits += len(fn.Edits)
			rehashed += fn.Rehashed
			if en != "<nil>" {
				refused++
			}
		}
	}
	// The rounds reach every part of the plan.
	if edits == 0 || rehashed == 0 || refused == 0 {
		t.Errorf("edits %d, ledger hashes replaced %d, plans refused %d: some part untested", edits, rehashed, refused)
	}
	t.Logf("edits %d, ledger hashes replaced %d, plans refused %d", edits, rehashed, refused)
}

// TestManySecrets: 2,000 distinct secrets, one a line, then all on one
// line, beside a ledger naming the run they make: each copy is found where
// it is, the ledger's hashes become those of the redacted messages. (The
// search per secret took over a minute here.)
func TestManySecrets(t *testing.T) {
	const n = 2000
	rng := rand.New(rand.NewSource(2))
	values := make([]string, n)
	for i := range values {
		b := []byte("ghp_")
		for len(b) < 40 {
			b = append(b, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[rng.Intn(62)])
		}
		values[i] = string(b)
	}
	p := testPlan(values)
	var lines, blocks, redacted []string
	for i := 0; i < n; i++ {
		s := p.Secrets[i]
		lines = append(lines, userLine("use "+s.value+" now"))
		blocks = append(blocks, `{"text":"use `+s.value+` now","type":"text"}`)
		redacted = append(redacted, `{"text":"use `+s.Placeholder()+` now","type":"text"}`)
	}
	msg := func(bs []string) string { return `{"content":[` + strings.Join(bs, ",") + `],"role":"user"}` }
	hash := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	lines = append(lines, fmt.Sprintf(`{"type":"api-request","id":"r","keep":0,"tail":[%q,%q],"shapeHash":"s"}`, hash(msg(blocks[:1])), hash(msg(blocks))))
	lines = append(lines, strings.Join(values, " "))
	f := &File{Kind: layout.Transcript, Orig: []byte(strings.Join(lines, "\n") + "\n"), Count: map[string]int{}}
	p.locate(f)
	p.rehash(f)
	if err := p.verify(f); err != nil {
		t.Fatal(err)
	}
	if len(f.Places) != 2*n || f.Rehashed != 2 {
		t.Fatalf("%d places, %d hashes replaced; want %d, 2", len(f.Places), f.Rehashed, 2*n)
	}
	for i, pl := range f.Places {
		want := Place{Line: n + 2, Column: 1 + 41*(i-n)}
		if i < n {
			want = Place{Line: i + 1, Column: 1 + strings.Index(lines[i], p.Secrets[i].value), Fingerprint: p.Secrets[i].Fingerprint}
		} else {
			want.Fingerprint = p.Secrets[i-n].Fingerprint
		}
		if pl != want {
			t.Fatalf("place %d: %+v, want %+v", i, pl, want)
		}
	}
	nb, err := f.New()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(string(nb), "\n")
	for i := 0; i < n; i++ {
		if want := userLine("use " + p.Secrets[i].Placeholder() + " now"); got[i] != want {
			t.Fatalf("line %d: %s, want %s", i+1, got[i], want)
		}
	}
	if want := fmt.Sprintf(`{"type":"api-request","id":"r","keep":0,"tail":[%q,%q],"shapeHash":"s"}`, hash(msg(redacted[:1])), hash(msg(redacted))); got[n] != want {
		t.Errorf("ledger line: %s, want %s", got[n], want)
	}
}

// TestDetectBrokenLine: a key whose only copy is on a line that does not
// parse (the torn last line a crash leaves, here cut just after the
// prompt) is found: the raw line holds `api_key = \"…\"`, whose backslash
// before the quote the "name = value" rule does not take, so the line's
// strings are read decoded.
func TestDetectBrokenLine(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var k []byte
	for len(k) < 32 {
		k = append(k, "0123456789abcdef"[rng.Intn(16)])
	}
	line := userLine(`my config has api_key = "` + string(k) + `" please use it`)
	torn := line[:len(line)-10]
	b := []byte(userLine("hello") + "\n" + torn)
	found := false
	detect(secret.Default(), b, layout.Transcript, func(m secret.Match) {
		if m.Value == string(k) {
			found = true
		}
	})
	if !found {
		t.Fatal("the key on the torn last line was not found")
	}
}

// TestEscapedKeyBytes: a key some of whose bytes the line spells as \u
// escapes (`\u0073k-ant-…`), on a line that does not parse (torn) and on
// one that does. Lint reports it (ScanBroken and ScanTree decode the
// escapes); redact replaced nothing, as the raw line lacks the key's
// first bytes, the test that picks the lines to search. The raw span that
// encodes the key, escapes included, becomes the placeholder, and nothing
// else changes.
func TestEscapedKeyBytes(t *testing.T) {
	key := secrettest.New(11).Anthropic()
	u := func(i int) string { return fmt.Sprintf(`\u%04x`, key[i]) }
	spells := map[string]string{
		"first byte":   u(0) + key[1:],
		"first three":  u(0) + u(1) + u(2) + key[3:],
		"a middle one": key[:20] + u(20) + key[21:],
		"the last one": key[:len(key)-1] + u(len(key)-1),
	}
	for name, spelt := range spells {
		pre, post := `{"type":"user","message":{"role":"user","content":"a \"quoted\"\nkey `, ` end"}}`
		for _, torn := range []bool{true, false} {
			line := pre + spelt + post
			if torn {
				line = line[:len(line)-3]
			}
			b := []byte(userLine("hello") + "\n" + line + "\n")
			p := &Plan{byFP: map[string]*Secret{}}
			detect(secret.Default(), b, layout.Transcript, func(m secret.Match) { p.add(m) })
			if len(p.Secrets) != 1 || p.Secrets[0].value != key {
				t.Fatalf("%s, torn %v: detect found %d secrets", name, torn, len(p.Secrets))
			}
			p.index()
			f := &File{Kind: layout.Transcript, Orig: b, Count: map[string]int{}}
			p.locate(f)
			if err := p.verify(f); err != nil {
				t.Fatalf("%s, torn %v: %v", name, torn, err)
			}
			nb, err := f.New()
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(string(b), spelt, p.Secrets[0].Placeholder(), 1)
			if string(nb) != want {
				t.Errorf("%s, torn %v: %d places; got\n%s\nwant\n%s", name, torn, len(f.Places), nb, want)
			}
			if len(f.Places) != 1 || f.Places[0].Line != 2 || f.Places[0].Column != 1+len(pre) {
				t.Errorf("%s, torn %v: places %+v", name, torn, f.Places)
			}
		}
	}
}

// TestBuildUnreadable: a file of the data root that cannot be read stops
// the plan with a ReadError naming it by its display path (the command
// exits 4, refused, nothing written), not an internal error naming its
// absolute path.
func TestBuildUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads everything")
	}
	root := t.TempDir()
	proj := filepath.Join(root, "projects", "-h")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	key := secrettest.New(7).GitHub()
	line := userLine("token "+key) + "\n"
	for _, name := range []string{"11111111-2222-4333-8444-555555555555.jsonl", "21111111-2222-4333-8444-555555555555.jsonl"} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	locked := filepath.Join(proj, "21111111-2222-4333-8444-555555555555.jsonl")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	found, err := layout.Discover([]string{root}, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(found)
	var re *ReadError
	if !errors.As(err, &re) || strings.Contains(err.Error(), root) ||
		!strings.Contains(err.Error(), "21111111-2222-4333-8444-555555555555.jsonl: cannot read: open: permission denied") {
		t.Fatalf("Build: %v, want a ReadError naming the locked file by its display path", err)
	}
}
