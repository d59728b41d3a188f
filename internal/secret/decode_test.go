package secret

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// decodeByByte is decodeShort one byte at a time: the reference.
func decodeByByte(dst, raw []byte, max int) []byte {
	for r, n := 0, 0; r < len(raw) && n < max; n++ {
		c := raw[r]
		if c != '\\' || r+1 >= len(raw) {
			dst = append(dst, c)
			r++
			continue
		}
		c = jsontree.Unescape(raw[r+1])
		dst = append(dst, c)
		r += 2
	}
	return dst
}

// TestDecodeShort checks decodeShort (by runs between escapes) and
// decodedAt (raw bytes where the window holds no escape) against the
// byte-at-a-time decoding, on random JSON string contents.
func TestDecodeShort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"a", "k", "=", " ", `\n`, `\\`, `\"`, `\t`, `\/`, `\b`, `\f`, `\r`, "é"}
	for range 20000 {
		var raw []byte
		for range rng.IntN(80) {
			raw = append(raw, parts[rng.IntN(len(parts))]...)
		}
		max := rng.IntN(60)
		if got, want := decodeShort([]byte("x"), raw, max), decodeByByte([]byte("x"), raw, max); !bytes.Equal(got, want) {
			t.Fatalf("decodeShort(%q, %d) = %q, want %q", raw, max, got, want)
		}
		// decodedAt at each escape or character start.
		for i := 0; i < len(raw); i++ {
			if oddBackslashes(raw, i) {
				continue
			}
			n := min(len(raw)-i, rng.IntN(4))
			if bytes.IndexByte(raw[i:i+n], '\\') >= 0 {
				continue
			}
			want := decodeByByte(append([]byte(nil), raw[i:i+n]...), raw[i+n:], max)
			if got := decodedAt(raw, i, n, max, make([]byte, 0, 4)); !bytes.Equal(got, want) {
				t.Fatalf("decodedAt(%q, %d, %d, %d) = %q, want %q", raw, i, n, max, got, want)
			}
		}
	}
}

// TestMayRun checks that no match of a rule's expression lies in a text
// mayRun rules out: every rule with runs, on texts cut from its own
// matches (shortened runs, non-ASCII letters that fold to ASCII ones).
func TestMayRun(t *testing.T) {
	s := Default()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	// And runs of digits with other characters beyond ASCII in them,
	// which end a run of a class of ASCII only (facebook-access-token's
	// 15 digits) but not one of a case-folded class.
	alphabets := []string{"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.|=\u212a\u017f ",
		"0123456789012345678901234567890123456789abcdef|%_-é€\u212a"}
	rules := 0
	for _, r := range s.rules {
		if len(r.runs) == 0 {
			continue
		}
		rules++
		for range 300 {
			var b strings.Builder
			for _, k := range r.keywords {
				b.WriteString(k)
				b.WriteString(" = ")
			}
			alnum := []rune(alphabets[rng.IntN(len(alphabets))])
			for range rng.IntN(120) {
				b.WriteRune(alnum[rng.IntN(len(alnum))])
			}
			text := b.String()
			if !r.mayRun(text) && r.re.MatchString(text) {
				t.Fatalf("rule %s: mayRun rules out a text its expression matches", r.ID)
			}
		}
	}
	if rules < 100 {
		t.Fatalf("only %d rules with runs", rules)
	}
}
