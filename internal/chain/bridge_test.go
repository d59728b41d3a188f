package chain

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// bridgeTargetScan is bridgeTarget as it was first written: every kept
// message read for each bridge.
func (g *Graph) bridgeTargetScan(i int, seen []bool) (int, int64) {
	t, ok := g.Records[i].TimestampMillis()
	if !ok {
		return -1, -1
	}
	side := g.Records[i].IsSidechain
	best, bestT := -1, int64(0)
	for _, j32 := range g.order {
		j := int(j32)
		if j == i || seen[j] || g.Records[j].IsSidechain != side {
			continue
		}
		tj := g.time(j)
		if tj == noTime || tj > t || (tj == t && j > i) {
			continue
		}
		if best < 0 || tj > bestT || (tj == bestT && j > best) {
			best, bestT = j, tj
		}
	}
	if best < 0 {
		return -1, -1
	}
	return best, t - bestT
}

// TestBridgeTarget: on random files (times that tie, times missing, both
// sides), as a walk marks more messages seen, the finder answers as the
// scan of every kept message does.
func TestBridgeTarget(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for round := range 200 {
		n := 2 + rnd.IntN(50)
		specs := make([]string, n)
		for i := range specs {
			spec := fmt.Sprintf("u%d<u%d user t=%02d", i, rnd.IntN(n+3), rnd.IntN(8))
			if rnd.IntN(4) == 0 {
				spec += " sc=1"
			}
			specs[i] = spec
		}
		recs := recs(specs...)
		for _, r := range recs {
			if rnd.IntN(10) == 0 {
				r.SetTimestamp("not a time")
			}
		}
		g := BuildSize(recs, 0)
		seen := make([]bool, n)
		var bf bridgeFinder
		for _, k := range rnd.Perm(n) {
			i := rnd.IntN(n)
			wj, wt := g.bridgeTargetScan(i, seen)
			if gj, gt := g.bridgeTarget(i, seen, &bf); gj != wj || gt != wt {
				t.Fatalf("round %d, line %d: %d %d, want %d %d", round, i, gj, gt, wj, wt)
			}
			seen[k] = true
		}
	}
}
