package secret_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

func scan(text string) []secret.Match {
	var out []secret.Match
	secret.Default().Scan([]byte(text), func(m secret.Match) { out = append(out, m) })
	return out
}

func TestRulesLoad(t *testing.T) {
	sc := secret.Default()
	if err := sc.Check(); err != nil {
		t.Fatal(err)
	}
	if sc.Version != "v8.30.1" || len(sc.Rules()) < 200 {
		t.Fatalf("version %s, %d rules", sc.Version, len(sc.Rules()))
	}
	for id, want := range map[string]string{"aws-access-token": "AWS access key", "github-pat": "GitHub token", "gitlab-cicd-job-token": "GitLab CI/CD job token"} {
		if r := sc.Lookup(id); r == nil || r.Name != want {
			t.Errorf("%s: %+v, want name %q", id, r, want)
		}
	}
}

func TestFinds(t *testing.T) {
	g := secrettest.New(1)
	cases := []struct {
		rule, value, text string
	}{
		{"aws-access-token", "", "export AWS_ACCESS_KEY_ID=%s\n"},
		{"github-pat", "", "token: %s"},
		{"anthropic-api-key", "", "ANTHROPIC_API_KEY=%s\n"},
		{"slack-bot-token", "", "use %s here"},
		{"private-key", "", "key file:\n%s\n"},
		{"generic-api-key", "", "api_key = \"%s\"\n"},
	}
	vals := []string{g.AWS(), g.GitHub(), g.Anthropic(), g.Slack(), g.PEM(), g.Generic()}
	for i, c := range cases {
		v := vals[i]
		text := strings.Replace(c.text, "%s", v, 1)
		ms := scan(text)
		if len(ms) != 1 || ms[0].Rule.ID != c.rule {
			t.Errorf("%s: got %d matches %v", c.rule, len(ms), ids(ms))
			continue
		}
		got := ms[0]
		if got.Value != v && (c.rule != "private-key" || !strings.Contains(v, got.Value)) {
			t.Errorf("%s: value is not the key", c.rule)
		}
		if text[got.Start:got.End] != got.Value {
			t.Errorf("%s: offsets %d..%d do not hold the value", c.rule, got.Start, got.End)
		}
		if len(got.Fingerprint()) != 12 {
			t.Errorf("fingerprint %q", got.Fingerprint())
		}
	}
}

func ids(ms []secret.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Rule.ID)
	}
	return out
}

func TestPlaceholdersAndAllowlists(t *testing.T) {
	for _, text := range []string{
		"aws_access_key_id = AKIA" + "IOSFODNN7EXAMPLE",
		"ANTHROPIC_API_KEY=sk-ant-api03-" + strings.Repeat("X", 93) + "AA",
		"ANTHROPIC_API_KEY=sk-ant-" + strings.Repeat("X", 20),
		"password = ${DB_PASSWORD}",
		"api_key: your_api_key_here",
		"token = abcdefghijklmnopqrstuvwxyz",
		"The key is in the secret store; the token expires.",
		"keyboard shortcut: ctrl+shift+key",
	} {
		if ms := scan(text); len(ms) > 0 {
			t.Errorf("%q: reported %v", text, ids(ms))
		}
	}
}

// A PEM key in a JSON string is one string with \n escapes: decoded, the
// private-key rule finds it, and the raw span covers the escaped bytes.
func TestScanTreeEscapes(t *testing.T) {
	g := secrettest.New(2)
	pem, aws := g.PEM(), g.AWS()
	obj := map[string]any{
		"uuid":      "5e0b6c2e-1111-4222-8333-944455556666",
		"message":   map[string]any{"content": []any{map[string]any{"type": "tool_result", "content": "file:\n" + pem + "\n\"" + aws + "\"\n"}}},
		"signature": aws, // never scanned
	}
	line, _ := json.Marshal(obj)
	var tr jsontree.Tree
	if err := tr.Parse(line); err != nil {
		t.Fatal(err)
	}
	var found []secret.Found
	secret.Default().ScanTree(&tr, nil, nil, func(f secret.Found) { found = append(found, f) })
	if len(found) != 2 {
		t.Fatalf("found %d", len(found))
	}
	for _, f := range found {
		var dec string
		if err := json.Unmarshal([]byte(`"`+string(line[f.RawStart:f.RawEnd])+`"`), &dec); err != nil {
			t.Fatalf("%s: raw span is not a string's bytes: %v", f.Rule.ID, err)
		}
		if dec != f.Value {
			t.Errorf("%s: raw span decodes to something else", f.Rule.ID)
		}
	}
	spans := secret.Default().Spans(line)
	if len(spans) != 2 {
		t.Errorf("spans %v", spans)
	}
}

func TestRawSpanUnicode(t *testing.T) {
	raw := []byte(`a\u00e9\n\ud83d\ude00XYZ\"`)
	// decoded: "a" "é"(2) "\n" "😀"(4) "XYZ" "\"": XYZ at 8..11
	rs, re := secret.RawSpan(raw, 8, 11)
	if string(raw[rs:re]) != "XYZ" {
		t.Errorf("got %q", raw[rs:re])
	}
	rs, re = secret.RawSpan(raw, 1, 3)
	if string(raw[rs:re]) != `\u00e9` {
		t.Errorf("got %q", raw[rs:re])
	}
}

// TestRawCursor: a RawCursor maps every range as RawSpan does, whether
// the ranges come in order (from where the last one started) or not (from
// the string's start again).
func TestRawCursor(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	pieces := []string{"a", "é", `\n`, `\"`, `\u00e9`, `\ud83d\ude00`, `\ud800`, "日", "xyz"}
	for range 50 {
		var b strings.Builder
		for range 200 {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		raw := []byte(b.String())
		dec := 0
		for r := 0; r < len(raw); {
			c := raw[r]
			switch {
			case c == '\\' && raw[r+1] == 'u' && string(raw[r:r+6]) == `\ud83d`:
				dec, r = dec+4, r+12
			case c == '\\' && raw[r+1] == 'u':
				dec, r = dec+3, r+6 // é, or U+FFFD for the lone surrogate
			case c == '\\':
				dec, r = dec+1, r+2
			default:
				dec, r = dec+1, r+1
			}
		}
		var c secret.RawCursor
		for k := 0; k < 100; k++ {
			start := rng.IntN(dec)
			if k%3 != 0 { // mostly in order, as a scan reports them
				start = min(dec-1, k*dec/100+rng.IntN(3))
			}
			end := start + 1 + rng.IntN(dec-start)
			rs, re := secret.RawSpan(raw, start, end)
			if gs, ge := c.Span(raw, start, end); gs != rs || ge != re {
				t.Fatalf("%q [%d,%d): cursor %d..%d, RawSpan %d..%d", raw, start, end, gs, ge, rs, re)
			}
		}
	}
}

func BenchmarkScanProse(b *testing.B) {
	text := []byte(strings.Repeat("The key to this change is the token refresh: the API returns a new access token when the secret rotates. ", 100))
	sc := secret.Default()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		sc.Scan(text, func(secret.Match) {})
	}
}

func BenchmarkKeywordPass(b *testing.B) {
	text := []byte(strings.Repeat("func (w *walker) node(i int, key []byte) { t := w.t; switch t.Nodes[i].Kind { case jsontree.String: w.str(i, key) } } // The key to this change is the token refresh.\n", 100))
	sc := secret.Default()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		secret.KeywordHits(sc, text)
	}
}

func BenchmarkKeywordPassPlain(b *testing.B) {
	text := []byte(strings.Repeat("lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ", 100))
	sc := secret.Default()
	b.SetBytes(int64(len(text)))
	n := secret.KeywordHits(sc, text)
	b.ReportMetric(float64(n)/float64(len(text))*1000, "hits/KB")
	for b.Loop() {
		secret.KeywordHits(sc, text)
	}
}

// A credential in a structured value ({"apiKey": "..."}) is found with its
// member's name, as gitleaks finds it in the raw JSON; the span is the
// value's.
func TestScanTreeNamedValue(t *testing.T) {
	v := secrettest.New(9).Generic()
	line := []byte(`{"type":"tool_use","input":{"env":{"apiKey":"` + v + `","mode":"` + secrettest.New(10).Generic() + `"}}}`)
	var tr jsontree.Tree
	if err := tr.Parse(line); err != nil {
		t.Fatal(err)
	}
	var found []secret.Found
	secret.Default().ScanTree(&tr, nil, nil, func(f secret.Found) { found = append(found, f) })
	if len(found) != 1 || found[0].Value != v || string(line[found[0].RawStart:found[0].RawEnd]) != v {
		// Never the value, even of a test key: rules, spans and fingerprints.
		var got []string
		for _, f := range found {
			got = append(got, fmt.Sprintf("%s [%d,%d) %s", f.Rule.ID, f.RawStart, f.RawEnd, f.Fingerprint()))
		}
		t.Fatalf("found %v, want one generic-api-key at [%d,%d) %s", got, bytes.Index(line, []byte(v)), bytes.Index(line, []byte(v))+len(v), secret.Fingerprint(v))
	}
}

// A long string found clean under an ordinary name is still scanned with
// its name when a later member names it a credential: the memo of clean
// strings must not hide it.
func TestScanTreeMemoNamed(t *testing.T) {
	v := secrettest.New(11).Generic()
	s := v + " " + strings.Repeat("plain words here ", 20)
	sc := secret.Default()
	var memo secret.Memo
	scan := func(line string) int {
		var tr jsontree.Tree
		if err := tr.Parse([]byte(line)); err != nil {
			t.Fatal(err)
		}
		n := 0
		sc.ScanTree(&tr, nil, &memo, func(secret.Found) { n++ })
		return n
	}
	if n := scan(`{"note":"` + s + `"}`); n != 0 {
		t.Skipf("the string alone already holds a secret (%d): the case needs one that only its name reveals", n)
	}
	if n := scan(`{"apiKey":"` + s + `"}`); n != 1 {
		t.Fatalf("under apiKey after the memo saw it clean: %d found, want 1", n)
	}
}

// Memos that share a Clean skip a long string another file found clean,
// and still find a secret in a string none of them saw, or in a value
// under a credential's name; files read at once may share it.
func TestScanTreeSharedMemo(t *testing.T) {
	v := secrettest.New(13).Generic()
	s := v + " " + strings.Repeat("plain words here ", 20)
	clean := strings.Repeat("nothing to see in this text ", 20)
	sc := secret.Default()
	shared := new(secret.Clean)
	scan := func(memo *secret.Memo, line string) int {
		var tr jsontree.Tree
		if err := tr.Parse([]byte(line)); err != nil {
			t.Fatal(err)
		}
		n := 0
		sc.ScanTree(&tr, nil, memo, func(secret.Found) { n++ })
		return n
	}
	if n := scan(nil, `{"note":"`+s+`"}`); n != 0 {
		t.Skipf("the string alone already holds a secret (%d): the case needs one that only its name reveals", n)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				memo := &secret.Memo{Shared: shared}
				if n := scan(memo, `{"note":"`+clean+`"}`); n != 0 {
					t.Errorf("clean text: %d found", n)
				}
				if n := scan(memo, `{"note":"`+s+`"}`); n != 0 {
					t.Errorf("the string alone: %d found", n)
				}
				if n := scan(&secret.Memo{Shared: shared}, `{"apiKey":"`+s+`"}`); n != 1 {
					t.Errorf("under apiKey after another file saw it clean: %d found, want 1", n)
				}
				if n := scan(&secret.Memo{Shared: shared}, `{"note":"`+clean+` api_key=`+v+`"}`); n != 1 {
					t.Errorf("a secret after a clean text: %d found, want 1", n)
				}
			}
		}()
	}
	wg.Wait()
}

// The data of a base64 block (an image, a document) is not scanned,
// whichever of its members comes first; a member named data elsewhere is.
func TestScanTreeBase64Data(t *testing.T) {
	g := secrettest.New(17)
	key := g.GitHub()
	for line, want := range map[string]int{
		`{"source":{"type":"base64","media_type":"image/png","data":"iVBOR ` + key + `"}}`: 0,
		`{"source":{"data":"iVBOR ` + key + `","type":"base64"}}`:                          0,
		`{"source":{"type":"text","data":"see ` + key + `"}}`:                              1,
		`{"data":"see ` + key + `"}`:                                                       1,
	} {
		var tr jsontree.Tree
		if err := tr.Parse([]byte(line)); err != nil {
			t.Fatal(err)
		}
		n := 0
		secret.Default().ScanTree(&tr, nil, nil, func(secret.Found) { n++ })
		if n != want {
			t.Errorf("%d found, want %d (fingerprint %s)", n, want, secret.Fingerprint(key))
		}
	}
}
