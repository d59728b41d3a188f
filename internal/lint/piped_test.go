package lint

import (
	"reflect"
	"testing"

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
