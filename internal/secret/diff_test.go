package secret

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// reference is the scanner as it was before the keyword pass read long
// texts in four chains, decoding trusted the reader's UTF-8 check,
// mayFind read escaped strings raw and mayMatch skipped windows without
// the literals a match holds: the same rules, one chain, every string
// decoded, every run of it checked, every window run.
func reference() *Scanner {
	ref := *Default()
	m := *ref.ac
	m.oneChain = true
	m.follow = nil // every place of a keyword
	ref.ac = &m
	ref.oneByOne = true
	return &ref
}

// wholeRef is the reference that runs every rule whose keywords occur
// over the whole text, as gitleaks does: no places, windows or anchored
// runs.
func wholeRef() *Scanner {
	ref := reference()
	ref.wholeText = true
	return ref
}

type foundKey struct {
	rule                         string
	start, end, rawStart, rawEnd int
	key, fp                      string
}

func foundOf(f Found) foundKey {
	return foundKey{f.Rule.ID, f.Start, f.End, f.RawStart, f.RawEnd, f.Key, f.Fingerprint()}
}

// sameFinds compares what the reference and the scanner find in one JSON
// line, in order; it returns how many secrets they found.
func sameFinds(t *testing.T, ref *Scanner, tr *jsontree.Tree, line []byte, where string) int {
	t.Helper()
	if tr.Parse(line) != nil {
		return 0
	}
	var want, got, got8 []foundKey
	ref.ScanTree(tr, nil, nil, func(f Found) { want = append(want, foundOf(f)) })
	Default().ScanTree(tr, nil, nil, func(f Found) { got = append(got, foundOf(f)) })
	if utf8.Valid(line) {
		Default().ScanTreeUTF8(tr, nil, nil, func(f Found) { got8 = append(got8, foundOf(f)) })
	} else {
		got8 = got
	}
	// Only rule ids, places and fingerprints are printed, never a value.
	if !equalFinds(want, got) || !equalFinds(want, got8) {
		t.Errorf("%s: only reference %v, only ScanTree %v", where, setMinus(want, got), setMinus(got, want))
	}
	return len(want)
}

func equalFinds(a, b []foundKey) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The scanner finds exactly what the reference finds, secret by secret and
// place by place, in every line of the real corpus and of testdata/; and
// what every rule whose keywords occur finds over the whole text (gitleaks'
// way: no places, windows or anchored runs).
func TestScanDifferentialCorpus(t *testing.T) {
	ref, whole := reference(), wholeRef()
	var tr jsontree.Tree
	lines := 0
	for _, dir := range []string{"../../../shared/corpus/real", "../../testdata"} {
		if _, err := os.Stat(dir); err != nil {
			t.Logf("skipping %s: %v", dir, err)
			continue
		}
		err := eachJSONLine(dir, func(p string, n int, line []byte) {
			lines++
			sameFinds(t, ref, &tr, line, p+":"+jsonNum(n))
			sameFinds(t, whole, &tr, line, p+":"+jsonNum(n)+" (whole text)")
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d lines", lines)
}

func jsonNum(n int) string { b, _ := json.Marshal(n); return string(b) }

// And in generated transcript lines with secrets planted in long strings
// (generated at run time), with escapes (\n, \", \u00e9, \u003c) and
// invalid UTF-8 around them, at and across the quarters' edges.
func TestScanDifferentialPlanted(t *testing.T) {
	ref := reference()
	var tr jsontree.Tree
	rng := rand.New(rand.NewPCG(25, 25))
	prose := []string{"the key to this ", "task: ask the disk ", "they said ", "token refresh ", "a <b> & \"quoted\" ",
		"line\n", "tab\there ", "café ", "api_key = ", "password: ", "SKETCH ", "curl -H ", "sk-ant-", "\xff\xfe ",
		"test_case(", "s.rules = ", "TASK_1 ", "\u212a SK", "eyJhbGciOi ", "API-KEY "}
	found := 0
	for n := 0; n < 120; n++ {
		g := secrettest.New(uint64(n))
		hex := make([]byte, 32)
		for k := range hex {
			hex[k] = "0123456789abcdef"[rng.IntN(16)]
		}
		lc := func(n int) string {
			b := make([]byte, n)
			for k := range b {
				b[k] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
			}
			return string(b)
		}
		authress := "sc" + "_" + lc(12) + "." + lc(5) + ".acc_" + lc(16) + "." + lc(40)
		curl := []string{"curl -H \"Authorization: Bearer " + lc(40) + "\" https://x.test", "curl -u " + "admin:" + lc(24) + " https://x.test",
			"curl --header 'X-Api-Key: " + lc(32) + "' x", "curl\n  -X POST\n  -H \"Token: " + lc(30) + "\""}
		hex35 := lc(0)
		for len(hex35) < 35 {
			hex35 += "0123456789abcdef"[rng.IntN(16):][:1]
		}
		lob := []string{"LOB_API_KEY=" + "test" + "_" + hex35, "lob_key: 'live" + "_" + hex35 + "'", "lob = test_" + hex35[:20]}
		// Generic values of 11, 12 and 13 distinct bytes: 12 is the fewest
		// with more than 3.5 bits of entropy.
		// And values of letters, '_', '.' and '-' only (the rule's
		// allowlist lets them through), and with a digit or a '+'.
		// (Drawn at run time: this file holds no key.)
		// Each alphanumeric one holds a digit, as a key does (the rule's
		// allowlist lets letters alone through).
		d11, d12, d13 := distinctBytes(rng, 10, letters)+"7", distinctBytes(rng, 11, letters)+"7", distinctBytes(rng, 12, letters)+"7"
		l14, l16 := distinctBytes(rng, 14, letters), distinctBytes(rng, 16, letters)
		distinct := []string{"token: " + d11 + d11, "token: " + d12 + d12, "auth=" + d13, "secret = " + d12 + d12[:4],
			"token: " + l14 + "_" + l14[:3], "token: " + l14 + "." + l14[:2] + "-9", "api_key=" + l16, "api_key=" + l16 + "+"}
		// Rules whose windows need a run of a class (mayRun): a cohere
		// token, a facebook access token, a harness key.
		digits := strings.Repeat("7", 15)
		runs := []string{"cohere_key = " + lc(40), "facebook " + digits + "|" + lc(30), "pa" + "t." + lc(22) + "." + lc(24) + "." + lc(20)}
		secrets := []string{runs[rng.IntN(len(runs))], curl[rng.IntN(len(curl))], authress, lob[rng.IntN(len(lob))], distinct[rng.IntN(len(distinct))], "vault s." + lc(24) + " ok", "hvs." + lc(95), "gh" + "s_" + lc(36), "S" + "K" + string(hex), "AWS_ACCESS_KEY_ID=" + g.AWS(), "token " + g.GitHub(), g.Anthropic(), g.Slack(), g.PEM(), "api_key=" + g.Generic()}
		var b strings.Builder
		size := rng.IntN(6000)
		for b.Len() < size {
			if rng.IntN(8) == 0 {
				b.WriteString(secrets[rng.IntN(len(secrets))])
				b.WriteByte(" \n\"'"[rng.IntN(4)])
				continue
			}
			b.WriteString(prose[rng.IntN(len(prose))])
		}
		text := b.String()
		enc, _ := json.Marshal(text) // \u003c, \u0026, \n, \" escapes; invalid bytes become U+FFFD
		var line []byte
		if rng.IntN(3) == 0 {
			// invalid UTF-8 kept raw in the line
			enc = bytes.ReplaceAll(enc, []byte("\\ufffd"), []byte("\xff"))
		}
		line = append(line, `{"type":"user","uuid":"u","message":{"role":"user","content":[{"type":"tool_result","content":`...)
		line = append(line, enc...)
		line = append(line, `}]},"toolUseResult":{"stdout":`...)
		line = append(line, enc...)
		line = append(line, `,"apiKey":"`+g.Generic()+`"}}`...)
		found += sameFinds(t, ref, &tr, line, "planted line "+jsonNum(n))
	}
	if found < 120 {
		t.Fatalf("only %d secrets found in the planted lines", found)
	}
	t.Logf("%d secrets found alike", found)
}

// A secret in an escaped string, far from any escape, is read from the raw
// bytes (mayFind) and found as the reference finds it; one next to an
// escape too. The keys are generated at run time.
func TestMayFindEscapedStrings(t *testing.T) {
	ref := reference()
	var tr jsontree.Tree
	g := secrettest.New(25)
	hex := strings.Repeat("0123456789abcdef", 2)
	for _, v := range []string{"S" + "K" + hex, "AWS_ACCESS_KEY_ID=" + g.AWS(), g.GitHub(), g.Anthropic(), g.Slack(), "api_key=" + g.Generic(), `api_key": "` + g.Generic() + `",`} {
		pad := strings.Repeat(" ", 100)
		for _, text := range []string{"x\n" + pad + v + pad + "\ny", "x\n" + v + "\n", "\"" + v + "\""} {
			enc, _ := json.Marshal(text)
			line := []byte(`{"type":"user","message":{"content":` + string(enc) + `}}`)
			if tr.Parse(line) != nil || !tr.Nodes[len(tr.Nodes)-1].Esc {
				t.Fatal("the test string should hold escapes")
			}
			if n := sameFinds(t, ref, &tr, line, "escaped string"); n != 1 {
				t.Errorf("%d secrets found, want 1 (fingerprint %s)", n, Fingerprint(v))
			}
		}
	}
	// Prose with keywords that no rule keeps ("task", "ask", "they") and
	// escapes: nothing to decode.
	raw := []byte(`x\n` + strings.Repeat(" ", 70) + "ask the task, they said" + strings.Repeat(" ", 70) + `\t\"ok\"`)
	if Default().mayFind(raw) {
		t.Error("mayFind: prose whose keywords no rule keeps")
	}
}

// The key cache gives each member name the class classify reads, whatever
// the names that share its slots and the order they come in.
func TestKeyCache(t *testing.T) {
	keys := []string{"type", "content", "apiKey", "uuid", "parentUuid", "text", "token", "x", "", "API_KEY",
		"file_path", "toolUseResult", "sessionId", "fooUuid", "Authorization", "data", "signature", "credentials"}
	// Names over 16 bytes that share their length and first and last 8
	// bytes (and so their slots): told apart by the whole name.
	for _, mid := range []string{"X", "Y", "key", "abc", "api", "ZZZ", "Uuid", "data", "token", "tokex"} {
		keys = append(keys, "prefix00"+mid+"_suffix00", "longName"+mid+"longName", "x-api-key"+mid+"_id_Uuid")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 3000; n++ {
		b := make([]byte, rng.IntN(12))
		for k := range b {
			b[k] = "abcdefghijklmnopqrstuvwxyzIUKT_"[rng.IntN(31)]
		}
		keys = append(keys, string(b))
	}
	var kc keyCache
	for n := 0; n < 100000; n++ {
		k := []byte(keys[rng.IntN(len(keys))])
		if n%3 == 0 {
			k = []byte(keys[rng.IntN(18)]) // the frequent ones
		}
		if got, want := kc.class(k), classify(k); got != want {
			t.Fatalf("%q: class %d, classify %d", k, got, want)
		}
	}
}

// A match that runs to the end of its window may go on past it: found on
// the whole text, as the reference finds it (curl's user:password and a
// JWT longer than the 8 KB window after their place; generated at run
// time).
func TestScanWindowEdge(t *testing.T) {
	ref := reference()
	var tr jsontree.Tree
	rng := rand.New(rand.NewPCG(8, 8))
	run := func(n int) string {
		b := make([]byte, n)
		for k := range b {
			b[k] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[rng.IntN(62)]
		}
		return string(b)
	}
	found := 0
	for _, n := range []int{8100, 8170, 8185, 8190, 8200, 9000} {
		for _, text := range []string{
			"run cu" + "rl -u admin:" + run(n) + " now",
			"run curl -u admin:" + run(n),
			"tok ey" + run(20) + ".ey" + run(n) + " end",
			"curl -H 'Authorization: Bearer " + run(n) + "' x",
		} {
			enc, _ := json.Marshal(text)
			line := []byte(`{"type":"user","message":{"content":` + string(enc) + `}}`)
			found += sameFinds(t, ref, &tr, line, "window edge")
		}
	}
	if found == 0 {
		t.Fatal("nothing found at the window edges")
	}
}

// maxLen bounds a match's bytes: a class of ASCII bytes takes one, a
// case-folded letter may take three (the Kelvin sign), a class with
// other runes their width.
func TestMaxLen(t *testing.T) {
	for expr, want := range map[string]int{
		`[a-z0-9]{20}`: 20, `(?i)[a-z]{2}`: 6, `(?i)key`: 5, `key`: 3, `[é]x`: 3, `(?:ab|c)d?`: 3,
		`[\w.-]{0,50}`: 50, `\b(v1\.0-[a-f0-9]{24})`: 29, `a.`: 5, `a+`: -1,
	} {
		p, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := maxLen(p); got != want {
			t.Errorf("maxLen(%s) = %d, want %d", expr, got, want)
		}
	}
}

// maxNewlines bounds the '\n' bytes of a match: a class that holds '\n'
// takes one each time, '.' none, (?s). one; curl-auth-header's at most 12
// (five line breaks of one or two, a blank before -H, one after).
func TestMaxNewlines(t *testing.T) {
	for expr, want := range map[string]int{
		`a.*b`: 0, `(?s)a.*b`: -1, `(?s)a.{0,3}`: 3, `[\r\n]{1,2}`: 2, `\s+`: -1, `[^a]`: 1, `a\nb`: 1,
		`(?:x|\n\n)?y`: 2, `[\r\n]*`: -1, `(?:[ \t]{0,5}\n){2}`: 2, `a\z`: 0,
	} {
		p, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := maxNewlines(p); got != want {
			t.Errorf("maxNewlines(%s) = %d, want %d", expr, got, want)
		}
	}
	r := Default().Lookup("curl-auth-header")
	if r.compile() != nil || r.lines != 12 {
		t.Errorf("curl-auth-header: %d line ends, want 12", r.lines)
	}
}

// lineBound ends past the line end after the lines a match holds.
// lineBound, the reference newlines.bound is held to, is how far a match from p that holds at most lines '\n'
// bytes can reach, at most b: just past the lines+1'th '\n' from p (the
// match ends before it: that '\n' is at most the byte after the match,
// which \b, \B and \z read), or b.
func lineBound(str string, p, b, lines int) int {
	if lines < 0 {
		return b
	}
	for n := 0; n <= lines; n++ {
		i := strings.IndexByte(str[p:b], '\n')
		if i < 0 {
			return b
		}
		p += i + 1
	}
	return p
}

func TestLineBound(t *testing.T) {
	str := "a\nb\nc\nd"
	for _, c := range []struct{ p, b, lines, want int }{
		{0, 7, -1, 7}, {0, 7, 0, 2}, {0, 7, 1, 4}, {0, 7, 2, 6}, {0, 7, 3, 7}, {2, 7, 0, 4}, {0, 3, 1, 3},
	} {
		if got := lineBound(str, c.p, c.b, c.lines); got != c.want {
			t.Errorf("lineBound(%d, %d, %d) = %d, want %d", c.p, c.b, c.lines, got, c.want)
		}
	}
}

func setMinus(a, b []foundKey) []foundKey {
	var out []foundKey
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// A lead rules out the places where no match can start, and only those:
// a case-folded k or s may be the Kelvin sign or the long s, and a text
// cut short (a window) does not rule a place out.
func TestLead(t *testing.T) {
	s := Default()
	hex := strings.Repeat("0123456789abcdef", 3)
	for _, c := range []struct {
		rule, text string
		end, want  bool
	}{
		{"twilio-api-key", "SK" + hex[:32], true, true},
		{"twilio-api-key", "SK" + hex[:31] + "z", true, false},
		{"twilio-api-key", "SK" + hex[:20], true, false},
		{"twilio-api-key", "SK" + hex[:20], false, true},
		{"twilio-api-key", "sk" + hex[:32], true, false},
		{"twilio-api-key", "SKETCH", true, false},
		{"vault-service-token", "s.rules", true, false},
		{"vault-service-token", "s." + strings.Repeat("aZ09", 6), true, true},
		{"vault-service-token", "s." + strings.Repeat("a", 23) + "\u212a", true, true},
		{"vault-service-token", "hvs." + strings.Repeat("a-", 45), true, true},
		{"lob-api-key", "test_" + hex[:35], true, true},
		{"lob-api-key", "TEST_" + strings.ToUpper(hex[:35]), true, true},
		{"lob-api-key", "te\u017ft_" + hex[:35], true, true},
		{"lob-api-key", "test_case", true, false},
		{"jwt", "eyJhbGciOiJIUzI1NiIsInR5", true, true},
		{"jwt", "eyes", true, false},
	} {
		r := s.Lookup(c.rule)
		if err := r.compile(); err != nil || r.lead == nil {
			t.Fatalf("%s: no lead (%v)", c.rule, err)
		}
		text := []byte(c.text)
		if strings.Contains(c.text, `\u`) {
			var tr jsontree.Tree
			if err := tr.Parse([]byte(`"` + c.text + `"`)); err != nil {
				t.Fatal(err)
			}
			text = tr.AppendStr(nil, 0)
		}
		if got := r.lead.may(text, 0, c.end); got != c.want {
			t.Errorf("%s: lead.may(%q, end %v) = %v", c.rule, c.text, c.end, got)
		}
	}
	// A sequence whose alternatives leadOf cannot all read on (one has a
	// run, one is a plain literal) closes the open ones: the part after
	// the capture is not read as coming right after "pr" (the review's
	// shape; no rule has it).
	re, err := syntax.Parse(`\b(p(?:q[0-9]+|r)s)t`, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	if l := leadOf(re); l != nil && !l.may([]byte("prst"), 0, true) {
		t.Errorf("the lead of %s turns away prst", re)
	}
}

// The generic rule's value is the one distinctRun was written for.
func TestGenericDistinct(t *testing.T) {
	if r := Default().Lookup("generic-api-key"); r == nil || r.distinct != 12 {
		t.Fatal("generic-api-key: no distinct check (its value group changed?)")
	}
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// distinctBytes returns n distinct bytes of alphabet in a random order.
func distinctBytes(rng *rand.Rand, n int, alphabet string) string {
	b := []byte(alphabet)
	rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	return string(b[:n])
}

// A walk with a Memo (the store's shared clean set and the short-string
// cache) finds what a walk without one finds, line by line, on the real
// corpus and testdata/ read twice (the second time every clean string is
// remembered), and on short strings with keys planted among clean copies
// of themselves and under credential names (generated at run time).
func TestScanTreeMemoDifferential(t *testing.T) {
	var tr jsontree.Tree
	shared := new(Clean)
	memo := &Memo{Shared: shared}
	lines, found := 0, 0
	check := func(line []byte, where string) {
		if tr.Parse(line) != nil {
			return
		}
		var want, got []foundKey
		Default().ScanTree(&tr, nil, nil, func(f Found) { want = append(want, foundOf(f)) })
		Default().ScanTree(&tr, nil, memo, func(f Found) { got = append(got, foundOf(f)) })
		if !equalFinds(want, got) {
			t.Errorf("%s: only without a memo %v, only with one %v", where, setMinus(want, got), setMinus(got, want))
		}
		found += len(want)
	}
	for pass := range 2 {
		for _, dir := range []string{"../../../shared/corpus/real", "../../testdata"} {
			if _, err := os.Stat(dir); err != nil {
				t.Logf("skipping %s: %v", dir, err)
				continue
			}
			err := eachJSONLine(dir, func(p string, n int, line []byte) {
				if pass == 0 {
					lines++
				}
				memo = &Memo{Shared: shared}
				check(line, p+":"+jsonNum(n))
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	g := secrettest.New(7)
	for n := range 200 {
		keys := []string{"AWS_ACCESS_KEY_ID=" + g.AWS(), "token " + g.GitHub(), "api_key=" + g.Generic(), g.Slack()}
		clean := []string{"/home/user/project-" + jsonNum(n%7), "PreToolUse:Bash hook ok", "a short clean string"}
		var b strings.Builder
		b.WriteString(`{"type":"user","cwd":`)
		for k := range 6 {
			s := clean[(n+k)%len(clean)]
			if (n+k)%4 == 0 {
				s = keys[(n+k)%len(keys)]
			}
			enc, _ := json.Marshal(s)
			name := []string{"text", "apiKey", "content", "x"}[(n*k+k)%4]
			if k > 0 {
				b.WriteString(`,"` + name + jsonNum(k) + `":`)
			}
			b.Write(enc)
		}
		b.WriteString("}")
		check([]byte(b.String()), "planted short strings "+jsonNum(n))
	}
	if found < 200 {
		t.Fatalf("only %d secrets found", found)
	}
	t.Logf("%d lines twice, %d secrets found alike", lines, found)
}

// The short-string cache answers only for the strings added, by their
// bytes (many random strings share slots), and only for the scanner that
// added them.
func TestShortCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var c shortCache
	s, other := Default(), reference()
	added := map[string]bool{}
	for n := 0; n < 50000; n++ {
		b := make([]byte, 1+rng.IntN(memoFrom-1))
		for k := range b {
			b[k] = "abcdef/-_ "[rng.IntN(10)]
		}
		if c.has(s, b) && !added[string(b)] {
			t.Fatalf("%q: cached, never added", b)
		}
		if rng.IntN(2) == 0 {
			c.add(s, b)
			added[string(b)] = true
			if !c.has(s, b) || c.has(other, b) {
				t.Fatalf("%q: has %v for its scanner, %v for another", b, c.has(s, b), c.has(other, b))
			}
		}
	}
	c.add(other, []byte("x"))
	if c.has(s, []byte("x")) {
		t.Fatal("another scanner's string")
	}
}

// The shared clean set holds what was added, up to its bound, and nothing
// else; 0 (no hash) is never held.
func TestCleanSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var c Clean
	added := map[uint64]bool{}
	for len(added) < 2*maxShared {
		h := rng.Uint64()
		if c.has(h) && !added[h] {
			t.Fatalf("%#x: held, never added", h)
		}
		if ok := c.add(h); ok != c.has(h) {
			t.Fatalf("%#x: add says %v, has %v", h, ok, c.has(h))
		}
		added[h] = true
		if len(added) < 1000 && !c.has(h) {
			t.Fatalf("%#x: added, not held", h)
		}
	}
	held := 0
	for h := range added {
		if c.has(h) {
			held++
		}
	}
	if held != maxShared {
		t.Errorf("%d of %d hashes held, bound %d", held, len(added), maxShared)
	}
	for range 100000 {
		if h := rng.Uint64(); !added[h] && c.has(h) {
			t.Fatalf("%#x: held, never added", h)
		}
	}
	if c.add(0) || c.has(0) {
		t.Error("0 held")
	}
	// A Memo over the full set keeps what the set refuses in its own map.
	m := Memo{Shared: &c}
	w := walker{memo: &m}
	for h := range added {
		if !c.has(h) {
			w.remember(h)
			if _, ok := m.clean[h]; !ok {
				t.Fatalf("%#x: refused by the full set, not kept by the Memo", h)
			}
			break
		}
	}
	for h := range added {
		if c.has(h) {
			w.remember(h)
			if _, ok := m.clean[h]; ok {
				t.Fatalf("%#x: in the set, also kept by the Memo", h)
			}
			break
		}
	}
}

// A curl command over several lines: its header is found as far as the
// expression reaches (five line breaks of one or two bytes), as the
// reference finds it; the values are drawn at run time.
func TestScanCurlLines(t *testing.T) {
	ref, whole := reference(), wholeRef()
	var tr jsontree.Tree
	rng := rand.New(rand.NewPCG(12, 12))
	val := func() string {
		b := make([]byte, 32)
		for k := range b {
			b[k] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
		}
		return string(b)
	}
	found := 0
	for k := range 9 {
		for _, nl := range []string{"\n", "\r\n", "\n\n", "\n\r\n", " \\\n"} {
			for _, hdr := range []string{`-H "Authorization: Bearer %s"`, `--header 'X-Api-Key: %s'`, `-u admin:%s`} {
				// The header after a blank, or right after a line end (a
				// match then holds the most line ends it can: 11, with
				// k = 5 and two-byte breaks).
				for _, last := range []string{nl + "  ", "\n"} {
					var b strings.Builder
					b.WriteString("run this:\ncurl https://api.example.test/v1/items")
					for range k {
						b.WriteString(nl + "  -X POST")
					}
					b.WriteString(last + strings.Replace(hdr, "%s", val(), 1) + "\n  -d '{}'\nthen more text\n")
					enc, _ := json.Marshal(b.String())
					line := []byte(`{"type":"user","message":{"content":` + string(enc) + `}}`)
					found += sameFinds(t, ref, &tr, line, "curl over "+jsonNum(k)+" lines")
					sameFinds(t, whole, &tr, line, "curl over "+jsonNum(k)+" lines (whole text)")
				}
			}
		}
	}
	if found < 20 {
		t.Fatalf("only %d found", found)
	}
	t.Logf("%d found alike", found)
}

// A window without a literal every match holds, read ASCII
// case-insensitively (mayFold: "authorization:", "key" or "token" in a
// curl header, "private key" in a PEM block), runs no expression; one
// with a byte beyond ASCII always runs (the Kelvin sign is a case-folded
// k). Found as the reference finds them; the values are drawn at run time.
func TestMayFold(t *testing.T) {
	ref := reference()
	var tr jsontree.Tree
	rng := rand.New(rand.NewPCG(13, 13))
	val := func(n int) string {
		b := make([]byte, n)
		for k := range b {
			b[k] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
		}
		return string(b)
	}
	body := func() string {
		var b strings.Builder
		for range 12 {
			b.WriteString(val(64) + "\n")
		}
		return b.String()
	}
	pad := strings.Repeat("some text that is no key\n", 40)
	cases := []struct {
		text string
		want int
	}{
		{"curl -H \"X-Api-Key: " + val(32) + "\" https://x.test\n" + pad, 1},
		{"curl -H \"X-Api-\u212aey: " + val(32) + "\" https://x.test\n", 1},
		{"curl -H \"AUTHORIZATION: Bearer " + val(32) + "\" https://x.test\n", 1},
		{"curl -H \"Content-Type: application/json\" https://x.test\n" + pad, 0},
		{"-----BEGIN RSA PRIVATE KEY-----\n" + body() + "-----END RSA PRIVATE KEY-----\n", 1},
		{"-----BEGIN RSA PRIVATE \u212aEY-----\n" + body() + "-----END RSA PRIVATE \u212aEY-----\n", 1},
		{"-----BEGIN CERTIFICATE-----\n" + body() + "-----END CERTIFICATE-----\n", 0},
	}
	for i, c := range cases {
		enc, _ := json.Marshal(c.text)
		line := []byte(`{"type":"user","message":{"content":` + string(enc) + `}}`)
		if n := sameFinds(t, ref, &tr, line, "case "+jsonNum(i)); n != c.want {
			t.Errorf("case %d: %d found, want %d", i, n, c.want)
		}
	}
	for _, id := range []string{"curl-auth-header", "private-key"} {
		if r := Default().Lookup(id); r.compile() != nil || len(r.folds) == 0 {
			t.Errorf("%s: no literal sets to look for", id)
		}
	}
}

// atlassian-api-token is "name = value" or an ATATT3 token: a place of
// "jira", "confluence" or "atlassian" with no assignment after it counts
// for nothing (branchAssignKeys), and the token is still found by its own
// keyword, next to mentions or inside one's value. Found as the whole-text
// reference finds them; the values are drawn at run time.
func TestScanAtlassianBranches(t *testing.T) {
	i := slices.IndexFunc(Default().rules, func(r *Rule) bool { return r.ID == "atlassian-api-token" })
	if i < 0 || !Default().rules[i].assignKeys["jira"] {
		t.Fatal("atlassian-api-token: jira is not an assignment keyword")
	}
	whole := wholeRef()
	var tr jsontree.Tree
	rng := rand.New(rand.NewPCG(7, 7))
	draw := func(n int, alphabet string) string { return drawFrom(rng, n, alphabet) }
	const lc = "abcdefghijklmnopqrstuvwxyz0123456789"
	found := 0
	for n := range 40 {
		value := draw(20, lc) + draw(4, "0123456789abcdef")
		token := "ATA" + "TT3" + draw(186, lc+"ABCDEFGHIJKLMNOPQRSTUVWXYZ_-=")
		parts := []string{"the jira board ", "Confluence page ", "JIRA-123 ", "atlassian cloud ", "jira ticket", "\n",
			"jira_api_token = " + value + "\n", "confluence: '" + value + "' ", token + " ", "jira " + token + "\n",
			"JIRA_TOKEN=" + token + "\n", "atlassian" + token + " ", "x" + token + " "}
		var b strings.Builder
		for b.Len() < 1500 {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		enc, _ := json.Marshal(b.String())
		line := []byte(`{"type":"user","message":{"content":` + string(enc) + `}}`)
		found += sameFinds(t, whole, &tr, line, "atlassian line "+jsonNum(n))
	}
	if found < 40 {
		t.Fatalf("only %d found", found)
	}
	t.Logf("%d found alike", found)
}

func TestBranchAssignKeys(t *testing.T) {
	for _, c := range []struct {
		expr string
		kws  []string
		want []string
	}{
		// Every keyword in the name group: an assign rule, not this.
		{namePrefix + `(?:jira)` + assignShape + `([a-z]{20})`, []string{"jira"}, nil},
		{namePrefix + `(?:jira)` + assignShape + `([a-z]{20})|\b(ATATT3[a-z]{9})`, []string{"jira", "atatt3"}, []string{"jira"}},
		// The other branch need not hold a keyword: nothing.
		{namePrefix + `(?:jira)` + assignShape + `([a-z]{20})|\b([0-9]{30})`, []string{"jira", "atatt3"}, nil},
		// Its keyword has a letter that folds beyond ASCII: nothing.
		{namePrefix + `(?:jira)` + assignShape + `([a-z]{20})|\b(SKX[a-z]{9})`, []string{"jira", "skx"}, nil},
		// One alternative of the other branch holds no keyword: nothing.
		{namePrefix + `(?:jira)` + assignShape + `([a-z]{20})|\b(?:ATATT3|XYZ)[a-z]{9}`, []string{"jira", "atatt3"}, nil},
		{`\b(ATATT3[a-z]{9})|` + namePrefix + `(?:jira)` + assignShape + `([a-z]{20})`, []string{"jira", "atatt3"}, nil},
	} {
		got := branchAssignKeys(c.expr, c.kws)
		var keys []string
		for k := range got {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, c.want) {
			t.Errorf("branchAssignKeys(%q, %q) = %q, want %q", c.expr, c.kws, keys, c.want)
		}
	}
}

// Found as the whole-text reference finds them (the review's cases):
//   - a name = value match whose gap or value holds the Kelvin sign or the
//     long s, which a case-folded \w or [a-z] takes (foldsToASCII);
//   - a match of a rule that holds no keyword (facebook-access-token,
//     sourcegraph-access-token's hex branch, airtable-personnal-access-
//     token) past a line end after it (only an anchored rule's windows end
//     where lineBound says) or farther from it than the rule's longest
//     match (the whole text is read: Rule.keywordless);
//   - a name = value match whose name goes on past the keyword
//     (Rule.nameExtra) or whose value has a ':' in its first 10 bytes;
//   - an aws-access-token key whose lead (leadOf) lost a class;
//   - a generic name with the Kelvin sign or the long s before its
//     keyword (scanAtNames walks back over them), and a name whose walk
//     back would cross into the match before (it stops at its end).
//
// Each line is read as a plain string and as one with escapes (mayFind).
// The values are drawn at run time.
func TestScanReviewCases(t *testing.T) {
	whole := wholeRef()
	var tr jsontree.Tree
	rng := rand.New(rand.NewPCG(9, 9))
	draw := func(n int, alphabet string) string { return drawFrom(rng, n, alphabet) }
	const lc, hex = "abcdefghijklmnopqrstuvwxyz0123456789", "0123456789abcdef"
	airtable := func() string { return "pa" + "t" + draw(14, lc+"ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "." + draw(64, hex) }
	found := 0
	for range 8 {
		atl := draw(20, lc) + draw(4, hex)
		gen := draw(22, lc) + "zz"
		texts := []string{
			"set jira\u017f = " + atl + " done",
			"set jira\u212a = " + atl + " done",
			"set jira = \u017f" + atl[1:] + " done",
			"set token\u017f = " + gen + " done",
			"set api_key = \u212a" + gen + " done",
			"facebook\n\n" + draw(15, "0123456789") + "|" + draw(28, lc) + " here",
			"sourcegraph\n\n" + draw(40, hex) + " here",
			// A rule whose match holds no keyword is looked for in the
			// whole text: near the keyword, or far from it.
			"AIRTABLE_API_KEY=" + airtable() + "\n",
			"my airtable\n" + airtable() + " ok",
			"facebook app: " + strings.Repeat("filler words ", 30) + draw(16, "0123456789") + "%" + draw(30, lc) + " end",
			"sourcegraph " + strings.Repeat("x", 300) + " " + draw(40, hex) + " end",
			// A name that goes on past its keyword, a value with a ':'.
			"TELEGRAM_BOT_TOKEN=" + draw(9, "0123456789") + ":A" + draw(34, lc+"_-") + "\n",
			"BUNDLE_GEMS__CONTRIBSYS__COM=" + draw(8, hex) + ":" + draw(8, hex) + "\n",
			"snyk_oauth_token_for_the_ci = " + draw(8, hex) + "-" + draw(4, hex) + "-" + draw(4, hex) + "-" + draw(4, hex) + "-" + draw(12, hex) + "\n",
			"new-york-times, key = " + draw(32, lc) + "\n",
			"sonar.login.for.build.srv = " + draw(40, lc) + "\n",
			"MailchimpSDK.initialize_with_api_key = " + draw(32, hex) + "-us12\n",
			// A long s or Kelvin sign in a generic name before its
			// keyword: the match starts before it, where the allowlist
			// reads its stopword (ſchema).
			"set \u017fchema_key = " + draw(24, lc) + " done",
			"set \u212aeyvaultToStoreSecrets = " + draw(24, lc) + " done",
			// A generic match ending with a literal \n, then a name
			// whose walk back would cross into it ("n" is a word byte):
			// the next match starts where the one before ended.
			"api_token=" + draw(20, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "\\n" + "atural_key = " + draw(20, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") + " end",
			// A lead that skipped a class: "A3T" then [A-Z0-9], then 16
			// of [A-Z2-7] (a 4th character of 0, 1, 8 or 9 was dropped).
			"key A3" + "T" + draw(1, "0189") + draw(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") + " ok",
		}
		for _, text := range texts {
			for _, esc := range []string{"", "\tsee \"this\"\n"} {
				enc, _ := json.Marshal(esc + text)
				line := []byte(`{"type":"user","message":{"content":` + string(enc) + `}}`)
				found += sameFinds(t, whole, &tr, line, "review case "+strconv.Quote(text[:12]))
			}
		}
	}
	if found < 8*18 {
		t.Fatalf("only %d found", found)
	}
	t.Logf("%d found alike", found)
}

func TestMatchHolds(t *testing.T) {
	for _, c := range []struct {
		expr string
		kws  []string
		want bool
	}{
		{`(?i)key`, []string{"key"}, true},
		{`key+`, []string{"key"}, true},
		{`(?:key)?x`, []string{"key"}, false},
		{`\b((?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z2-7]{16})\b`, []string{"a3t", "akia", "asia"}, true}, // the parser factors out the A
		{`\b((?:fo1_[\w-]{43}|fm1[ar]_[a-z]{100,}|fm2_[a-z]{100,}))`, []string{"fo1_", "fm1", "fm2_"}, true},
		{`xox[os]-\d+`, []string{"xoxo", "xoxs"}, true},
		{`xox[ost]-\d+`, []string{"xoxo", "xoxs"}, false},
		{`(?:sk|rk)_(?:test|live)_[a-z]{10}`, []string{"sk_test", "sk_live", "rk_test", "rk_live"}, true},
		{`(?i)[\w.-]{0,50}?(?:linked[_-]?in)[ \t]{0,20}=`, []string{"linkedin", "linked_in", "linked-in"}, true},
		{`\b(pat[[:alnum:]]{14}\.[a-f0-9]{64})\b`, []string{"airtable"}, false},
		{`hooks.slack.com/[a-z]{40}`, []string{"hooks.slack.com"}, false}, // '.' takes any byte
		{`hooks\.slack\.com/[a-z]{40}`, []string{"hooks.slack.com"}, true},
		{`\b(sgp_[a-f0-9]{40}|[a-f0-9]{40})\b`, []string{"sgp_", "sourcegraph"}, false},
		// The review's: past 256 strings an alternation knows nothing,
		// not only its last alternatives.
		{`a(?:[c-r][c-r]|[s-z][s-z]|b)`, []string{"ab"}, false},
		{`(?:[c-r][c-r]|[s-z][s-z]|ke)y`, []string{"key"}, false},
		{`x(?:[c-r][c-r]|[s-z][s-z]|key)yz`, []string{"xkey"}, false},
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := matchHolds(re, c.kws); got != c.want {
			t.Errorf("matchHolds(%q, %q) = %v, want %v", c.expr, c.kws, got, c.want)
		}
	}
	var less []string
	for _, r := range Default().rules {
		if r.leadReady() && r.keywordless {
			less = append(less, r.ID)
		}
	}
	t.Logf("read whole: %q", less)
	for _, id := range []string{"airtable-personnal-access-token", "facebook-access-token"} {
		if !slices.Contains(less, id) {
			t.Errorf("%s: its matches hold no keyword, but it is not read whole", id)
		}
	}
	for _, id := range []string{"generic-api-key", "aws-access-token", "atlassian-api-token", "private-key"} {
		if slices.Contains(less, id) {
			t.Errorf("%s: read whole, though its matches hold a keyword", id)
		}
	}
}

// drawFrom is n bytes drawn from alphabet.
func drawFrom(rng *rand.Rand, n int, alphabet string) string {
	b := make([]byte, n)
	for k := range b {
		b[k] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// TestPoorRunAgrees: distinctRun answered from the last poor run it
// remembers is distinctRun, over random texts of few distinct bytes, places
// in order and out of it, and both ends.
func TestPoorRunAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	alphabet := []byte("key=ab12.-_ \"\n\xc3")
	for round := range 2000 {
		text := make([]byte, rng.IntN(200))
		for i := range text {
			text[i] = alphabet[rng.IntN(3+rng.IntN(len(alphabet)-2))]
		}
		end := round%2 == 0
		need := 3 + rng.IntN(10)
		var p poorRun
		v := 0
		for range 40 {
			if len(text) == 0 {
				break
			}
			if rng.IntN(5) == 0 {
				v = rng.IntN(len(text)) // out of order too
			} else if v += rng.IntN(6); v >= len(text) {
				break
			}
			if got, want := p.distinctRun(text, v, need, end), distinctRun(text, v, need, end); got != want {
				t.Fatalf("round %d: %q from %d, need %d, end %v: %v, want %v", round, text, v, need, end, got, want)
			}
		}
	}
}

// TestNewlinesAgree: newlines.bound, each line end searched for once, is
// lineBound for places in order; lineAt's bounds are lineBounds'; and
// appendApart keeps the generic matches the pairwise test keeps.
func TestNewlinesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for round := range 3000 {
		b := make([]byte, rng.IntN(80))
		for i := range b {
			b[i] = "ab\n"[rng.IntN(2+rng.IntN(2))]
		}
		str := string(b)
		nl := newlines{str: str}
		lc := newLineCtx(str)
		p := 0
		for range 20 {
			if p += rng.IntN(8); p > len(str) {
				break
			}
			end := min(len(str), p+rng.IntN(20))
			lines := rng.IntN(4) - 1
			if got, want := nl.bound(p, end, lines), lineBound(str, p, end, lines); got != want {
				t.Fatalf("round %d: bound(%q, %d, %d, %d) = %d, want %d", round, str, p, end, lines, got, want)
			}
			e := min(len(str), p+rng.IntN(5))
			ga, gb := lineAt{lc, p, e}.bounds()
			if wa, wb := lineBounds(str, p, e); ga != wa || gb != wb {
				t.Fatalf("round %d: line around %d-%d of %q: %d-%d, want %d-%d", round, p, e, str, ga, gb, wa, wb)
			}
		}
		var out, generic []Match
		for range rng.IntN(8) {
			s := rng.IntN(60)
			out = append(out, Match{Start: s, End: s + 1 + rng.IntN(10)})
		}
		for k := range rng.IntN(8) {
			s := rng.IntN(60)
			if round%2 == 0 { // apart from one another, as the generic rule's are
				s = 12 * k
			}
			generic = append(generic, Match{Start: s, End: s + 1 + rng.IntN(10)})
		}
		// The loop it replaced: each generic match against out as it
		// grows (generic matches that overlap one another are tested
		// too, though the generic rule's never do).
		want := slices.Clone(out)
		for _, g := range generic {
			overlap := false
			for _, o := range want {
				overlap = overlap || g.Start < o.End && o.Start < g.End
			}
			if !overlap {
				want = append(want, g)
			}
		}
		if got := appendApart(slices.Clone(out), generic); !slices.Equal(got, want) {
			t.Fatalf("round %d: appendApart(%v, %v) = %v, want %v", round, out, generic, got, want)
		}
	}
}
