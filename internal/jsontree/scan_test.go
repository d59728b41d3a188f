package jsontree

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// withScans runs f with the wide string scan (where the machine has it)
// and with the portable one.
func withScans(t *testing.T, f func(t *testing.T)) {
	saved := wide
	defer func() { wide = saved }()
	for _, w := range []bool{saved, false} {
		wide = w
		if w {
			t.Run("wide", f)
		} else {
			t.Run("portable", f)
		}
	}
}

// TestStringScan puts every byte after a backslash, and every byte alone,
// at every offset of strings long enough for the wide scan (and across its
// 32-byte blocks and its overlapping last block), and compares with
// encoding/json.
func TestStringScan(t *testing.T) {
	withScans(t, func(t *testing.T) {
		var tr Tree
		pad := strings.Repeat("a", 80)
		for c := 0; c < 256; c++ {
			b := byte(c)
			for _, ins := range [][]byte{{'\\', b}, {b}, {'\\', '\\', b}, {'\\', 'u', '0', '0', b, '0'}} {
				for off := 0; off <= 70; off++ {
					for _, tail := range []string{`"}`, `","b":"` + pad[:off%7] + `"}`, ``} {
						raw := []byte(`{"k":"` + pad[:off] + string(ins) + pad[:70-off] + tail)
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
