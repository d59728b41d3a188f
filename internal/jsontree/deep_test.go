package jsontree

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// ValidDeep agrees with encoding/json's Valid wherever that one reads
// (depth up to MaxDepth), and reads past it.
func TestValidDeep(t *testing.T) {
	cases := []string{
		`{}`, `[]`, ` {"a":1} `, `{"a":[1,2,{"b":null}],"c":"x\"y\\u00e9"}`, `[1,]`, `{"a"}`, `{"a":}`, `{,}`,
		`[1 2]`, `"\u12"`, `"a`, `-`, `-0`, `01`, `1.`, `1e`, `1e+5`, `-0.5E-3`, `tru`, `nul`, `[true,false,null]`,
		`{"a":1,}`, `{"a":1 "b":2}`, `]`, `[}`, `{]`, `"\x01"`, "\"\t\"", `"\/"`, `"\q"`, `{} {}`, ``, ` `, `[[[]]]`,
		`{"a":{"b":{"c":[]}}}`, `{"":""}`, `[-]`, `[.5]`, `[5.]`, `"\ud800"`, "[1]\n", `{"a" : 1 , "b" : [ ] }`,
	}
	for _, c := range cases {
		if _, got := ValidDeep([]byte(c)); got != json.Valid([]byte(c)) {
			t.Errorf("%q: ValidDeep %v, json.Valid %v", c, got, !got)
		}
	}
	// Random edits of valid documents.
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(`{}[]":,-+.eE0123456789tfnrulsa\ ` + "\n")
	for k := 0; k < 20000; k++ {
		b := []byte(cases[r.IntN(len(cases))])
		for e := r.IntN(3); e >= 0; e-- {
			switch p := r.IntN(len(b) + 1); r.IntN(3) {
			case 0:
				b = append(b[:p], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[p:]...)...)
			case 1:
				if p < len(b) {
					b = append(b[:p], b[p+1:]...)
				}
			case 2:
				if p < len(b) {
					b[p] = alphabet[r.IntN(len(alphabet))]
				}
			}
		}
		if _, got := ValidDeep(b); got != json.Valid(b) {
			t.Fatalf("%q: ValidDeep %v, json.Valid %v", b, got, !got)
		}
	}
	// Past MaxDepth: Parse stops, ValidDeep reads on.
	deep := strings.Repeat(`[{"a":`, 3*MaxDepth) + "1" + strings.Repeat(`}]`, 3*MaxDepth)
	var tr Tree
	if err := tr.Parse([]byte(deep)); err == nil {
		t.Fatal("Parse read past MaxDepth")
	}
	if _, ok := ValidDeep([]byte(deep)); !ok {
		t.Error("a deep valid value is not valid")
	}
	if off, ok := ValidDeep([]byte(deep[:len(deep)-1])); ok || off != len(deep)-1 {
		t.Errorf("a deep value cut short: ok %v at %d", ok, off)
	}
	if _, ok := ValidDeep([]byte(strings.Repeat("[", 3*MaxDepth))); ok {
		t.Error("unclosed arrays are valid")
	}
}
