package digest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
)

// randomFiles is n transcripts drawing uuids (canonical and not) and tool
// ids from small pools, so that files share uuids, entries repeat them and
// tool ids repeat across entries.
func randomFiles(rng *rand.Rand, n int) ([][]*entry.Record, []string, []string) {
	var uuids, tools []string
	for i := range 40 {
		uuids = append(uuids, fmt.Sprintf("%08x-0000-4000-8000-%012x", rng.Uint32(), i))
	}
	uuids = append(uuids, "odd-1", "odd-2", "00000000-0000-0000-0000-000000000003")
	for i := range 12 {
		tools = append(tools, fmt.Sprintf("toolu_%d", i))
	}
	tools = append(tools, "")
	files := make([][]*entry.Record, n)
	for f := range files {
		for l := range rng.IntN(30) {
			var ts []string
			for range rng.IntN(3) {
				ts = append(ts, tools[rng.IntN(len(tools))])
			}
			files[f] = append(files[f], rec(l+1, uuids[rng.IntN(len(uuids))], ts...))
		}
	}
	return files, append(uuids, "00000000-0000-4000-8000-ffffffffffff", "missing"), tools
}

// TestHoldsAgreesWithScan: Holds, answered through the tool index and the
// set of entries holding calls, says what a scan of the records says.
func TestHoldsAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		files, uuids, tools := randomFiles(rng, 1)
		recs := files[0]
		d := Build(recs, false)
		d.Compact()
		for _, s := range uuids {
			for range 4 {
				ids := []string{tools[rng.IntN(len(tools))], tools[rng.IntN(len(tools))]}[:1+rng.IntN(2)]
				held := false
				for _, r := range recs {
					for _, u := range r.ToolUses() {
						held = held || r.UUID() == s && slices.Contains(ids, u.ID)
					}
				}
				if h := d.Holds(s, ids); h != held {
					t.Fatalf("Holds(%s, %q) = %v, the records say %v", s, ids, h, held)
				}
			}
		}
	}
}

// TestOwners: Owners lists, in order, the files whose digests hold a uuid.
func TestOwners(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 30 {
		files, uuids, _ := randomFiles(rng, 1+rng.IntN(8))
		ds := make([]*Digest, len(files))
		for i, recs := range files {
			if round%3 == 0 && i == 1 {
				continue // a file without a digest
			}
			ds[i] = Build(recs, false)
		}
		o := NewOwners(Union(ds), ds)
		for _, s := range uuids {
			var want []int32
			for i, d := range ds {
				if d.HasUUID(s) {
					want = append(want, int32(i))
				}
			}
			if got := o.Of(s); !slices.Equal(got, want) {
				t.Fatalf("round %d: Of(%s) = %v, want %v", round, s, got, want)
			}
		}
	}
}
