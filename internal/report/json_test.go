package report

import (
	"bytes"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
)

// TestJSONSpliced: the report written finding by finding is the document
// one encoding of the whole gives, byte for byte (none, one, several
// findings; invisible characters escaped; related places, a fix, an invalid
// path).
func TestJSONSpliced(t *testing.T) {
	all := []finding.Finding{
		{Rule: "schema", Severity: finding.Error, Path: "a.jsonl", Line: 1, Column: 2, Message: "bidi \u202e here", Pointer: "/x"},
		{Rule: "duplicate-uuid", Severity: finding.Warning, Path: "b\xff.jsonl", Line: 3, Column: 1, Message: "m", UUID: "u",
			Related: []finding.Location{{Path: "b\xff.jsonl", Line: 1, Column: 1, Pointer: "/uuid", Message: "first \u0085"}}},
		{Rule: "missing-final-newline", Severity: finding.Note, Path: "c.jsonl", Line: 9, Column: 4, Message: "fix",
			Fix: &finding.Fix{Safety: "safe", Message: "add it"}},
	}
	for n := range len(all) + 1 {
		r := &Run{Version: "v\u200f1", Findings: all[:n], Files: 3, Entries: 7}
		var got bytes.Buffer
		if err := JSON(&got, r); err != nil {
			t.Fatal(err)
		}
		whole := jsonReport{SchemaVersion: SchemaVersion, Tool: jsonTool{Name: "ccvet", Version: r.Version}, Findings: []jsonFinding{}, Summary: r.Summarize()}
		for k := range r.Findings {
			whole.Findings = append(whole.Findings, jsonFindingOf(&r.Findings[k]))
		}
		var want bytes.Buffer
		if err := EncodeJSON(&want, whole); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d findings:\n%s\nwant\n%s", n, got.String(), want.String())
		}
	}
}
