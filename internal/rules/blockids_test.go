package rules

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
)

// TestBlockIDs: blockIDs says what a look at the blocks says, for records
// of few and of many blocks asked about in any order (more records than it
// keeps sets for).
func TestBlockIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var recs []*entry.Record
	for i := range 20 {
		r := entry.Ref(i+1, int64(i))
		for k := range rng.IntN(3 * manyBlocks) {
			id := fmt.Sprintf("toolu_%d", rng.IntN(60))
			if k%2 == 0 {
				r.AddTool(entry.ToolUse(id, "Bash", k, false))
			} else {
				r.AddTool(entry.ToolResult(id, k))
			}
		}
		recs = append(recs, r)
	}
	var b blockIDs
	for range 5000 {
		r, results, id := recs[rng.IntN(len(recs))], rng.IntN(2) == 0, fmt.Sprintf("toolu_%d", rng.IntN(70))
		blocks := r.ToolUses()
		if results {
			blocks = r.ToolResults()
		}
		want := false
		for _, t := range blocks {
			want = want || t.ID == id
		}
		if got := b.has(r, results, id); got != want {
			t.Fatalf("line %d, results %v, %s: %v, want %v", r.Line, results, id, got, want)
		}
	}
}
