package plan

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/rules"
)

// chooseRef is Choose as it was first written, each edit compared with
// every edit chosen before it: the reference Choose is held to.
func chooseRef(fixes []Fix, unsafe bool) (edits []edit.Edit, chosen, dropped []int) {
	idx := make([]int, 0, len(fixes))
	low := 3
	for i := range fixes {
		f := &fixes[i]
		if f.Fixable() && (f.Safety == rules.FixSafe || unsafe) {
			idx = append(idx, i)
			low = min(low, Layer(f.Rule))
		}
	}
	kept := idx[:0]
	for _, i := range idx {
		if Layer(fixes[i].Rule) == low {
			kept = append(kept, i)
		}
	}
	idx = kept
	sort.SliceStable(idx, func(a, b int) bool { return fixes[idx[a]].Edits[0].Offset < fixes[idx[b]].Edits[0].Offset })
	for _, i := range idx {
		ok := true
		var add []edit.Edit
		for _, e := range fixes[i].Edits {
			dup := false
			for _, o := range edits {
				if o == e {
					dup = true
					break
				}
				if edit.Conflict(o, e) {
					ok = false
				}
			}
			if !dup {
				add = append(add, e)
			}
		}
		if !ok {
			dropped = append(dropped, i)
			continue
		}
		edits = append(edits, add...)
		edit.Sort(edits)
		chosen = append(chosen, i)
	}
	return edits, chosen, dropped
}

// TestChooseAgreesWithRef: over random fixes (overlapping, touching,
// identical and inserting edits, several edits a fix), Choose picks what
// the pairwise reference picks, and its edits pass edit.Check.
func TestChooseAgreesWithRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ruleOf := []string{"blank-line", "duplicate-uuid", "orphan-parent", "blank-line"}
	for round := range 3000 {
		size := 5 + rng.IntN(60)
		var fixes []Fix
		for range rng.IntN(12) {
			f := Fix{Rule: ruleOf[rng.IntN(len(ruleOf))], Safety: rules.FixSafe}
			if rng.IntN(4) == 0 {
				f.Safety = rules.FixUnsafe
			}
			// The edits of one fix never conflict with one another.
			pos := int64(rng.IntN(size))
			for range 1 + rng.IntN(3) {
				if pos > int64(size) {
					break
				}
				n := min(int64(rng.IntN(4)), int64(size)-pos)
				text := []string{"", "x", "\n"}[rng.IntN(3)]
				if n == 0 && text == "" {
					text = "i"
				}
				f.Edits = append(f.Edits, edit.Edit{Offset: pos, Length: n, Text: text})
				pos += n + 1 + int64(rng.IntN(6))
			}
			fixes = append(fixes, f)
			if rng.IntN(5) == 0 { // the same edits from another finding
				fixes = append(fixes, Fix{Rule: f.Rule, Safety: f.Safety, Edits: slices.Clone(f.Edits)})
			}
		}
		unsafe := round%2 == 0
		es, chosen, dropped := Choose(fixes, unsafe)
		wes, wchosen, wdropped := chooseRef(fixes, unsafe)
		if !slices.Equal(es, wes) || !slices.Equal(chosen, wchosen) || !slices.Equal(dropped, wdropped) {
			t.Fatalf("round %d: Choose = %v %v %v, the reference %v %v %v (fixes %+v)", round, es, chosen, dropped, wes, wchosen, wdropped, fixes)
		}
		if err := edit.Check(es, int64(size)); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}
