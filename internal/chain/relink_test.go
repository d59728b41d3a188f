package chain

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
)

// relinkReference is relinkPreserved as it was first written: for each
// segment, every kept line is looked at.
func relinkReference(g *Graph) {
	for _, r := range g.Records {
		if r.Rare == nil || r.Rarer == nil || r.PreservedHead == "" || r.PreservedAnchor == "" || r.PreservedTail == "" {
			continue
		}
		head, okH := g.byUUID(r.PreservedHead)
		_, okA := g.byUUID(r.PreservedAnchor)
		_, okT := g.byUUID(r.PreservedTail)
		if !okH || !okA || !okT {
			continue
		}
		anchor := moved{idOf(r.PreservedAnchor), r.PreservedAnchor}
		tail := moved{idOf(r.PreservedTail), r.PreservedTail}
		for i := range g.Records {
			if g.Kept(i) && i != head && g.ParentID(i) == anchor.id {
				g.setParent(i, tail)
			}
		}
		g.setParent(head, anchor)
	}
}

// TestRelinkPreserved: on random files of messages and compaction
// boundaries whose segments share anchors, name their tail as anchor or
// their head as tail, the graph relinks as the reference does.
func TestRelinkPreserved(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	uuid := func(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }
	for round := range 300 {
		n := 5 + rnd.IntN(60)
		var recs []*entry.Record
		for i := 1; i <= n; i++ {
			spec := uuid(i) + "<"
			if i > 1 && rnd.IntN(10) > 0 {
				spec += uuid(1 + rnd.IntN(i-1))
			}
			typ := []string{"user", "assistant"}[i%2]
			if i > 3 && rnd.IntN(10) < 3 {
				typ = "system"
			}
			r := rec(i, spec+" "+typ)
			if typ == "system" {
				pick := func() string { return uuid(1 + rnd.IntN(i-1)) }
				h, a, tl := pick(), pick(), pick()
				switch rnd.IntN(5) {
				case 0:
					tl = a
				case 1:
					h = tl
				case 2:
					a = uuid(1)
				}
				r.Rare = &entry.Rare{Subtype: "compact_boundary", Rarer: &entry.Rarer{PreservedHead: h, PreservedAnchor: a, PreservedTail: tl}}
			}
			recs = append(recs, r)
		}
		got := BuildSize(recs, 0)
		relink = relinkReference
		want := BuildSize(recs, 0)
		relink = (*Graph).relinkPreserved
		if !maps.Equal(got.moved, want.moved) {
			t.Fatalf("round %d: moved %v, want %v", round, got.moved, want.moved)
		}
	}
}
