package workers

import (
	"sync/atomic"
	"testing"
)

// TestEach: every index once, whatever the number of workers (none, one,
// fewer or more than the indexes), and none when n is 0.
func TestEach(t *testing.T) {
	for _, w := range []int{-1, 0, 1, 3, 100} {
		for _, n := range []int{0, 1, 7, 1000} {
			seen := make([]atomic.Int32, n)
			Each(n, w, func(i int) { seen[i].Add(1) })
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("workers %d, n %d: index %d ran %d times", w, n, i, c)
				}
			}
		}
	}
}
