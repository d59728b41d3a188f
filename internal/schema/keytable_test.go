package schema

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// TestKeyTable: every compiled schema's key table finds each of its keys
// with the right keyInfo, and nothing else.
func TestKeyTable(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := compileFast(v.cat)
	for _, name := range v.cat.names {
		if _, err := c.at(baseURL + name + ".json#"); err != nil {
			t.Fatal(err)
		}
	}
	for loc, n := range c.done {
		if n.ktab.m != nil {
			t.Logf("%s: its keys fall back to a map", loc)
		}
		for k, want := range n.keys {
			got, ok := n.ktab.get([]byte(k))
			if !ok || got != want {
				t.Errorf("%s: key %q: got %+v %v, want %+v", loc, k, got, ok, want)
			}
			for _, other := range []string{k + "x", "x" + k, strings.ToUpper(k), k[:len(k)/2]} {
				if _, named := n.keys[other]; named {
					continue
				}
				if _, ok := n.ktab.get([]byte(other)); ok {
					t.Errorf("%s: key %q found though not named", loc, other)
				}
			}
		}
	}
	// Keys no seed can separate by their sampled bytes fall back to a map.
	kt := newKeyTable(map[string]keyInfo{"abcXeYgh": {req: 0}, "abcZeWgh": {req: 1}})
	if kt.m == nil {
		t.Error("keys with the same sampled bytes got a perfect hash")
	}
	for i, k := range []string{"abcXeYgh", "abcZeWgh"} {
		if ki, ok := kt.get([]byte(k)); !ok || ki.req != i {
			t.Errorf("%q: got %+v %v", k, ki, ok)
		}
	}
}

// TestFastManyKeys: an object with many keys is checked in linear time, and a
// duplicate key anywhere in it leaves the verdict to the reference.
func TestFastManyKeys(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const n = 200_000
	var b strings.Builder
	b.WriteString(`{"display":"x","timestamp":1,"project":"/p","pastedContents":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":{"id":1,"type":"text"}`)
	}
	line := b.String()
	var tr jsontree.Tree
	for _, c := range []struct {
		line string
		want Verdict
	}{
		{line + `}}`, Valid},
		{line + `,"k5":{"id":1,"type":"text"}}}`, Unsure},
	} {
		if err := tr.Parse([]byte(c.line)); err != nil {
			t.Fatal(err)
		}
		if got := v.FastHistory(&tr); got != c.want {
			t.Errorf("got %v, want %v", got, c.want)
		}
	}
}

// TestKnownEntryTypeTable: the type table knows exactly the entry types
// with a schema.
func TestKnownEntryTypeTable(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for typ := range v.entries {
		if !v.KnownEntryType(typ) {
			t.Errorf("%q: not known", typ)
		}
		if ki, ok := v.fast.types.getStr(typ); !ok || v.fast.list[ki.req] != v.fast.entries[typ] {
			t.Errorf("%q: wrong schema", typ)
		}
		for _, other := range []string{typ + "x", "x" + typ, strings.ToUpper(typ), typ[:len(typ)/2], ""} {
			if _, named := v.entries[other]; !named && v.KnownEntryType(other) {
				t.Errorf("%q known", other)
			}
		}
	}
	for _, typ := range []string{"history", "todos", "defs/usage", "usage"} {
		if v.KnownEntryType(typ) {
			t.Errorf("%q known", typ)
		}
	}
}
