package cli

import (
	"path/filepath"
	"testing"
)

// TestOrphanSubagentOnly: a compaction subagent whose main transcript is
// missing gets one orphan-subagent finding and no orphan-parent for its
// first entry's link into the missing file.
func TestOrphanSubagentOnly(t *testing.T) {
	out, _, _ := runJSON(t, "--no-config", filepath.Join("..", "..", "testdata", "rules", "orphan-subagent", "bad-acompact"))
	n := map[string]int{}
	for _, f := range out.Findings {
		n[f.Rule]++
	}
	if n["orphan-subagent"] != 1 || n["orphan-parent"] != 0 || len(n) != 1 {
		t.Errorf("want one orphan-subagent finding and nothing else, got %v", n)
	}
}
