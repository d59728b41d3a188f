package secret

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The bytes that may follow the short keywords are read from their rules'
// leads: twilio-api-key's hex digits after "sk", jwt's letters and digits
// after "ey", vault-service-token's (case-folded, so the Kelvin sign and
// the long s too) after "s."; a keyword one of whose rules has no lead
// ("key", "api": the generic rule) is reported at every place.
func TestFollowSets(t *testing.T) {
	s := Default()
	set := func(chars string, high bool) byteSet {
		var b byteSet
		for i := 0; i < len(chars); i++ {
			b.add(chars[i])
		}
		if high {
			b.addHigh()
		}
		return b
	}
	const digits, lowerAZ, upperAZ = "0123456789", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for _, c := range []struct {
		kw   string
		want byteSet // at offsets 2 and 3
	}{
		{"sk", set(digits+"abcdefABCDEF", false)},
		{"ey", set(digits+lowerAZ+upperAZ, false)},
		{"s.", set(digits+lowerAZ+upperAZ, true)}, // not "hvs."'s '.' at 3
	} {
		f := s.ac.follow[s.kwIndex(t, c.kw)]
		if f == nil || f.last != 3 {
			t.Fatalf("%q: follow %+v", c.kw, f)
		}
		for j := 2; j <= 3; j++ {
			if f.at[j] != c.want {
				t.Errorf("%q at offset %d: %x, want %x", c.kw, j, f.at[j], c.want)
			}
		}
	}
	for _, kw := range []string{"key", "api"} {
		if f := s.ac.follow[s.kwIndex(t, kw)]; f != nil {
			t.Errorf("%q: follow %+v, want none", kw, f)
		}
	}
}

func (s *Scanner) kwIndex(t *testing.T, kw string) int {
	t.Helper()
	for ki, k := range s.kw {
		if k == kw {
			return ki
		}
	}
	t.Fatalf("no keyword %q", kw)
	return -1
}

// A place some rule's lead lets through is never dropped: on texts that
// start with a keyword that has a follow and go on with characters of
// every kind (letters of both cases, digits, punctuation, the Kelvin
// sign, the long s, é), follow allows each place lead.may allows. (A text
// that ends before the follow's last offset is left out: lead.may stops
// at the first rune beyond ASCII its class takes, where the follow reads
// on; no match is that short. Invalid UTF-8 is TestScanDifferentialPlanted's.)
func TestFollowSound(t *testing.T) {
	s := Default()
	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"a", "Z", "k", "S", "7", "f", "F", "_", "-", ".", " ", "\n", "\"", "~", "\u212a", "\u017f", "é"}
	checked, allowed := 0, 0
	for ki, f := range s.ac.follow {
		if f == nil {
			continue
		}
		k := s.kw[ki]
		for n := 0; n < 4000; n++ {
			var b strings.Builder
			b.WriteString(k)
			if rng.IntN(2) == 0 {
				b.Reset()
				b.WriteString(strings.ToUpper(k))
			}
			for b.Len() < len(k)+rng.IntN(40) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text := []byte(b.String())
			if len(text) <= f.last {
				continue
			}
			may := false
			for _, ri := range s.byKeyword[ki] {
				r := s.rules[ri]
				may = may || r.lead.may(text, 0, true)
			}
			checked++
			if may {
				allowed++
				if !f.allows(text, 0) {
					t.Fatalf("%q: follow drops %q, which a lead allows", k, text)
				}
			}
		}
	}
	if checked == 0 || allowed == 0 {
		t.Fatalf("%d texts checked, %d allowed by a lead", checked, allowed)
	}
}
