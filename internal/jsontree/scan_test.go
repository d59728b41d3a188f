package jsontree

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// A scan is one string scan: wide and wide64 as it sets them.
type scan struct {
	name         string
	wide, wide64 bool
}

// scans are the string scans the machine has: the AVX-512 one, the AVX2
// one and the portable one.
func scans() []scan {
	var s []scan
	if wide64 {
		s = append(s, scan{"wide64", wide, true})
	}
	if wide {
		s = append(s, scan{"wide", true, false})
	}
	return append(s, scan{"portable", false, false})
}

// withScans runs f with each string scan the machine has.
func withScans(t *testing.T, f func(t *testing.T)) {
	saved, saved64 := wide, wide64
	defer func() { wide, wide64 = saved, saved64 }()
	for _, m := range scans() {
		wide, wide64 = m.wide, m.wide64
		t.Run(m.name, f)
	}
}

// TestStringScan puts every byte after a backslash, and every byte alone,
// at every offset of strings long enough for the wide scans (and across
// their 32- and 64-byte blocks and their last block), and compares with
// encoding/json.
func TestStringScan(t *testing.T) {
	withScans(t, func(t *testing.T) {
		var tr Tree
		pad := strings.Repeat("a", 150)
		for c := 0; c < 256; c++ {
			b := byte(c)
			for _, ins := range [][]byte{{'\\', b}, {b}, {'\\', '\\', b}, {'\\', 'u', '0', '0', b, '0'}} {
				for off := 0; off <= 140; off++ {
					for _, tail := range []string{`"}`, `","b":"` + pad[:off%7] + `"}`, ``} {
						raw := []byte(`{"k":"` + pad[:off] + string(ins) + pad[:140-off] + tail)
						if d := compare(&tr, raw); d != "" {
							t.Fatalf("%q: %s", raw, d)
						}
					}
				}
			}
		}
	})
}

// TestStringScanCases runs the syntax cases with white space around them,
// so that the wide scan sees them too.
func TestStringScanCases(t *testing.T) {
	withScans(t, func(t *testing.T) {
		var tr Tree
		sp := strings.Repeat(" ", 40)
		for _, c := range cases {
			for _, raw := range [][]byte{[]byte(c), []byte(sp + c), []byte(c + sp), []byte("[" + sp + c + sp + "]")} {
				if d := compare(&tr, raw); d != "" {
					t.Errorf("%q: %s", raw, d)
				}
			}
		}
		// Escapes back to back, and a run of backslashes.
		for n := 1; n < 70; n++ {
			for _, e := range []string{`\n`, `\"`, `\\`, `\u00e9`, `\ud83c\udf89`, `\/`} {
				raw := []byte(`["` + strings.Repeat(e, n) + `"]`)
				if d := compare(&tr, raw); d != "" {
					t.Errorf("%q: %s", raw, d)
				}
				if d := compare(&tr, bytes.TrimSuffix(raw, []byte(`"]`))); d != "" {
					t.Errorf("%q cut: %s", raw, d)
				}
			}
		}
	})
}

// TestStringScanRandom compares strings of random bytes drawn from those
// the scan treats specially, with encoding/json, and checks that Esc is
// set exactly on the strings holding a backslash.
func TestStringScanRandom(t *testing.T) {
	withScans(t, func(t *testing.T) {
		var tr Tree
		rnd := rand.New(rand.NewPCG(1, 2))
		alphabet := []string{"a", "a", "a", "a", `\`, `\`, `"`, "n", "t", "u", "0", "d8", "\x01", "é", "/", "b", "x"}
		var sb strings.Builder
		for n := 0; n < 30000; n++ {
			sb.Reset()
			sb.WriteString(`["`)
			for k := rnd.IntN(90); k > 0; k-- {
				sb.WriteString(alphabet[rnd.IntN(len(alphabet))])
			}
			sb.WriteString(`","`)
			for k := rnd.IntN(40); k > 0; k-- {
				sb.WriteString(alphabet[rnd.IntN(len(alphabet))])
			}
			sb.WriteString(`"]`)
			raw := []byte(sb.String())
			if rnd.IntN(4) == 0 {
				raw = raw[:rnd.IntN(len(raw))]
			}
			if d := compare(&tr, raw); d != "" {
				t.Fatalf("%q: %s", raw, d)
			}
			if tr.Parse(raw) != nil {
				continue
			}
			for i, nd := range tr.Nodes {
				if nd.Kind == String && nd.Esc != bytes.Contains(tr.RawBytes(i), []byte{'\\'}) {
					t.Fatalf("%q: node %d: Esc is %v", raw, i, nd.Esc)
				}
			}
		}
	})
}

// TestStringScanMembers puts keys of every length before values of every
// kind, with and without white space between, whole and cut anywhere
// near the value, and compares with encoding/json.
func TestStringScanMembers(t *testing.T) {
	withScans(t, func(t *testing.T) {
		var tr Tree
		pad := strings.Repeat("k", 140)
		values := []string{`"v"`, `""`, `"` + pad[:70] + `"`, `"a\nb"`, `"\u0041"`, `"a\\"`, `"\\\\"`, `"a\"b"`,
			"\"a\x01\"", `"\x"`, `1`, `null`, `{}`, `{"x":"y"}`, `["z"]`, ` "v"`}
		for kl := 0; kl <= 130; kl += 1 + kl/16 {
			for _, key := range []string{pad[:kl], pad[:kl] + `\n`, pad[:kl] + `\\`, pad[:kl] + `\u0041`} {
				for _, v := range values {
					for _, sep := range []string{`:`, ` :`, `: `} {
						raw := `{"a":1,"` + key + `"` + sep + v + `,"b":"c"}`
						for cut := len(raw) - 12; cut <= len(raw); cut++ {
							if d := compare(&tr, []byte(raw[:cut])); d != "" {
								t.Fatalf("%q: %s", raw[:cut], d)
							}
						}
					}
				}
			}
		}
	})
}
