package fix

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/rules"
)

// A file with more findings of a rule fix repairs than MaxFindings (here
// blank lines: a runaway writer, binary data) is not planned: its findings
// are manual and no edit is made, and the plan holds MaxFindings of them,
// not millions (each costs about 2 KB while a plan runs). A file just
// under the bound is planned whole.
func TestMaxFindings(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	over := filepath.Join(dir, "5ec7e700-0000-4000-8000-00000000f1f4.jsonl")
	if err := os.WriteFile(over, []byte(strings.Repeat("\n", 3*MaxFindings)), 0o644); err != nil {
		t.Fatal(err)
	}
	res := planPaths(t, false, over)
	if len(res.Files) != 0 || len(res.Findings) != MaxFindings+1 {
		t.Fatalf("over the bound: %d files planned, %d findings (want 0 and %d)", len(res.Files), len(res.Findings), MaxFindings+1)
	}
	// The finding that counts the rest says what fix does, not lint's
	// --max-per-file, a flag fix does not have.
	if last := res.Findings[MaxFindings].Message; !strings.Contains(last, "ccvet fix plans no file with more") || strings.Contains(last, "--max-per-file") {
		t.Errorf("the count of the rest reads %q", last)
	}
	for _, x := range res.Findings {
		if x.Fix == nil || x.Fix.Safety != string(rules.FixManual) || !strings.Contains(x.Fix.Message, fmt.Sprintf("over %d blank-line findings", MaxFindings)) {
			t.Fatalf("line %d: fix %+v", x.Line, x.Fix)
		}
	}

	under := filepath.Join(t.TempDir(), "5ec7e700-0000-4000-8000-00000000f1f5.jsonl")
	if err := os.WriteFile(under, []byte(strings.Repeat("\n", MaxFindings)), 0o644); err != nil {
		t.Fatal(err)
	}
	res = planPaths(t, false, under)
	if len(res.Files) != 1 || res.Files[0].Err != nil || len(res.Files[0].Chosen) != MaxFindings {
		t.Fatalf("at the bound: %d files planned, %+v", len(res.Files), res.Files)
	}
}
