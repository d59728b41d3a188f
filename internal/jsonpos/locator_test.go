package jsonpos

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// locatorDocs are documents the Locator must answer as Find does:
// well formed, with duplicate keys, escapes, code points of every width,
// and cut or malformed at every kind of place.
var locatorDocs = []string{
	`{"a":1,"b":{"c":[1,{"d":"x"},[2,3]],"e":"é"},"a":2}`,
	`{"message":{"content":[{"type":"tool_use","id":"t0","name":"Bash"},{"type":"tool_use","id":"t1"}]},"uuid":"u"}`,
	`  {"k\"ey":"v","k~y":{"x/y":[true,false,null]},"€":"ü"} `,
	`{"a":[1,2,3`,
	`{"a":{"b":1,"c"}}`,
	`{"a":1,"b":2,x:3,"a":4}`,
	`{"a":[,1],"b":"\ud800"}`,
	`[{"a":1},{"a":2},{"a":[{"b":"日本語"}]}]`,
	`{"a":"\u00e9\\","b":["]","}",{"c":"{"}]}`,
	"{\"a\":\"\xff\xfe\",\"b\":[1]}",
	`"just a string"`,
	``,
	`{"a":1,"a":{"b":[0,1,2]},"c":3}`,
}

// locatorPtrs are pointers to try on each document.
var locatorPtrs = []string{"", "/", "/a", "/a/b", "/a/b/1", "/a/0", "/a/1", "/a/2", "/a/-1", "/a/x", "/b", "/b/c", "/b/c/1",
	"/b/c/1/d", "/b/c/2/1", "/b/e", "/k\"ey", "/k~0y", "/k~0y/x~1y/2", "/€", "/message/content/1/id",
	"/message/content/0/name", "/message/content/2", "/uuid", "/0/a", "/2/a/0/b", "/1", "/c", "/b/0", "a"}

// TestLocatorAgreesWithFind: Find, Value and Column through a Locator
// answer as the functions do, asked once or many times in any order.
func TestLocatorAgreesWithFind(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, doc := range locatorDocs {
		d := []byte(doc)
		l := NewLocator(d)
		for round := range 3 {
			ptrs := append([]string(nil), locatorPtrs...)
			rnd.Shuffle(len(ptrs), func(i, j int) { ptrs[i], ptrs[j] = ptrs[j], ptrs[i] })
			for _, p := range ptrs {
				for _, key := range []bool{false, true} {
					wo, wk := Find(d, p, key)
					if gotOff, gk := l.Find(p, key); gotOff != wo || gk != wk {
						t.Fatalf("%q %q key=%v round %d: Locator %d %v, Find %d %v", doc, p, key, round, gotOff, gk, wo, wk)
					}
				}
			}
			for off := -1; off <= len(d)+1; off++ {
				if got, want := l.Column(off), Column(d, off); got != want {
					t.Fatalf("%q: Column(%d) = %d, want %d", doc, off, got, want)
				}
			}
		}
	}
}

// TestLocatorLong: a line of many blocks and code points of every width,
// past several checkpoints, asked about every block.
func TestLocatorLong(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"message":{"content":[`)
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"tool_use","id":"toolu_%d","name":"é€😀%d","input":{"n":%d}}`, i, i, i)
	}
	b.WriteString(`]},"uuid":"x"}`)
	d := []byte(b.String())
	l := NewLocator(d)
	for i := 2999; i >= 0; i -= 7 {
		p := fmt.Sprintf("/message/content/%d/id", i)
		wo, wk := Find(d, p, false)
		gotOff, gk := l.Find(p, false)
		if gotOff != wo || gk != wk || l.Column(gotOff) != Column(d, wo) {
			t.Fatalf("%s: Locator %d %v col %d, Find %d %v col %d", p, gotOff, gk, l.Column(gotOff), wo, wk, Column(d, wo))
		}
	}
}

// FuzzLocator holds the Locator to Find and Column on any bytes.
func FuzzLocator(f *testing.F) {
	for _, d := range locatorDocs {
		f.Add([]byte(d), "/a/1", "/b/c/1/d")
	}
	f.Fuzz(func(t *testing.T, doc []byte, p1, p2 string) {
		l := NewLocator(doc)
		for _, p := range []string{p1, p2, p1} {
			for _, key := range []bool{false, true} {
				wo, wk := Find(doc, p, key)
				if gotOff, gk := l.Find(p, key); gotOff != wo || gk != wk {
					t.Fatalf("%q %q key=%v: Locator %d %v, Find %d %v", doc, p, key, gotOff, gk, wo, wk)
				}
				if l.Column(wo) != Column(doc, wo) {
					t.Fatalf("%q: Column(%d)", doc, wo)
				}
			}
		}
	})
}
