package lint

import (
	"reflect"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/rules"
)

// TestPipedAgreement checks every file through the reading goroutine of
// checkLinesPiped (tiny batches, lines from 200 bytes alone) against the
// serial loop, over the corpus and every fixture, with the default rules
// and with every rule on: the findings and counts must be identical.
func TestPipedAgreement(t *testing.T) {
	every := map[string]bool{}
	for _, r := range rules.All() {
		every[r.ID] = true
	}
	saved := []int{batchBytes, batchLines, bigLine}
	savedMin := pipeMin
	defer func() { batchBytes, batchLines, bigLine, pipeMin = saved[0], saved[1], saved[2], savedMin }()
	batchBytes, batchLines, bigLine = 1000, 3, 200
	total := 0
	for _, paths := range referenceRoots(t) {
		for _, o := range []Options{{Jobs: 2}, {Jobs: 2, Enabled: every}} {
			run := func(min int64) *Result {
				pipeMin = min
				e, err := New(o)
				if err != nil {
					t.Fatal(err)
				}
				found, err := layout.Discover(paths, "")
				if err != nil {
					t.Fatal(err)
				}
				return e.Run(found)
			}
			piped, serial := run(0), run(1<<62)
			if !reflect.DeepEqual(piped.Findings, serial.Findings) || piped.Files != serial.Files ||
				piped.Entries != serial.Entries || piped.Bytes != serial.Bytes {
				t.Errorf("%v: piped and serial differ: %d and %d findings, %d and %d entries",
					paths, len(piped.Findings), len(serial.Findings), piped.Entries, serial.Entries)
				for i := range min(len(piped.Findings), len(serial.Findings)) {
					if !reflect.DeepEqual(piped.Findings[i], serial.Findings[i]) {
						t.Errorf("first difference at %d:\n piped: %+v\nserial: %+v", i, piped.Findings[i], serial.Findings[i])
						break
					}
				}
			}
			total += len(piped.Findings)
		}
	}
	t.Logf("identical: %d findings", total)
}

// TestCollectorByRule: while a file's rules run at once, what each reports
// is added in rule order, each rule's findings in the order it reported
// them, whichever rule reported first.
func TestCollectorByRule(t *testing.T) {
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []*rules.Rule
	for _, r := range e.rules {
		if r.File != nil && len(ids) < 3 {
			ids = append(ids, r)
		}
	}
	if len(ids) < 3 {
		t.Skip("fewer than three file rules on by default")
	}
	f := func(r *rules.Rule, msg string) finding.Finding {
		return finding.Finding{Rule: r.ID, Severity: r.Severity, Path: "p", Message: msg}
	}
	want := []finding.Finding{f(ids[0], "a1"), f(ids[0], "a2"), f(ids[1], "b1"), f(ids[2], "c1"), f(ids[2], "c2")}
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {3, 2, 0, 4, 1}, {4, 3, 2, 1, 0}} {
		c := &collector{e: e, out: []finding.Finding{f(ids[1], "before")}}
		c.split()
		// Each rule's own findings keep their order: the later one of a
		// rule is emitted after its earlier one whatever the interleaving.
		seen := map[string]int{}
		for _, k := range order {
			r := want[k].Rule
			var same []finding.Finding
			for _, w := range want {
				if w.Rule == r {
					same = append(same, w)
				}
			}
			c.emit(same[seen[r]])
			seen[r]++
		}
		c.join(e.rules)
		if got := c.out[1:]; !reflect.DeepEqual(got, want) || c.out[0].Message != "before" {
			t.Errorf("emitted in order %v: got %+v", order, c.out)
		}
	}
}
