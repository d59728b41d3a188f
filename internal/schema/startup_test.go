package schema

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/schemas"
)

// BenchmarkStartup is what a run pays before its first line: reading the
// embedded schema documents and building a Validator.
func BenchmarkStartup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		cat, err := readCatalog(schemas.FS)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := newValidator(cat); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCompileAll: every embedded schema compiles with jsonschema/v5 (New
// leaves that to the first line that needs it).
func TestCompileAll(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.compileAll(); err != nil {
		t.Fatal(err)
	}
}

// TestLazyCompileConcurrent: validators compiled on first use from many
// goroutines at once give the answer of one compiled alone (run with -race).
func TestLazyCompileConcurrent(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	types := v.EntryTypes()
	bad := map[string]any{"type": 1}
	want := map[string]int{}
	solo, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range types {
		want[typ] = len(solo.ValidateEntry(typ, bad))
	}
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for k := range types {
				typ := types[(k+g*7)%len(types)]
				if got := len(v.ValidateEntry(typ, bad)); got != want[typ] {
					t.Errorf("%s: %d problems, want %d", typ, got, want[typ])
				}
			}
			_ = v.ValidateHistory(bad)
			_ = v.ValidateTodos(bad)
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// TestLazyFastConcurrent: fast checks compiled on first use from several
// goroutines at once give the verdicts of checks compiled up front (run
// with -race).
func TestLazyFastConcurrent(t *testing.T) {
	var lines [][]byte
	corpusLines(t, func(where string, line []byte) {
		if len(lines) < 3000 && len(line) < 32<<10 {
			lines = append(lines, append([]byte(nil), line...))
		}
	})
	if len(lines) == 0 {
		t.Skip("no corpus")
	}
	eager, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if err := eager.fast.compileAll(); err != nil {
		t.Fatal(err)
	}
	types := eager.EntryTypes()
	want := make([][]Verdict, len(lines))
	var tr jsontree.Tree
	for i, l := range lines {
		if tr.Parse(l) != nil || tr.Kind(jsontree.Root) != jsontree.Object {
			continue
		}
		for _, typ := range types {
			want[i] = append(want[i], eager.FastEntry(typ, &tr))
		}
		want[i] = append(want[i], eager.FastHistory(&tr))
	}
	lazy, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tr jsontree.Tree
			for k := range lines {
				i := (k + g*len(lines)/4) % len(lines)
				if want[i] == nil || tr.Parse(lines[i]) != nil {
					continue
				}
				for j := range types {
					typ := types[(j+g*5)%len(types)]
					if got := lazy.FastEntry(typ, &tr); got != want[i][(j+g*5)%len(types)] {
						t.Errorf("line %d as %s: %v, want %v", i, typ, got, want[i][(j+g*5)%len(types)])
						return
					}
				}
				if got := lazy.FastHistory(&tr); got != want[i][len(types)] {
					t.Errorf("line %d as history: %v, want %v", i, got, want[i][len(types)])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkStartupFirstLines is BenchmarkStartup plus the fast check of a
// first user and assistant line, which compiles the checks of those types.
func BenchmarkStartupFirstLines(b *testing.B) {
	env := `"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/p",` +
		`"sessionId":"5eac5945-4cf4-4f5c-a46a-1f8dacb407aa","version":"2.1.0",` +
		`"uuid":"295d5bee-e9dc-45da-b74c-f094d30baa80","timestamp":"2025-01-01T00:00:00Z",`
	lines := map[string]string{
		"user": `{` + env + `"type":"user","message":{"role":"user","content":"hi"}}`,
		"assistant": `{` + env + `"type":"assistant","message":{"id":"m","type":"message","role":"assistant","model":"x",` +
			`"content":[{"type":"text","text":"hi"}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`,
	}
	trees := map[string]*jsontree.Tree{}
	for typ, l := range lines {
		trees[typ] = new(jsontree.Tree)
		if err := trees[typ].Parse([]byte(l)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		cat, err := readCatalog(schemas.FS)
		if err != nil {
			b.Fatal(err)
		}
		v, err := newValidator(cat)
		if err != nil {
			b.Fatal(err)
		}
		for typ, tr := range trees {
			if got := v.FastEntry(typ, tr); got != Valid {
				b.Fatalf("%s: %v", typ, got)
			}
		}
	}
}

// TestCatalogDocs: every embedded schema document decodes and carries the
// $id of its path (New leaves decoding to first use), and the known block
// types and system subtypes are found.
func TestCatalogDocs(t *testing.T) {
	cat, err := readCatalog(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range cat.names {
		if _, err := cat.doc(baseURL + name + ".json"); err != nil {
			t.Error(err)
		}
	}
	if _, err := cat.doc(baseURL + "nope.json"); err == nil {
		t.Error("an unknown document decodes")
	}
	blocks, subtypes := cat.known()
	if !blocks["text"] || !blocks["tool_use"] || !subtypes["compact_boundary"] {
		t.Errorf("known block types %v, subtypes %v", blocks, subtypes)
	}
	if !cat.declared()["parentUuid"] || cat.declared()["brandNewField"] {
		t.Error("declared property names are wrong")
	}
}

// TestBrokenSchemaLazily: a schema document that does not decode, found
// only on first use now, leaves the fast check unsure and the reference
// reports that it cannot validate, instead of passing lines.
func TestBrokenSchemaLazily(t *testing.T) {
	doc := func(id, body string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"$id":"` + baseURL + id + `",` + body + `}`)}
	}
	fsys := fstest.MapFS{
		"history.json": doc("history.json", `"type":"object"`),
		"todos.json":   doc("todos.json", `"type":"array"`),
		"user.json":    doc("wrong.json", `"type":"object"`),
		"bad.json":     {Data: []byte(`{"$id":`)},
	}
	cat, err := readCatalog(fsys)
	if err != nil {
		t.Fatal(err)
	}
	v, err := newValidator(cat)
	if err != nil {
		t.Fatal(err)
	}
	var tr jsontree.Tree
	if err := tr.Parse([]byte(`{"type":"user"}`)); err != nil {
		t.Fatal(err)
	}
	if got := v.FastHistory(&tr); got != Valid {
		t.Errorf("history: %v, want valid", got)
	}
	for _, typ := range []string{"user", "bad"} {
		if got := v.FastEntry(typ, &tr); got != Unsure {
			t.Errorf("%s: fast verdict %v, want unsure", typ, got)
		}
		probs := v.ValidateEntry(typ, map[string]any{"type": "user"})
		if len(probs) != 1 || !strings.HasPrefix(probs[0].Message, "cannot validate") {
			t.Errorf("%s: problems %+v", typ, probs)
		}
	}
}

// TestWarm: Warm compiles the fast checks of the types it is given (an
// unknown one is passed over) and no other, while lines of those types are
// checked on other goroutines (run with -race); the verdicts are those of a
// validator that was not warmed.
func TestWarm(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`)
	var tr jsontree.Tree
	if err := tr.Parse(line); err != nil {
		t.Fatal(err)
	}
	cold, err := New()
	if err != nil {
		t.Fatal(err)
	}
	want := cold.FastEntry("user", &tr)
	var wg sync.WaitGroup
	wg.Go(func() { v.Warm("user", "no-such-type", "assistant") })
	for range 2 {
		wg.Go(func() {
			var mine jsontree.Tree
			if err := mine.Parse(line); err != nil {
				t.Error(err)
				return
			}
			if got := v.FastEntry("user", &mine); got != want {
				t.Errorf("FastEntry while warming = %v, want %v", got, want)
			}
		})
	}
	wg.Wait()
	for typ, compiled := range map[string]bool{"user": true, "assistant": true, "system": false} {
		ki, ok := v.fast.types.getStr(typ)
		if !ok {
			t.Fatalf("no fast root for %q", typ)
		}
		if got := v.fast.list[ki.req].n != nil; got != compiled {
			t.Errorf("%s compiled = %v, want %v", typ, got, compiled)
		}
	}
}

// TestUnreadableNumber: a number whose exponent math/big refuses made the
// reference validator panic (jsonschema/v5 dereferences the nil *big.Rat of
// a failed parse; FuzzSchema found {"timestamp":1e1000001}). It is a
// problem at the number's place instead, and the numbers it can read are
// still checked.
func TestUnreadableNumber(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line, ptr string
	}{
		{`{"display":"x","timestamp":1e1000001,"project":"/p","sessionId":"s"}`, "/timestamp"},
		{`{"timestamp":1e1000001}`, "/timestamp"},
		{`{"display":"x","timestamp":-1E+99999999999,"project":"/p"}`, "/timestamp"},
	} {
		value, err := decodeNumbers([]byte(c.line))
		if err != nil {
			t.Fatal(err)
		}
		probs := v.ValidateHistory(value)
		found := false
		for _, p := range probs {
			if p.Pointer == c.ptr && strings.Contains(p.Message, "beyond what the schema validator reads") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: problems %+v, want one at %s about the number", c.line, probs, c.ptr)
		}
	}
}

func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
