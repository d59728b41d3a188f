package jsontree

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsonpos"
)

// corpusDirs are the real corpus (beside the repository) and the fixtures.
var corpusDirs = []string{"../../../shared/corpus/real", "../../testdata"}

// reference is what the engine did before jsontree: encoding/json's Decoder
// with UseNumber, then only white space may follow. It returns the value, or
// the offset of the error (len(raw) at the end of the input).
func reference(raw []byte) (any, int, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, int(se.Offset) - 1, false
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return nil, len(raw), false
		default:
			return nil, -1, false
		}
	}
	end := int(dec.InputOffset())
	for end < len(raw) && isSpace(raw[end]) {
		end++
	}
	if end < len(raw) {
		return nil, end, false
	}
	return v, 0, true
}

// compare checks one input against the reference and returns a description
// of the disagreement, or "".
func compare(t *Tree, raw []byte) string {
	want, wantOff, wantOK := reference(raw)
	err := t.Parse(raw)
	if wantOK != (err == nil) {
		return "accept/reject differs: encoding/json ok=" + boolStr(wantOK) + ", jsontree err=" + errStr(err)
	}
	if err != nil {
		var je *Error
		if !errors.As(err, &je) {
			return "error is not *Error: " + err.Error()
		}
		if je.Off != wantOff {
			return "error offset differs: encoding/json " + itoa(wantOff) + ", jsontree " + itoa(je.Off) + " (" + err.Error() + ")"
		}
		return ""
	}
	if !utf8.Valid(raw) {
		return "" // encoding/json replaces invalid bytes; the engine reports them first
	}
	if got := t.Value(Root); !reflect.DeepEqual(got, want) {
		return "value differs"
	}
	if t.NULEscape != holdsNUL(want) {
		return "NULEscape is " + boolStr(t.NULEscape)
	}
	if jsonpos.LoneSurrogate(raw) >= 0 && !t.Surrogate {
		return "lone surrogate but Surrogate is false"
	}
	for i, nd := range t.Nodes {
		if nd.Kind == String && nd.UEsc != holdsUEsc(t.RawBytes(i)) {
			return "node " + itoa(i) + ": UEsc is " + boolStr(nd.UEsc)
		}
	}
	return ""
}

// holdsUEsc reports whether the contents of a valid JSON string hold a \u
// escape, read escape by escape.
func holdsUEsc(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' {
			if raw[i+1] == 'u' {
				return true
			}
			i++
		}
	}
	return false
}

// holdsNUL reports whether a decoded value holds a NUL in a string or key.
func holdsNUL(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.IndexByte(x, 0) >= 0
	case []any:
		for _, e := range x {
			if holdsNUL(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.IndexByte(k, 0) >= 0 || holdsNUL(e) {
				return true
			}
		}
	}
	return false
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func errStr(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

func itoa(n int) string { return strconv.Itoa(n) }

var cases = []string{
	``, ` `, `{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `01`, `-01`, `00`, `1.`, `.5`, `+1`, `1e`, `1e+`,
	`1e5`, `1E-5`, `1.5e+10`, `-`, `--1`, `NaN`, `Infinity`, `-Infinity`, `nul`, `nulll`, `truex`, `tru`, `fals`,
	`"abc`, `"a\"b"`, `"\u00e9"`, `"\ud83c\udf89"`, `"\ud83c"`, `"\udf89\ud83c"`, `"\ud83cx"`, `"\ud83c\u0041"`,
	`"\x"`, `"\u12"`, `"\u12G4"`, `"\'"`, "\"a\tb\"", "\"a\x01b\"", "\"\x7f\"", `"\/\b\f\n\r\t\\"`, `"\u0000"`,
	`{"a":1,"a":2}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{a:1}`, `{"a":1 "b":2}`,
	`[1 2]`, `[1] [2]`, `{} {}`, `{}x`, ` {"a" : [ 1 , 2 ] } `, "\t\r\n{}\n", `[[[]]]`, `[01]`, `[-]`, `[1.e1]`,
	`{"\u0061":1,"a":2}`, `{"a":{"b":[true,false,null,"x",1.5]}}`, `"` + "\xff" + `"`, "\xef\xbb\xbf{}", `[1,2`,
	`{"a":1`, `{"a"`, `{"a":`, `{`, `[`, `"\`, `"\u`, `123 456`, `1 `, ` 1x`, `[1x]`, `{"a":1x}`, `/`, `}`, `]`,
	`"\u00"`, `"\\u0000"`, `"\\\u0000"`, `"\uDFFF"`, `"\uD7FF"`, `"\ue000"`, `1.5.5`, `0x10`, `1e5e5`, `-0.0e-0`, `[true, fals]`,
}

func TestParseCases(t *testing.T) {
	var tr Tree
	for _, c := range cases {
		if d := compare(&tr, []byte(c)); d != "" {
			t.Errorf("%q: %s", c, d)
		}
	}
}

func TestDepth(t *testing.T) {
	var tr Tree
	for _, depth := range []int{MaxDepth - 1, MaxDepth, MaxDepth + 1, 3 * MaxDepth} {
		for _, open := range []string{"[", `{"a":`} {
			close := "]"
			if open != "[" {
				close = "}"
			}
			raw := []byte(strings.Repeat(open, depth) + strings.Repeat(close, depth))
			if d := compare(&tr, raw); d != "" {
				t.Errorf("depth %d %s: %s", depth, open, d)
			}
			if d := compare(&tr, raw[:len(raw)/2]); d != "" {
				t.Errorf("depth %d %s, cut: %s", depth, open, d)
			}
		}
	}
}

// TestCorpus compares every line of the real corpus and of testdata/ (and
// every prefix cut of a sample of them) with encoding/json.
func TestCorpus(t *testing.T) {
	var tr Tree
	lines, cuts, files := 0, 0, 0
	for _, dir := range corpusDirs {
		if _, err := os.Stat(dir); err != nil {
			t.Logf("skipping %s: %v", dir, err)
			continue
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || (!strings.HasSuffix(p, ".jsonl") && !strings.HasSuffix(p, ".json")) {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			if strings.HasSuffix(p, ".json") {
				if d := compare(&tr, data); d != "" {
					t.Errorf("%s: %s", p, d)
				}
				return nil
			}
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 1<<30)
			n := 0
			for sc.Scan() {
				n++
				lines++
				line := sc.Bytes()
				if d := compare(&tr, line); d != "" {
					t.Errorf("%s:%d: %s", p, n, d)
				}
				if lines%97 == 0 && len(line) > 2 {
					for _, k := range []int{len(line) / 3, len(line) / 2, len(line) - 1} {
						cuts++
						if d := compare(&tr, line[:k]); d != "" {
							t.Errorf("%s:%d cut at %d: %s", p, n, k, d)
						}
					}
				}
			}
			return sc.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("compared %d lines and %d cut lines of %d files with encoding/json", lines, cuts, files)
}

func TestAccessors(t *testing.T) {
	var tr Tree
	raw := []byte(`{"type":"user","a":1,"a":{"b":[10,"x\u0000y",{"c":"d\"e"}]},"k\u0061":true}`)
	if err := tr.Parse(raw); err != nil {
		t.Fatal(err)
	}
	if s, ok := tr.Str(tr.Get(Root, "type")); !ok || s != "user" {
		t.Errorf("type = %q %v", s, ok)
	}
	arr := tr.Path(Root, "a", "b")
	if tr.Kind(arr) != Array || tr.Len(arr) != 3 {
		t.Fatalf("a.b kind %v len %d", tr.Kind(arr), tr.Len(arr))
	}
	if !tr.HasNUL(tr.Index(arr, 1)) || tr.HasNUL(tr.Index(arr, 2)) {
		t.Error("HasNUL")
	}
	if s, _ := tr.Str(tr.Get(tr.Index(arr, 2), "c")); s != `d"e` {
		t.Errorf("c = %q", s)
	}
	if v, ok := tr.Bool(tr.Get(Root, "ka")); !v || !ok {
		t.Error("escaped key")
	}
	if tr.Get(Root, "zz") != -1 || tr.Index(arr, 3) != -1 {
		t.Error("missing member")
	}
}

func TestSteadyStateAllocs(t *testing.T) {
	var tr Tree
	raw := []byte(`{"parentUuid":null,"type":"user","message":{"role":"user","content":[{"type":"text","text":"h\u00e9llo"}]},"n":[1,2,3.5e3]}`)
	_ = tr.Parse(raw)
	if n := testing.AllocsPerRun(100, func() { _ = tr.Parse(raw) }); n != 0 {
		t.Errorf("Parse allocates %v times per run", n)
	}
}

// FuzzParse compares jsontree with encoding/json on arbitrary bytes, with
// each string scan the machine has.
//
//	go test ./internal/jsontree -run '^$' -fuzz FuzzParse -fuzztime 60s
func FuzzParse(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Add([]byte(`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u"}`))
	var tr Tree
	modes := scans()
	saved, saved64 := wide, wide64
	defer func() { wide, wide64 = saved, saved64 }()
	f.Fuzz(func(t *testing.T, data []byte) {
		// Padded past 32 bytes too, for the AVX2 scan.
		padded := append(append([]byte{}, data...), "                                "...)
		for _, m := range modes {
			wide, wide64 = m.wide, m.wide64
			if d := compare(&tr, data); d != "" {
				t.Fatalf("%s: %q: %s", m.name, data, d)
			}
			if d := compare(&tr, padded); d != "" {
				t.Fatalf("%s: %q: %s", m.name, padded, d)
			}
		}
	})
}

func BenchmarkParse(b *testing.B) { benchParse(b, 16<<20) }

// BenchmarkParseWarm parses the first MiB of the corpus, which stays in
// cache: as the lint parses a line, just after framing read it.
func BenchmarkParseWarm(b *testing.B) { benchParse(b, 1<<20) }

func benchParse(b *testing.B, size int) {
	var data []byte
	for _, dir := range corpusDirs[:1] {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && len(data) < 16<<20 {
				if b, err := os.ReadFile(p); err == nil {
					data = append(data, b...)
				}
			}
			return nil
		})
	}
	if len(data) == 0 {
		b.Skip("no corpus")
	}
	if len(data) > size {
		data = data[:bytes.LastIndexByte(data[:size], '\n')+1]
	}
	lines := bytes.Split(data, []byte("\n"))
	var tr Tree
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, l := range lines {
			_ = tr.Parse(l)
		}
	}
}

// AppendStr decodes as encoding/json does: escapes, surrogate pairs, lone
// surrogates and invalid UTF-8 (U+FFFD), whatever runs lie between escapes.
func TestAppendStrRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	pieces := []string{"a", "key", " ", `\n`, `\"`, `\\`, `\/`, `\t`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\udc00x`, `\u0041`,
		"é", "\xff", "\xc3", "\xe2\x82", "€", "\xed\xa0\x80", "\xf0\x9f\x98\x80"}
	var tr Tree
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		b.WriteByte('"')
		for k := rng.IntN(12); k > 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		b.WriteByte('"')
		raw := []byte(b.String())
		var want string
		if json.Unmarshal(raw, &want) != nil || tr.Parse(raw) != nil {
			continue
		}
		if got := string(tr.AppendStr(nil, Root)); got != want {
			t.Fatalf("%q: got %q, want %q", raw, got, want)
		}
		if utf8.Valid(raw) {
			if got := string(tr.AppendStrUTF8(nil, Root)); got != want {
				t.Fatalf("%q: AppendStrUTF8 gives %q, want %q", raw, got, want)
			}
		}
	}
}

// TestRemember checks that a member remembered after a walk of the members
// is what Get gives: the last member of that name, or none.
func TestRemember(t *testing.T) {
	var tr Tree
	src := `{"a":1,"b":2,"c":3,"message":{"x":1},"d":4,"e":5,"f":6,"message":{"x":2},"g":7}`
	if err := tr.Parse([]byte(src)); err != nil {
		t.Fatal(err)
	}
	root := TreeVal(&tr)
	num := func(v Val) string { s, _ := v.Number(); return s }
	want := num(root.Get("message").Get("x"))
	if err := tr.Parse([]byte(src)); err != nil { // empties the memo
		t.Fatal(err)
	}
	root = TreeVal(&tr)
	var msg, none Val
	for key, v := range root.KeyMembers() {
		if string(key) == "message" {
			msg = v
		}
	}
	root.Remember("message", msg)
	root.Remember("nothing", none)
	if got := num(root.Get("message").Get("x")); got != want || want != "2" {
		t.Errorf("message.x after Remember: %q, Get alone %q, want 2", got, want)
	}
	if root.Get("nothing").Exists() {
		t.Error("a member remembered as missing exists")
	}
	if got := num(root.Get("g")); got != "7" {
		t.Errorf("g: %q", got)
	}
}

// TestRootType checks the root's "type" that Parse remembers against
// encoding/json: the last member of that name, also when one is spelled
// with an escape, or none.
func TestRootType(t *testing.T) {
	pad := `"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,`
	for _, src := range []string{
		`{` + pad + `"type":"user"}`,
		`{"type":"user",` + pad + `"type":"assistant"}`,
		`{"type":"user",` + pad + `"typ\u0065":"system"}`,
		`{"typ\u0065":"system",` + pad + `"type":"user"}`,
		`{` + pad + `"x":{"type":"inner"}}`,
		`{` + pad + `"type":{"type":"inner"},"h":[{"type":"x"}]}`,
		`{"type":"a","b":1}`,
	} {
		var tr Tree
		if err := tr.Parse([]byte(src)); err != nil {
			t.Fatal(src, err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(src), &m); err != nil {
			t.Fatal(err)
		}
		got := TreeVal(&tr).Get("type")
		want, ok := m["type"]
		if got.Exists() != ok {
			t.Errorf("%s: type exists %v, want %v", src, got.Exists(), ok)
			continue
		}
		if s, isStr := want.(string); isStr && got.String() != s {
			t.Errorf("%s: type %q, want %q", src, got.String(), s)
		}
		if _, isObj := want.(map[string]any); isObj && got.Kind() != Object {
			t.Errorf("%s: type is not the object", src)
		}
	}
}
