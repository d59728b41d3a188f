package jsontree

import (
	"bytes"
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
