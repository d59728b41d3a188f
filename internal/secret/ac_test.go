package secret

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// naiveHits lists every (keyword, start) in text by trying each keyword at
// each place: what the automaton must report, in some order.
func naiveHits(s *Scanner, text []byte) [][2]int {
	var out [][2]int
	for i := range text {
		for ki, k := range s.kw {
			if hasKeywordAt(text, i, k) {
				out = append(out, [2]int{ki, i})
			}
		}
	}
	return out
}

func acHits(s *Scanner, text []byte) [][2]int {
	var out [][2]int
	s.ac.each(text, func(ki, start int) bool { out = append(out, [2]int{ki, start}); return true })
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[1] != b[1] {
			return a[1] - b[1]
		}
		return a[0] - b[0]
	})
	return out
}

// The four-chain keyword pass reports exactly the occurrences a plain
// search finds, on texts of every length around the quarters' edges,
// keywords planted across them.
func TestMatcherEachExact(t *testing.T) {
	s := Default()
	rng := rand.New(rand.NewPCG(25, 1))
	alphabet := "aeiosktyAKEY_-.=: \n0123456789"
	for n := 0; n < 3000; n++ {
		size := rng.IntN(2400)
		var b strings.Builder
		for b.Len() < size {
			if rng.IntN(6) == 0 {
				k := s.kw[rng.IntN(len(s.kw))]
				if rng.IntN(2) == 0 {
					k = strings.ToUpper(k)
				}
				b.WriteString(k)
				continue
			}
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		text := []byte(b.String())
		want := naiveHits(s, text)
		slices.SortFunc(want, func(a, b [2]int) int {
			if a[1] != b[1] {
				return a[1] - b[1]
			}
			return a[0] - b[0]
		})
		if got := acHits(s, text); !slices.Equal(got, want) {
			t.Fatalf("text of %d bytes: %d hits, want %d", len(text), len(got), len(want))
		}
	}
}

// each stops at the first hit fn refuses, in whichever quarter it is.
func TestMatcherEachStops(t *testing.T) {
	s := Default()
	text := []byte(strings.Repeat(" ", 5000) + "token" + strings.Repeat(" ", 5000))
	calls := 0
	s.ac.each(text, func(int, int) bool { calls++; return false })
	if calls != 1 {
		t.Fatalf("%d calls", calls)
	}
	if !s.Candidates(text) || s.Candidates([]byte(strings.Repeat(" ", 9000))) {
		t.Fatal("Candidates")
	}
}
