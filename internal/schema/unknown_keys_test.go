package schema

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// oddKeys are member texts inserted into every object of corpus lines.
var oddKeys = []string{
	`"\u0074ype":"x"`, `"zz\u0074":1`, `"a/b":1`, `"a~b":1`, `"~0/1":1`, `"é":1`, "\"a\xffb\":1", `"\ud800":1`,
	`"a\"b":1`, `"a.b":1`, `"0":1`, `" ":1`, `"a\u0000b":1`, `"zz":1,"zz":2`, `"zz":1,"z\u007a":2`,
	"\"a\xff\":1,\"a\xfe\":2", `"\ud800":1,"\udc00":2`, `"\u00e9":1,"é":2`, `"zz":{"yy":[{"xx":1}]}`,
	`"zz":[{"a/b":1},{"c~d":2}]`, `"text":{"zz":1}`, `"content":[{"zz":1}]`, `"input":{"zz":1}`,
	`"toolUseResult":{"zz":1}`, `"message":{"zz":1}`, `"type":"user"`, `"isSidechain":true,"zz":1`,
}

func insertAt(line []byte, off int, member string) []byte {
	var b bytes.Buffer
	b.Write(line[:off])
	b.WriteString(member)
	if line[off] != '}' {
		b.WriteByte(',')
	}
	b.Write(line[off:])
	return b.Bytes()
}

func TestFastUnknownEveryObject(t *testing.T) {
	if testing.Short() {
		t.Skip("every object of 10 corpus lines per entry type, 27 variants each")
	}
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var tr, tr2 jsontree.Tree
	var st fastStats
	n, bad := 0, 0
	seen := map[string]int{}
	check := func(where string, m []byte) {
		n++
		if bad > 40 {
			return
		}
		before := t.Failed()
		_ = before
		compareLine(t, v, &tr2, m, where+": "+string(m[:min(len(m), 600)]), &st)
		// also against ValidateEntryTree (what model used before)
		if tr2.Parse(m) != nil || tr2.Kind(jsontree.Root) != jsontree.Object {
			return
		}
		typ, _ := tr2.Str(tr2.Get(jsontree.Root, "type"))
		if !v.KnownEntryType(typ) {
			return
		}
		val, _, err := jsontree.Decode(m)
		if err != nil {
			return
		}
		ref := v.ValidateEntryTree(typ, val, &tr2)
		fv := v.FastEntry(typ, &tr2)
		got, ok := v.FastUnknownEntry(typ, &tr2)
		emptyKey := bytes.Contains(m, []byte(`"":`)) || !utf8.Valid(m)
		if d := agreeUnknown(fv, got, ok, ref, emptyKey); d != "" {
			bad++
			t.Errorf("%s vs ValidateEntryTree (%s): %s\n%s", where, typ, d, m[:min(len(m), 600)])
		}
	}
	corpusLines(t, func(where string, line []byte) {
		if len(line) > 16<<10 || tr.Parse(line) != nil {
			return
		}
		typ, _ := tr.Str(tr.Get(jsontree.Root, "type"))
		if seen[typ] > 9 {
			return
		}
		seen[typ]++
		var objs []int
		for i := range tr.Nodes {
			if tr.Nodes[i].Kind == jsontree.Object {
				objs = append(objs, int(tr.Nodes[i].Start)+1)
			}
		}
		for j, off := range objs {
			keys := oddKeys
			if j >= 40 {
				keys = keys[:4] // deep objects: fewer variants
			}
			for _, k := range keys {
				check(where, insertAt(line, off, k))
			}
		}
		// many unknowns at root and in the deepest object
		for _, cnt := range []int{99, 100, 101, 150} {
			var ms []string
			for j := range cnt {
				ms = append(ms, fmt.Sprintf(`"zz%03d":%d`, cnt-j, j))
			}
			check(where+" many", insertAt(line, objs[0], strings.Join(ms, ",")))
			check(where+" many deep", insertAt(line, objs[len(objs)-1], strings.Join(ms, ",")))
		}
	})
	t.Logf("%d lines; %d checks: %d valid, %d unknown-only, %d invalid, %d unsure", n, st.checked,
		st.verdicts[Valid], st.verdicts[UnknownOnly], st.verdicts[Invalid], st.verdicts[Unsure])
}

// TestFastUnknownEscaped: declared keys and discriminator values written with
// escapes, with an unknown member added in every object.
func TestFastUnknownEscaped(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var tr, tr2 jsontree.Tree
	var st fastStats
	esc := func(line []byte) [][]byte {
		a := bytes.ReplaceAll(line, []byte(`"type":`), []byte(`"\u0074ype":`))
		b := line
		for _, c := range "abcdefghijklmnopqrstuvwxyz_" {
			b = bytes.ReplaceAll(b, []byte(`"type":"`+string(c)), []byte(fmt.Sprintf(`"type":"\u%04x`, c)))
		}
		c := line
		for _, k := range []string{"message", "content", "input", "toolUseResult", "usage", "attachment", "data", "snapshot"} {
			c = bytes.ReplaceAll(c, []byte(`"`+k+`":`), []byte(`"\u`+fmt.Sprintf("%04x", k[0])+k[1:]+`":`))
		}
		return [][]byte{a, b, c, bytes.ReplaceAll(b, []byte(`"type":`), []byte(`"\u0074ype":`))}
	}
	seen := map[string]int{}
	corpusLines(t, func(where string, line []byte) {
		if len(line) > 16<<10 || tr.Parse(line) != nil {
			return
		}
		typ, _ := tr.Str(tr.Get(jsontree.Root, "type"))
		if seen[typ] > 60 {
			return
		}
		seen[typ]++
		for _, e := range esc(line) {
			if tr.Parse(e) != nil {
				continue
			}
			var offs []int
			for i := range tr.Nodes {
				if tr.Nodes[i].Kind == jsontree.Object {
					offs = append(offs, int(tr.Nodes[i].Start)+1)
				}
			}
			// one unknown member in every object at once, and one at a time
			var b bytes.Buffer
			last := 0
			for _, off := range offs {
				b.Write(e[last:off])
				b.WriteString(`"zzQ":1`)
				if e[off] != '}' {
					b.WriteByte(',')
				}
				last = off
			}
			b.Write(e[last:])
			compareLine(t, v, &tr2, b.Bytes(), where+" escaped, all: "+b.String(), &st)
			for _, off := range offs[:min(len(offs), 20)] {
				compareLine(t, v, &tr2, insertAt(e, off, `"zzQ":{"a":[1]}`), where+" escaped", &st)
			}
		}
	})
	t.Logf("%d checks: %d valid, %d unknown-only, %d invalid, %d unsure", st.checked,
		st.verdicts[Valid], st.verdicts[UnknownOnly], st.verdicts[Invalid], st.verdicts[Unsure])
}

// FuzzFastUnknown holds FastUnknownEntry to the reference (both
// ValidateEntry and ValidateEntryTree) on lines grown from corpus lines
// with unknown members added.
func FuzzFastUnknown(f *testing.F) {
	var tr jsontree.Tree
	count := 0
	corpusLines(f, func(where string, line []byte) {
		if len(line) < 4<<10 && count < 300 && bytes.HasPrefix(line, []byte("{")) && tr.Parse(line) == nil {
			count++
			off := int(tr.Nodes[len(tr.Nodes)-1].Start)
			for i := len(tr.Nodes) - 1; i >= 0; i-- {
				if tr.Nodes[i].Kind == jsontree.Object {
					off = int(tr.Nodes[i].Start) + 1
					break
				}
			}
			f.Add(insertAt(line, 1, `"zzR":1`))
			f.Add(insertAt(line, off, `"zzD":[{"q":1}]`))
		}
	})
	v, err := New()
	if err != nil {
		f.Fatal(err)
	}
	var t1, t2 jsontree.Tree
	f.Fuzz(func(t *testing.T, data []byte) {
		if t1.Parse(data) != nil || t1.Kind(jsontree.Root) != jsontree.Object {
			return
		}
		val, _, err := jsontree.Decode(data)
		if err != nil {
			return
		}
		decline := bytes.Contains(data, []byte(`"":`)) || bytes.Contains(data, []byte(`"" :`)) || !utf8.Valid(data)
		typ, _ := t1.Str(t1.Get(jsontree.Root, "type"))
		if v.KnownEntryType(typ) {
			fv := v.FastEntry(typ, &t1)
			got, ok := v.FastUnknownEntry(typ, &t1)
			if d := agreeUnknown(fv, got, ok, v.ValidateEntry(typ, val), decline); d != "" && (ok || fv == UnknownOnly && !decline) {
				t.Errorf("%s: %s", typ, d)
			}
			_ = t2.Parse(data)
			if d := agreeUnknown(fv, got, ok, v.ValidateEntryTree(typ, val, &t2), decline); d != "" && (ok || fv == UnknownOnly && !decline) {
				t.Errorf("%s (tree): %s", typ, d)
			}
		}
		fv := v.FastHistory(&t1)
		got, ok := v.FastUnknownHistory(&t1)
		if d := agreeUnknown(fv, got, ok, v.ValidateHistory(val), decline); d != "" && (ok || fv == UnknownOnly && !decline) {
			t.Errorf("history: %s", d)
		}
	})
}
