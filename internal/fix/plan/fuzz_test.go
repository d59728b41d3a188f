package plan

import (
	"bytes"
	"testing"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
)

var fuzzRules = []string{"truncated-line", "missing-final-newline", "invalid-json", "nul-bytes", "blank-line",
	"duplicate-uuid", "tool-result-off-chain", "tool-source-mismatch", "orphan-parent", "parent-cycle", "schema"}

// FuzzPlan feeds arbitrary bytes with a finding of every fixable rule on
// every line: planning never panics, the chosen edits are valid, and their
// inverse gives the input back.
func FuzzPlan(f *testing.F) {
	f.Add([]byte("{\"type\":\"user\",\"uuid\":\"a\",\"parentUuid\":null}\n{\"type\":\"user\",\"uuid\":\"b\",\"parentUuid\":\"x\"}"))
	f.Add([]byte("\x00\x00{\"type\":\"a\"}{\"type\":\"b\"}\n\n  \n{\"uuid\":\"a\"}\n{\"uuid\":\"a\"}\n{\"ty"))
	f.Add([]byte(`{"type":"assistant","uuid":"c","message":{"id":"m","content":[{"type":"tool_use","id":"t"}]}}` + "\n" +
		`{"type":"user","uuid":"r","parentUuid":"z","sourceToolAssistantUUID":"q","message":{"content":[{"type":"tool_result","tool_use_id":"t"}]}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := bytes.Count(data, []byte{'\n'}) + 1
		if n > 40 {
			n = 40
		}
		var fs []finding.Finding
		for line := 1; line <= n; line++ {
			for _, r := range fuzzRules {
				fs = append(fs, finding.Finding{Rule: r, Line: line, Pointer: "/parentUuid"})
			}
		}
		fixes := Plan(data, fs)
		if len(fixes) != len(fs) {
			t.Fatalf("%d fixes for %d findings", len(fixes), len(fs))
		}
		for _, unsafe := range []bool{false, true} {
			es, _, _ := Choose(fixes, unsafe)
			if err := edit.Check(es, int64(len(data))); err != nil {
				t.Fatalf("chosen edits invalid: %v", err)
			}
			out, err := edit.Bytes(data, es)
			if err != nil {
				t.Fatal(err)
			}
			back, err := edit.Bytes(out, edit.Invert(data, es))
			if err != nil || !bytes.Equal(back, data) {
				t.Fatalf("inverse does not restore: %v", err)
			}
		}
	})
}
