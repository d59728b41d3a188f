package resume

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAddRecMatchesScan holds addRec (no search for a record after every
// one held, a set once the list is long) to the scan of the whole list it
// replaced, with records in and out of file order, repeats, and records
// appended directly (as pairTools puts a result back).
func TestAddRecMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for it := range 2000 {
		var m msg
		var want []int
		n := rng.IntN(200)
		span := 1 + rng.IntN(300)
		next := 0
		for range n {
			var i int
			switch rng.IntN(4) {
			case 0, 1: // in file order
				next += rng.IntN(3)
				i = next
			default:
				i = rng.IntN(span)
			}
			if rng.IntN(20) == 0 {
				if !slices.Contains(want, i) {
					want = append(want, i)
					m.recs = append(m.recs, i)
				}
				continue
			}
			if !slices.Contains(want, i) {
				want = append(want, i)
			}
			m.addRec(i)
		}
		if !slices.Equal(m.recs, want) {
			t.Fatalf("case %d: recs %v, want %v", it, m.recs, want)
		}
	}
}
