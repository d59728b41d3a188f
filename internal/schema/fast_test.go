package schema

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// fastDirs are the real corpus and the fixtures: every line of them is compared.
var fastDirs = []string{"../../../shared/corpus/real", "../../testdata"}

// fastStats counts the comparisons of the fast check with the reference.
type fastStats struct {
	checked  int
	verdicts [4]int
}

// agree compares the fast verdict on t with the reference problems; it
// returns a description of the disagreement or "".
func agree(verdict Verdict, probs []Problem) string {
	real, unknown := 0, 0
	for _, p := range probs {
		if p.UnknownField {
			unknown++
		} else {
			real++
		}
	}
	switch verdict {
	case Valid:
		if len(probs) > 0 {
			return "fast says valid, reference reports " + probs[0].Pointer + ": " + probs[0].Message
		}
	case UnknownOnly:
		if real > 0 || unknown == 0 {
			return "fast says unknown fields only, reference disagrees"
		}
	case Invalid:
		if real == 0 {
			return "fast says invalid, reference reports no schema error"
		}
	}
	return ""
}

// compareLine checks one line with every schema that could apply to it: its
// entry type's, and history's.
func compareLine(t *testing.T, v *Validator, tr *jsontree.Tree, line []byte, where string, st *fastStats) {
	t.Helper()
	if tr.Parse(line) != nil || tr.Kind(jsontree.Root) != jsontree.Object {
		return
	}
	val, ok := decodeLine(line)
	if !ok {
		t.Fatalf("%s: jsontree accepts a line encoding/json rejects", where)
	}
	typ, _ := tr.Str(tr.Get(jsontree.Root, "type"))
	// (It may decline, too, on a line of invalid UTF-8: see fastUnknown.)
	emptyKey := bytes.Contains(line, []byte(`"":`)) || bytes.Contains(line, []byte(`"" :`)) || !utf8.Valid(line)
	if v.KnownEntryType(typ) {
		st.checked++
		fv := v.FastEntry(typ, tr)
		st.verdicts[fv]++
		ref := v.ValidateEntry(typ, val)
		if d := agree(fv, ref); d != "" {
			t.Errorf("%s (%s): %s", where, typ, d)
		}
		got, ok := v.FastUnknownEntry(typ, tr)
		if d := agreeUnknown(fv, got, ok, ref, emptyKey); d != "" {
			t.Errorf("%s (%s): %s", where, typ, d)
		}
	}
	st.checked++
	fv := v.FastHistory(tr)
	st.verdicts[fv]++
	ref := v.ValidateHistory(val)
	if d := agree(fv, ref); d != "" {
		t.Errorf("%s (as history): %s", where, d)
	}
	got, ok := v.FastUnknownHistory(tr)
	if d := agreeUnknown(fv, got, ok, ref, emptyKey); d != "" {
		t.Errorf("%s (as history): %s", where, d)
	}
}

// agreeUnknown compares the fast check's unknown fields (FastUnknownEntry's
// got and ok) with the reference's problems ref: on an UnknownOnly line they
// must be the same problems, field by field, in the same order; on any
// other, the fast check must decline. It may decline too on a line with an
// empty key (emptyKey), whose pointers jsonschema/v5 writes without it.
func agreeUnknown(verdict Verdict, got []Problem, ok bool, ref []Problem, emptyKey bool) string {
	if verdict != UnknownOnly {
		if ok || got != nil {
			return "fast unknown fields given for a " + verdict.String() + " line"
		}
		return ""
	}
	if !ok {
		if emptyKey {
			return ""
		}
		return "fast unknown fields declined on an unknown-only line"
	}
	if len(got) != len(ref) {
		return fmt.Sprintf("fast finds %d unknown fields, the reference %d", len(got), len(ref))
	}
	for i := range got {
		// The shape, which only the fast check gives: the pointer with some
		// of its numbers (the array items) as "*" (TestMemberPlaces says
		// which).
		g := got[i]
		ps, ss := strings.Split(g.Pointer, "/"), strings.Split(g.Shape, "/")
		if len(ps) != len(ss) {
			return fmt.Sprintf("unknown field %d: shape %q of pointer %q", i, g.Shape, g.Pointer)
		}
		for k := range ps {
			if ps[k] != ss[k] && (ss[k] != "*" || strings.Trim(ps[k], "0123456789") != "") {
				return fmt.Sprintf("unknown field %d: shape %q of pointer %q", i, g.Shape, g.Pointer)
			}
		}
		g.Shape = ""
		if g, r := fmt.Sprintf("%#v", g), fmt.Sprintf("%#v", ref[i]); g != r {
			return fmt.Sprintf("unknown field %d: fast %s, reference %s", i, g, r)
		}
	}
	return ""
}

func corpusLines(t testing.TB, fn func(where string, line []byte)) {
	for _, dir := range fastDirs {
		if _, err := os.Stat(dir); err != nil {
			t.Logf("skipping %s: %v", dir, err)
			continue
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 1<<30)
			for n := 1; sc.Scan(); n++ {
				fn(p+":"+itoa(n), sc.Bytes())
			}
			return sc.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func itoa(n int) string {
	b := []byte{}
	for n >= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(append([]byte{byte('0' + n)}, b...))
}

// TestFastCorpus compares the fast check with jsonschema/v5 on every line of
// the corpus and the fixtures.
func TestFastCorpus(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var tr jsontree.Tree
	var st fastStats
	lines := 0
	corpusLines(t, func(where string, line []byte) {
		lines++
		compareLine(t, v, &tr, line, where, &st)
	})
	t.Logf("%d lines; %d checks: %d valid, %d unknown-only, %d invalid, %d unsure", lines, st.checked,
		st.verdicts[Valid], st.verdicts[UnknownOnly], st.verdicts[Invalid], st.verdicts[Unsure])
	if st.checked == 0 {
		t.Skip("no corpus")
	}
}

// mutate returns line with one value replaced or one member removed.
func mutate(tr *jsontree.Tree, line []byte, rng *rand.Rand) []byte {
	if tr.Parse(line) != nil || len(tr.Nodes) < 2 {
		return nil
	}
	i := 1 + rng.IntN(len(tr.Nodes)-1)
	nd := tr.Nodes[i]
	start, end := int(nd.Start), int(nd.End)
	if nd.Kind == jsontree.String {
		start, end = start-1, end+1
	}
	repl := []string{`null`, `0`, `-1`, `1.5`, `7`, `"x"`, `""`, `{}`, `[]`, `true`, `"2025-01-01T00:00:00Z"`,
		`"yesterday"`, `{"type":"text"}`, `[{"type":"tool_use"}]`, `"\u0041"`, `1e2`, `{"zz":1}`}
	r := repl[rng.IntN(len(repl))]
	if rng.IntN(4) == 0 {
		// Remove or duplicate a member: find an object key.
		for k := range tr.Nodes {
			if tr.Nodes[k].Kind == jsontree.Object && tr.Nodes[k].Len > 0 && rng.IntN(3) == 0 {
				key := k + 1
				val := key + 1
				ks, ve := int(tr.Nodes[key].Start)-1, int(tr.Nodes[val].End)
				if tr.Nodes[val].Kind == jsontree.String {
					ve++
				}
				member := string(line[ks:ve])
				if rng.IntN(2) == 0 {
					return []byte(string(line[:ks]) + member + "," + string(line[ks:]))
				}
				rest := strings.TrimPrefix(string(line[ve:]), ",")
				return []byte(string(line[:ks]) + rest)
			}
		}
	}
	return []byte(string(line[:start]) + r + string(line[end:]))
}

// TestFastMutations compares the verdicts on corpus lines with one value
// changed: most of them are invalid in some way.
func TestFastMutations(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var tr, tr2 jsontree.Tree
	var st fastStats
	n := 0
	corpusLines(t, func(where string, line []byte) {
		if len(line) > 64<<10 {
			return
		}
		for k := 0; k < 4; k++ {
			m := mutate(&tr, line, rng)
			if m == nil {
				return
			}
			n++
			compareLine(t, v, &tr2, m, where+" mutated to "+string(m), &st)
		}
	})
	t.Logf("%d mutated lines; %d checks: %d valid, %d unknown-only, %d invalid, %d unsure", n, st.checked,
		st.verdicts[Valid], st.verdicts[UnknownOnly], st.verdicts[Invalid], st.verdicts[Unsure])
}

// FuzzSchema mutates corpus lines and compares the fast check with jsonschema/v5.
//
//	go test ./internal/schema -run '^$' -fuzz FuzzSchema -fuzztime 60s
func FuzzSchema(f *testing.F) {
	count := 0
	corpusLines(f, func(where string, line []byte) {
		if len(line) < 4<<10 && count < 400 && bytes.HasPrefix(line, []byte("{")) {
			count++
			f.Add(line)
		}
	})
	f.Add([]byte(`{"display":"x","timestamp":1,"project":"/p","pastedContents":{}}`))
	v, err := New()
	if err != nil {
		f.Fatal(err)
	}
	var tr jsontree.Tree
	f.Fuzz(func(t *testing.T, data []byte) {
		var st fastStats
		compareLine(t, v, &tr, data, "fuzz input", &st)
	})
}

// benchLines is the first 16 MB of the corpus's transcript lines (those
// under a projects/ folder) and their size; it skips the benchmark without
// the corpus.
func benchLines(b *testing.B) ([][]byte, int) {
	var lines [][]byte
	size := 0
	corpusLines(b, func(where string, line []byte) {
		if strings.Contains(where, "/projects/") && size < 16<<20 {
			lines = append(lines, append([]byte(nil), line...))
			size += len(line)
		}
	})
	if len(lines) == 0 {
		b.Skip("no corpus")
	}
	return lines, size
}

func BenchmarkFastSchema(b *testing.B) {
	v, err := New()
	if err != nil {
		b.Fatal(err)
	}
	lines, size := benchLines(b)
	trees := make([]jsontree.Tree, len(lines))
	types := make([]string, len(lines))
	for i, l := range lines {
		_ = trees[i].Parse(l)
		types[i], _ = trees[i].Str(trees[i].Get(jsontree.Root, "type"))
	}
	// The checks are compiled on first use: compile them before timing.
	if err := v.fast.compileAll(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i := range trees {
			if trees[i].Kind(jsontree.Root) == jsontree.Object {
				v.FastEntry(types[i], &trees[i])
			}
		}
	}
}

// BenchmarkFastSchemaHot is the fast check as the lint runs it, on a line
// it has just parsed (in the cache): "parse" parses each line into one
// reused tree, "check" parses and checks it; the check costs the
// difference. BenchmarkFastSchema (and BenchmarkStages/schema) check
// trees parsed long before, mostly out of the cache.
func BenchmarkFastSchemaHot(b *testing.B) {
	v, err := New()
	if err != nil {
		b.Fatal(err)
	}
	lines, size := benchLines(b)
	if err := v.fast.compileAll(); err != nil {
		b.Fatal(err)
	}
	for _, check := range []bool{false, true} {
		b.Run(map[bool]string{false: "parse", true: "check"}[check], func(b *testing.B) {
			var t jsontree.Tree
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, l := range lines {
					if t.Parse(l) != nil || t.Kind(jsontree.Root) != jsontree.Object || !check {
						continue
					}
					typ, _ := t.Str(t.Get(jsontree.Root, "type"))
					v.FastEntry(typ, &t)
				}
			}
		})
	}
}

// TestFastDecidesOracle: the fast check decides every line 2.1.330 writes
// (none is "unsure", which would send it through the slow validator), and
// agrees with jsonschema/v5 on them.
func TestFastDecidesOracle(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "testdata", "oracle")
	var tr jsontree.Tree
	n := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || d.Name() == "history.jsonl" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range bytes.Split(data, []byte("\n")) {
			if tr.Parse(line) != nil || tr.Kind(jsontree.Root) != jsontree.Object {
				continue
			}
			typ, _ := tr.Str(tr.Get(jsontree.Root, "type"))
			if !v.KnownEntryType(typ) {
				t.Errorf("%s:%d: unknown type %q", p, i+1, typ)
				continue
			}
			n++
			if fv := v.FastEntry(typ, &tr); fv != Valid {
				t.Errorf("%s:%d (%s): fast verdict %v, want valid", p, i+1, typ, fv)
			}
		}
		return nil
	})
	if err != nil || n < 400 {
		t.Fatalf("%d lines: %v", n, err)
	}
}

// TestFastManyKeysDuplicates checks objects past the size where the duplicate-key bloom
// filter saturates (the check then looks at the whole object once): a duplicate key far
// from its first occurrence must still be seen, and the verdicts must agree
// with the reference. A line of a million keys once took minutes here.
func TestFastManyKeysDuplicates(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var tr jsontree.Tree
	var st fastStats
	filler := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(`"k` + itoa(i) + `":` + itoa(i) + `,`)
		}
		return b.String()
	}
	good := `{"display":"x","pastedContents":{},"timestamp":1,"project":"/x",`
	lines := []string{
		// Unknown keys only.
		good + filler(300) + `"last":1}`,
		// The first timestamp is invalid, the last (the one encoding/json keeps) valid.
		`{"display":"x","pastedContents":{},"timestamp":"bad",` + filler(300) + `"project":"/x","timestamp":1}`,
		// The reverse: the kept one is invalid.
		`{"display":"x","pastedContents":{},"timestamp":1,` + filler(300) + `"project":"/x","timestamp":"bad"}`,
		// A duplicate unknown key 300 keys apart.
		good + filler(300) + `"k0":1}`,
	}
	for i, l := range lines {
		compareLine(t, v, &tr, []byte(l), "line "+itoa(i), &st)
		if tr.Parse([]byte(l)) != nil {
			t.Fatal("bad test line")
		}
		if i > 0 && v.FastHistory(&tr) != Unsure {
			t.Errorf("line %d: a duplicate key must leave the verdict to the reference, got %d", i, v.FastHistory(&tr))
		}
	}
}

// escapeKey returns line with key node k written with its first byte as a
// \u escape (the same key once decoded), or nil.
func escapeKey(tr *jsontree.Tree, line []byte, k int) []byte {
	nd := tr.Nodes[k]
	if nd.End <= nd.Start || nd.Esc {
		return nil
	}
	c := line[nd.Start]
	esc := []byte{'\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15]}
	if c >= 0x80 {
		return nil
	}
	out := append([]byte{}, line[:nd.Start]...)
	out = append(out, esc...)
	return append(out, line[nd.Start+1:]...)
}

// TestFastEscapedKeys checks that a key written with an escape is decided
// as encoding/json decodes it: the corpus lines with one key escaped get the
// verdict of the line as written (the fast check no longer gives up on
// them, as it did on every Windows file-history snapshot), and a key
// repeated under an escape is still a duplicate.
func TestFastEscapedKeys(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var tr, tr2 jsontree.Tree
	var st fastStats
	corpusLines(t, func(where string, line []byte) {
		if len(line) > 16<<10 || tr.Parse(line) != nil || tr.Kind(jsontree.Root) != jsontree.Object {
			return
		}
		typ, _ := tr.Str(tr.Get(jsontree.Root, "type"))
		if !v.KnownEntryType(typ) {
			return
		}
		before := v.FastEntry(typ, &tr)
		var keys []int
		for k := range tr.Nodes {
			if tr.Nodes[k].Kind == jsontree.Object {
				for m, kk := 0, k+1; m < int(tr.Nodes[k].Len); m++ {
					keys = append(keys, kk)
					kk = tr.Next(kk + 1)
				}
			}
		}
		if len(keys) == 0 {
			return
		}
		for n := 0; n < 2; n++ {
			k := keys[rng.IntN(len(keys))]
			m := escapeKey(&tr, line, k)
			if m == nil {
				continue
			}
			compareLine(t, v, &tr2, m, where+" with a key escaped: "+string(m), &st)
			if tr2.Parse(m) != nil {
				t.Fatalf("%s: escaping a key broke the line", where)
			}
			if after := v.FastEntry(typ, &tr2); before != Unsure && after != before {
				t.Errorf("%s: %v as written, %v with key %q escaped", where, before, after, tr.RawBytes(k))
			}
		}
	})
	if st.checked == 0 {
		t.Skip("no corpus")
	}
	t.Logf("%d checks: %d valid, %d unknown-only, %d invalid, %d unsure", st.checked,
		st.verdicts[Valid], st.verdicts[UnknownOnly], st.verdicts[Invalid], st.verdicts[Unsure])
	snap := func(files string) string {
		return `{"type":"file-history-snapshot","messageId":"2a0d3217-71d9-4109-b9f0-b6cf705ace4b","snapshot":{"messageId":"2a0d3217-71d9-4109-b9f0-b6cf705ace4b","trackedFileBackups":{` +
			files + `},"timestamp":"2025-12-17T01:45:54.136Z"},"isSnapshotUpdate":false}`
	}
	backup := `{"backupFileName":"bc69aebc005fe953@v1","version":1,"backupTime":"2025-12-17T01:46:22.096Z"}`
	for _, c := range []struct {
		line string
		want Verdict
	}{
		{snap(`"C:\\Users\\me\\app\\main.go":` + backup), Valid},
		{snap(`"C:\\Users\\me\\a.go":` + backup + `,"C:\\Users\\me\\b.go":` + backup), Valid},
		{snap(`"C:\\Users\\me\\a.go":` + backup + `,"C:\u005cUsers\\me\\a.go":` + backup), Unsure}, // one key twice
		{snap(`"C:\\Users\\me\\a.go":{"backupFileName":null,"version":1,"backupTime":"2025-12-17T01:46:22.096Z"}`), Valid},
		{snap(`"C:\\Users\\me\\a.go":{"version":1,"backupTime":"2025-12-17T01:46:22.096Z"}`), Invalid},
		{strings.Replace(snap(`"C:\\a.go":`+backup), `"type"`, `"\u0074ype"`, 1), Valid},
		{strings.Replace(snap(`"C:\\a.go":`+backup), `"messageId"`, `"message\u0049d"`, 1), Valid},
		{strings.Replace(snap(`"C:\\a.go":`+backup), `,"isSnapshotUpdate":false`, `,"isSnapshotUpdate":false,"isSnapshot\u0055pdate":true`, 1), Unsure},
	} {
		if tr.Parse([]byte(c.line)) != nil {
			t.Fatalf("bad case %s", c.line)
		}
		var st fastStats
		compareLine(t, v, &tr2, []byte(c.line), "case "+c.line, &st)
		if got := v.FastEntry("file-history-snapshot", &tr); got != c.want {
			t.Errorf("%s: %v, want %v", c.line, got, c.want)
		}
	}
}

// insertMembers returns line with n members added to objects chosen at
// random (the root among them): new names, and names the schemas declare
// somewhere but maybe not there, so that unknown fields sit at every depth,
// inside declared fields and beside one another.
func insertMembers(tr *jsontree.Tree, line []byte, n int, rng *rand.Rand) []byte {
	if tr.Parse(line) != nil {
		return nil
	}
	var objects []int
	for i := range tr.Nodes {
		if tr.Nodes[i].Kind == jsontree.Object {
			objects = append(objects, i)
		}
	}
	if len(objects) == 0 {
		return nil
	}
	names := []string{"zzNew", "brandNewField", "uuid", "type", "text", "usage", "content", "speed", "id", "caller", "isMeta"}
	values := []string{`1`, `"x"`, `null`, `{}`, `{"zzInner":1}`, `[]`, `[{"zz":1}]`, `true`}
	at := map[int][]string{} // byte offset after '{' -> members to insert there
	for range n {
		o := objects[rng.IntN(len(objects))]
		if rng.IntN(3) == 0 {
			o = jsontree.Root
		}
		off := int(tr.Nodes[o].Start) + 1
		at[off] = append(at[off], `"`+names[rng.IntN(len(names))]+itoa(rng.IntN(3))+`":`+values[rng.IntN(len(values))])
	}
	offs := make([]int, 0, len(at))
	for off := range at {
		offs = append(offs, off)
	}
	slices.Sort(offs)
	var b bytes.Buffer
	last := 0
	for _, off := range offs {
		b.Write(line[last:off])
		b.WriteString(strings.Join(at[off], ","))
		if line[off] != '}' {
			b.WriteByte(',')
		}
		last = off
	}
	b.Write(line[last:])
	return b.Bytes()
}

// TestFastUnknownInserted compares the fast check's unknown fields with the
// reference's on corpus lines with members added at random.
func TestFastUnknownInserted(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var tr, tr2 jsontree.Tree
	var st fastStats
	n := 0
	corpusLines(t, func(where string, line []byte) {
		if len(line) > 64<<10 {
			return
		}
		for k := 1; k <= 3; k++ {
			m := insertMembers(&tr, line, k, rng)
			if m == nil {
				return
			}
			n++
			compareLine(t, v, &tr2, m, where+" with members added: "+string(m), &st)
		}
	})
	t.Logf("%d lines with members added; %d checks: %d valid, %d unknown-only, %d invalid, %d unsure", n, st.checked,
		st.verdicts[Valid], st.verdicts[UnknownOnly], st.verdicts[Invalid], st.verdicts[Unsure])
}

// BenchmarkUnknownFields lists the unknown fields of the corpus's lines
// with one member added at the root (as a newer Claude Code writes them):
// "fast" is FastUnknownEntry on the parsed line, "reference" what it
// replaces, jsonschema/v5 on the decoded line (decoding included).
func BenchmarkUnknownFields(b *testing.B) {
	v, err := New()
	if err != nil {
		b.Fatal(err)
	}
	lines, size := benchLines(b)
	var trees []jsontree.Tree
	var types []string
	for _, l := range lines {
		if !bytes.HasPrefix(l, []byte("{")) {
			continue
		}
		m := append([]byte(`{"brandNewField":1,`), l[1:]...)
		var t jsontree.Tree
		typ := ""
		if t.Parse(m) == nil {
			typ, _ = t.Str(t.Get(jsontree.Root, "type"))
		}
		if v.FastEntry(typ, &t) == UnknownOnly {
			trees, types = append(trees, t), append(types, typ)
		}
	}
	if len(trees) == 0 {
		b.Skip("no unknown-only line")
	}
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for i := range trees {
				if _, ok := v.FastUnknownEntry(types[i], &trees[i]); !ok {
					b.Fatal("declined")
				}
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for i := range trees {
				val, _, err := jsontree.Decode(trees[i].Raw)
				if err != nil {
					b.Fatal(err)
				}
				v.ValidateEntryTree(types[i], val, &trees[i])
			}
		}
	})
}
