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

// childlessLeafScan is childlessLeaf as first written, each leaf walking
// up on its own: the reference childlessLeaf is held to.
func (g *Graph) childlessLeafScan() int {
	hasChild := g.hasChildren(false)
	seen := make([]int32, len(g.Records))
	for w := len(g.order) - 1; w >= 0; w-- {
		i := int(g.order[w])
		if hasChild[i] || g.Records[i].IsSidechain || g.time(i) == noTime {
			continue
		}
		walk := int32(w + 1)
		for j := i; j >= 0 && seen[j] != walk; {
			seen[j] = walk
			if t := g.Records[j].Type; t == "user" || t == "assistant" {
				if !g.Records[j].IsSidechain && g.time(j) != noTime {
					return j
				}
				break
			}
			j = int(g.up[j])
		}
	}
	return -1
}

// TestChildlessLeaf: the leaf the 2.1.110 reader resumes from, found with
// the ends of walks remembered, is the one every leaf's own walk finds,
// over random graphs of messages and other entries, loops, sidechains and
// entries without a time.
func TestChildlessLeaf(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	types := []string{"user", "assistant", "system", "attachment", "system", "system", "system"}
	found := 0
	for round := range 2000 {
		n := 2 + rnd.IntN(30)
		specs := make([]string, n)
		for i := range specs {
			spec := fmt.Sprintf("u%d<u%d %s t=%02d", i, rnd.IntN(n+2), types[rnd.IntN(len(types))], rnd.IntN(50))
			if rnd.IntN(3) == 0 {
				spec += " sc=1"
			}
			specs[i] = spec
		}
		recs := recs(specs...)
		for _, r := range recs {
			if rnd.IntN(6) == 0 {
				r.SetTimestamp("not a time")
			}
		}
		g := BuildSize(recs, 0)
		want := g.childlessLeafScan()
		if got := g.childlessLeaf(); got != want {
			t.Fatalf("round %d: %d, want %d (%v)", round, got, want, specs)
		}
		if want >= 0 {
			found++
		}
	}
	if found < 200 || found > 1800 {
		t.Errorf("%d of 2,000 graphs have a leaf: the generator tests too little", found)
	}
}
