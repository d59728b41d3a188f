package schema

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// pruneStats counts what the pruning comparisons covered.
type pruneStats struct {
	compared, pruned, prunedInvalid int
}

// comparePruned checks that ValidateEntryTree (content blocks the fast check
// proves valid left out) reports exactly what ValidateEntry reports on the
// whole line. all compares lines the fast check calls valid too.
func comparePruned(t *testing.T, v *Validator, tr *jsontree.Tree, line []byte, where string, all bool, st *pruneStats) {
	t.Helper()
	if tr.Parse(line) != nil || tr.Kind(jsontree.Root) != jsontree.Object {
		return
	}
	typ, _ := tr.Str(tr.Get(jsontree.Root, "type"))
	if !prunable[typ] {
		return
	}
	if !all && v.FastEntry(typ, tr) == Valid {
		return
	}
	val, ok := decodeLine(line)
	if !ok {
		t.Fatalf("%s: jsontree accepts a line encoding/json rejects", where)
	}
	st.compared++
	want := v.ValidateEntry(typ, val)
	if p, ok := v.pruneBlocks(val, tr); ok {
		st.pruned++
		if len(p.keep) > 0 {
			st.prunedInvalid++
		}
	}
	got := v.ValidateEntryTree(typ, val, tr)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: pruned reference disagrees:\n got %+v\nwant %+v", where, got, want)
	}
}

// TestPrunedCorpus compares the pruned reference with the whole one on
// every user and assistant line of the corpus and the fixtures the fast
// check does not call valid, and on every tenth line it does.
func TestPrunedCorpus(t *testing.T) {
	v := validator(t)
	var tr jsontree.Tree
	var st pruneStats
	n := 0
	corpusLines(t, func(where string, line []byte) {
		n++
		comparePruned(t, v, &tr, line, where, n%10 == 0, &st)
	})
	t.Logf("%d lines compared, %d pruned, %d of them keeping some block", st.compared, st.pruned, st.prunedInvalid)
}

// blockMutation returns line with a value inside message.content changed
// (most often), else anywhere.
func blockMutation(tr *jsontree.Tree, line []byte, rng *rand.Rand) []byte {
	if tr.Parse(line) != nil {
		return nil
	}
	ci := tr.Path(jsontree.Root, "message", "content")
	if tr.Kind(ci) != jsontree.Array || tr.Len(ci) == 0 || rng.IntN(4) == 0 {
		return mutate(tr, line, rng)
	}
	lo, hi := ci+1, tr.Next(ci)
	if hi <= lo {
		return mutate(tr, line, rng)
	}
	i := lo + rng.IntN(hi-lo)
	nd := tr.Nodes[i]
	start, end := int(nd.Start), int(nd.End)
	if nd.Kind == jsontree.String {
		start, end = start-1, end+1
	}
	repl := []string{`null`, `0`, `"x"`, `""`, `{}`, `[]`, `true`, `{"type":"text"}`, `{"type":"text","text":"a","zz":1}`,
		`{"type":"tool_use","id":"t","name":"n","input":{}}`, `{"type":"nope"}`, `[{"type":"tool_use"}]`, `"\u0041"`, `1e2`}
	return []byte(string(line[:start]) + repl[rng.IntN(len(repl))] + string(line[end:]))
}

// TestPrunedMutations compares the two on user and assistant lines with one
// or two values changed, most inside the content blocks.
func TestPrunedMutations(t *testing.T) {
	v := validator(t)
	rng := rand.New(rand.NewPCG(3, 4))
	var tr, tr2 jsontree.Tree
	var st pruneStats
	corpusLines(t, func(where string, line []byte) {
		entry := bytes.Contains(line, []byte(`"type":"user"`)) || bytes.Contains(line, []byte(`"type":"assistant"`))
		if len(line) > 64<<10 || !entry {
			return
		}
		for k := 0; k < 3; k++ {
			m := blockMutation(&tr, line, rng)
			if m != nil && rng.IntN(2) == 0 {
				m = blockMutation(&tr, m, rng)
			}
			if m == nil {
				continue
			}
			comparePruned(t, v, &tr2, m, where+" mutated to "+string(m), true, &st)
		}
	})
	t.Logf("%d mutated lines compared, %d pruned, %d of them keeping some block", st.compared, st.pruned, st.prunedInvalid)
}

// FuzzPruned compares the pruned reference with the whole one.
//
//	go test ./internal/schema -run '^$' -fuzz FuzzPruned -fuzztime 60s
func FuzzPruned(f *testing.F) {
	count := 0
	corpusLines(f, func(where string, line []byte) {
		if len(line) < 4<<10 && count < 300 && bytes.Contains(line, []byte(`"content":[`)) {
			count++
			f.Add(line)
		}
	})
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"text"},{"type":"text","text":"b"}]}}`))
	v := validator(f)
	var tr jsontree.Tree
	f.Fuzz(func(t *testing.T, data []byte) {
		var st pruneStats
		comparePruned(t, v, &tr, data, "fuzz input "+string(data), true, &st)
	})
}

// TestPrunableSchemas checks the shape pruneBlocks relies on: in the
// schemas of the prunable types, message.content is only
// {"type": ..., "items": {"$ref": "content-block.json"}}, and no schema
// has a keyword that looks at an array's items together.
func TestPrunableSchemas(t *testing.T) {
	v := validator(t)
	for _, name := range Names() {
		src, _ := Source(name)
		for _, kw := range []string{"unevaluatedItems", "contains", "minItems", "maxItems", "uniqueItems", "prefixItems"} {
			if bytes.Contains(src, []byte(`"`+kw+`"`)) {
				t.Errorf("schema %s uses %s: pruneBlocks must be revisited", name, kw)
			}
		}
	}
	for typ := range prunable {
		doc, err := v.cat.doc(baseURL + typ + ".json")
		if err != nil {
			t.Fatal(err)
		}
		m := doc.(map[string]any)
		for k := range m {
			switch k {
			case "$schema", "$id", "title", "description", "type", "$ref", "properties", "required", "unevaluatedProperties":
			default:
				t.Errorf("%s.json has %q: pruneBlocks must be revisited", typ, k)
			}
		}
		if m["$ref"] != "defs/envelope.json" {
			t.Errorf("%s.json: $ref %v", typ, m["$ref"])
		}
		msg := m["properties"].(map[string]any)["message"].(map[string]any)
		ref, _ := msg["$ref"].(string)
		if len(msg) != 1 || !strings.HasPrefix(ref, "defs/message-") {
			t.Fatalf("%s.json message is %v", typ, msg)
		}
		md, err := v.cat.doc(baseURL + ref)
		if err != nil {
			t.Fatal(err)
		}
		mm := md.(map[string]any)
		for k := range mm {
			switch k {
			case "$schema", "$id", "title", "description", "type", "properties", "required", "unevaluatedProperties":
			default:
				t.Errorf("%s has %q: pruneBlocks must be revisited", ref, k)
			}
		}
		content := mm["properties"].(map[string]any)["content"].(map[string]any)
		items, _ := content["items"].(map[string]any)
		if len(content) != 2 || content["type"] == nil || len(items) != 1 || items["$ref"] != "content-block.json" {
			t.Errorf("%s content is %v", ref, content)
		}
	}
	env, _ := v.cat.doc(baseURL + "defs/envelope.json")
	for k := range env.(map[string]any) {
		switch k {
		case "$schema", "$id", "title", "description", "type", "properties", "required":
		default:
			t.Errorf("envelope.json has %q: pruneBlocks must be revisited", k)
		}
	}
	if _, ok := env.(map[string]any)["properties"].(map[string]any)["message"]; ok {
		t.Error("envelope.json declares message: pruneBlocks must be revisited")
	}
}

// TestPrunedMixedBlocks compares the two on user and assistant lines whose
// content is rebuilt from 2 to 6 blocks of the corpus, some of them mutated,
// sometimes with the entry damaged too: the kept blocks' problems must come
// back at their own index.
func TestPrunedMixedBlocks(t *testing.T) {
	v := validator(t)
	rng := rand.New(rand.NewPCG(5, 6))
	var tr, tr2 jsontree.Tree
	var blocks [][]byte
	type host struct{ pre, post []byte }
	var hosts []host
	corpusLines(t, func(_ string, line []byte) {
		if len(line) > 16<<10 || tr.Parse(line) != nil {
			return
		}
		ci := tr.Path(jsontree.Root, "message", "content")
		if tr.Kind(ci) != jsontree.Array {
			return
		}
		if len(hosts) < 400 && tr.Len(ci) > 0 {
			s, e := int(tr.Nodes[ci].Start), int(tr.Nodes[ci].End)
			if s >= 0 && e <= len(line) && line[s] == '[' && line[e-1] == ']' {
				hosts = append(hosts, host{append([]byte(nil), line[:s]...), append([]byte(nil), line[e:]...)})
			}
		}
		for k, i := 0, tr.Child(ci); k < tr.Len(ci) && len(blocks) < 2000; k, i = k+1, tr.Next(i) {
			if tr.Kind(i) == jsontree.Object {
				blocks = append(blocks, append([]byte(nil), line[tr.Nodes[i].Start:tr.Nodes[i].End]...))
			}
		}
	})
	if len(hosts) == 0 || len(blocks) == 0 {
		t.Skip("no corpus")
	}
	var st pruneStats
	for n := 0; n < 6000; n++ {
		h := hosts[rng.IntN(len(hosts))]
		var b bytes.Buffer
		b.Write(h.pre)
		b.WriteByte('[')
		for k, nb := 0, 2+rng.IntN(5); k < nb; k++ {
			if k > 0 {
				b.WriteByte(',')
			}
			blk := blocks[rng.IntN(len(blocks))]
			if rng.IntN(3) == 0 {
				if m := mutate(&tr, blk, rng); m != nil {
					blk = m
				}
			}
			b.Write(blk)
		}
		b.WriteByte(']')
		b.Write(h.post)
		line := b.Bytes()
		if rng.IntN(3) == 0 {
			if m := mutate(&tr, line, rng); m != nil {
				line = m
			}
		}
		comparePruned(t, v, &tr2, line, "built line "+string(line), true, &st)
	}
	t.Logf("%d built lines compared, %d pruned, %d of them keeping some block", st.compared, st.pruned, st.prunedInvalid)
	if st.prunedInvalid == 0 {
		t.Error("no built line kept some block: the test covers nothing")
	}
}

// identRE is what isIdent implements.
var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// TestIsIdent compares isIdent with identRE on every string of up to three
// bytes over an alphabet of each character class and its borders, and on
// random strings.
func TestIsIdent(t *testing.T) {
	alpha := []byte("aAzZ_$09-@[`{/:. \x00\x7f\x80\xc3\xa9\xff~")
	var rec func(s []byte)
	rec = func(s []byte) {
		if isIdent(string(s)) != identRE.MatchString(string(s)) {
			t.Errorf("isIdent(%q) = %v", s, isIdent(string(s)))
		}
		if len(s) == 3 {
			return
		}
		for _, c := range alpha {
			rec(append(s, c))
		}
	}
	rec(nil)
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		if isIdent(string(b)) != identRE.MatchString(string(b)) {
			t.Errorf("isIdent(%q) = %v", b, isIdent(string(b)))
		}
	}
	for _, s := range []string{"message", "stop_sequence", "trackedFileBackups", "src/a.go", "a\n", "\na", "é"} {
		if isIdent(s) != identRE.MatchString(s) {
			t.Errorf("isIdent(%q) = %v", s, isIdent(s))
		}
	}
}
