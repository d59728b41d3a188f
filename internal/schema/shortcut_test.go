package schema

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// plainValidator returns a Validator whose fast check runs without the
// shortcuts compiled on top of the schemas (tagged-union dispatch, pure
// $ref nodes skipped, $ref to plain object schemas merged, type-only and
// scalar schemas checked inline): every
// keyword is applied one by one, as jsonschema/v5 does.
func plainValidator(t testing.TB) *Validator {
	t.Helper()
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*fnode]bool{}
	cleared := 0
	var walk func(n *fnode)
	walk = func(n *fnode) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if n.union != nil {
			cleared++
		}
		if n.pure || n.flat != nil || n.leaf || n.scalar {
			cleared++
		}
		n.union, n.pure, n.flat, n.leaf, n.scalar = nil, false, nil, false, false
		for _, ki := range n.keys {
			walk(ki.prop)
		}
		for _, s := range append([]*fnode{n.addl, n.uneval, n.ref, n.not, n.ifs, n.then, n.els, n.items}, n.allOf...) {
			walk(s)
		}
	}
	if err := v.fast.compileAll(); err != nil {
		t.Fatal(err)
	}
	for _, r := range v.fast.entries {
		walk(r.n)
	}
	walk(v.fast.history.n)
	if cleared < 2 {
		t.Fatalf("%d shortcuts compiled, want at least content blocks and system subtypes", cleared)
	}
	return v
}

// TestFastShortcutsAgree: the fast check gives the same verdict with and
// without its shortcuts, on the corpus, its mutations and lines made to
// hit the shortcuts' edge cases. The one exception: a value checked
// against a type-only schema is not walked, so a duplicate or escaped key
// inside it (which cannot change the result) no longer makes the check
// unsure (likewise for a schema of scalar keywords); those verdicts are
// compared with the reference instead.
func TestFastShortcutsAgree(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	plain := plainValidator(t)
	var tr, ref jsontree.Tree
	var st fastStats
	n, unions := 0, 0
	decided := 0
	// same reports a disagreement, except where the plain check is unsure
	// and the shortcut decides: then the reference must agree.
	same := func(where string, got, want Verdict, ref func() []Problem) {
		switch {
		case got == want:
		case want == Unsure:
			decided++
			if d := agree(got, ref()); d != "" {
				t.Errorf("%s: %v with shortcuts (unsure without), but %s", where, got, d)
			}
		default:
			t.Errorf("%s: %v with shortcuts, %v without", where, got, want)
		}
	}
	check := func(where string, line []byte) {
		if tr.Parse(line) != nil || tr.Kind(jsontree.Root) != jsontree.Object {
			return
		}
		n++
		val := func() any {
			d, ok := decodeLine(line)
			if !ok {
				t.Fatalf("%s: does not decode", where)
			}
			return d
		}
		typ, _ := tr.Str(tr.Get(jsontree.Root, "type"))
		if v.KnownEntryType(typ) {
			same(where+" ("+typ+")", v.FastEntry(typ, &tr), plain.FastEntry(typ, &tr),
				func() []Problem { return v.ValidateEntry(typ, val()) })
		}
		same(where+" (as history)", v.FastHistory(&tr), plain.FastHistory(&tr),
			func() []Problem { return v.ValidateHistory(val()) })
	}
	block := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/p","sessionId":"5eac5945-4cf4-4f5c-a46a-1f8dacb407aa",` +
		`"version":"2.1.0","type":"assistant","uuid":"295d5bee-e9dc-45da-b74c-f094d30baa80","timestamp":"2025-01-01T00:00:00Z",` +
		`"message":{"id":"m","type":"message","role":"assistant","model":"x","content":[BLOCK],"stop_reason":null,"stop_sequence":null,` +
		`"usage":{"input_tokens":1,"output_tokens":1}}}`
	for _, b := range []string{
		`{"type":"text","text":"hi"}`, `{"type":"te\u0078t","text":"hi"}`, `{"t\u0079pe":"text","text":"hi"}`,
		`{"type":"text","type":"text","text":"hi"}`, `{"type":"text"}`, `{"type":"text","text":1}`,
		`{"type":"nope","text":"hi"}`, `{"type":1}`, `{"type":null}`, `{}`, `{"type":"tool_use","id":"x","name":"n","input":{}}`,
		`{"type":"tool_use","id":"x","name":"n","input":{},"zz":1}`, `{"type":"thinking","thinking":"a","signature":"s"}`,
		`{"type":"thinking","thinking":"a"}`, `{"type":"thinking","thinking":"a","signature":"s","zz":{}}`,
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}`, `"text"`, `[]`, `null`,
	} {
		unions++
		line := []byte(strings.Replace(block, "BLOCK", b, 1))
		check("block "+b, line)
		compareLine(t, v, &ref, line, "block "+b, &st)
	}
	sys := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/p","sessionId":"5eac5945-4cf4-4f5c-a46a-1f8dacb407aa",` +
		`"version":"2.1.0","type":"system","uuid":"295d5bee-e9dc-45da-b74c-f094d30baa80","timestamp":"2025-01-01T00:00:00Z",MEMBERS}`
	for _, m := range []string{
		`"subtype":"turn_duration","durationMs":5`, `"subtype":"turn_duration"`, `"subtype":"turn_d\u0075ration","durationMs":5`,
		`"s\u0075btype":"turn_duration","durationMs":5`, `"subtype":"turn_duration","subtype":"turn_duration","durationMs":5`,
		`"subtype":"brand_new","anything":1`, `"subtype":"brand_new"`, `"subtype":1`, `"subtype":null`, `"content":"x"`,
		`"subtype":"informational","content":"x","level":"info"`, `"subtype":"informational","content":"x","level":"loud"`,
		`"subtype":"compact_boundary","zz":1`, `"subtype":"api_error","level":"error"`,
	} {
		unions++
		line := []byte(strings.Replace(sys, "MEMBERS", m, 1))
		check("system "+m, line)
		compareLine(t, v, &ref, line, "system "+m, &st)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var mt jsontree.Tree
	corpusLines(t, func(where string, line []byte) {
		check(where, line)
		if len(line) > 64<<10 {
			return
		}
		for k := 0; k < 3; k++ {
			if m := mutate(&mt, line, rng); m != nil {
				check(where+" mutated", m)
			}
		}
	})
	t.Logf("%d lines compared (%d made for the union dispatch); %d verdicts only the shortcuts decide", n, unions, decided)
}
