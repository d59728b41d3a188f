package fix

import (
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
)

// TestVerifyMessageStable: when fixed bytes fail verification for several
// rules, the message names the same one every run (the first by name),
// not whichever a map gives first.
func TestVerifyMessageStable(t *testing.T) {
	f := &File{File: &layout.File{Path: "s.jsonl"}}
	var final []finding.Finding
	for _, rule := range []string{"unmatched-tool-use", "duplicate-tool-use-id", "orphan-parent", "parent-cycle"} {
		final = append(final, finding.Finding{Rule: rule, Severity: finding.Error, Path: "s.jsonl"})
	}
	for range 50 {
		err := verify(f, final)
		if err == nil || !strings.Contains(err.Error(), " duplicate-tool-use-id ") {
			t.Fatalf("verify: %v, want the duplicate-tool-use-id finding named", err)
		}
	}
}
