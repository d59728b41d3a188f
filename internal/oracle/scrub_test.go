//go:build unix

package oracle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScrubString(t *testing.T) {
	for in, want := range map[string]string{
		"toolu_01abc":                          "toolu_01abc",
		"/work/x/notes.txt":                    "/work/x/notes.txt",
		"You are a helpful agent. Be nice.":    Scrubbed,
		"Oracle done.":                         "Oracle done.",
		"Working directory: /tmp/oracle-out/x": Scrubbed,
		"Run.\n" + PlanMarker + " []":          "Run.\n" + PlanMarker + " []",
		"<system-reminder>\nSecret text.\n</system-reminder>\nOracle prompt": "<system-reminder>[scrubbed]</system-reminder>\nOracle prompt",
		"[Tool use interrupted]":                                  "[Tool use interrupted]",
		"This session is continued.\nSummary:\nOracle summary: x": Scrubbed + "\nOracle summary: x",
	} {
		if got := ScrubString(in); got != want {
			t.Errorf("ScrubString(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestScrubLineKeepsShape(t *testing.T) {
	in := `{"b":1.50,"a":[true,null,{"text":"You are Claude, an agent.","id":"x"}],"z":"Oracle"}`
	want := `{"b":1.50,"a":[true,null,{"text":"[scrubbed]","id":"x"}],"z":"Oracle"}`
	if got := string(ScrubLine([]byte(in))); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got := string(ScrubLine([]byte(`{"a":`))); !strings.Contains(got, "unparseable") {
		t.Errorf("torn line: %s", got)
	}
	if got := string(ScrubJSONL([]byte("{}\n{\"a\":\"b c\"}"))); got != "{}\n{\"a\":\"[scrubbed]\"}" {
		t.Errorf("jsonl: %q", got)
	}
}

// TestScrubSample prints what scrubbing keeps of a generated session
// (CCVET_ORACLE_SCRUB_SAMPLE=file.jsonl), for review by eye.
func TestScrubSample(t *testing.T) {
	f := os.Getenv("CCVET_ORACLE_SCRUB_SAMPLE")
	if f == "" {
		t.Skip("CCVET_ORACLE_SCRUB_SAMPLE not set")
	}
	b, err := os.ReadFile(filepath.Clean(f))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(string(ScrubJSONL(b)))
}

// TestScrubTrees writes a scrubbed copy of every data root under
// $CCVET_ORACLE_SCRUB_FROM (a TestGenerate output: VERSION/SCENARIO/root)
// to $CCVET_ORACLE_SCRUB_OUT/VERSION/SCENARIO.
func TestScrubTrees(t *testing.T) {
	from, to := os.Getenv("CCVET_ORACLE_SCRUB_FROM"), os.Getenv("CCVET_ORACLE_SCRUB_OUT")
	if from == "" || to == "" {
		t.Skip("CCVET_ORACLE_SCRUB_FROM and CCVET_ORACLE_SCRUB_OUT not set")
	}
	roots, err := filepath.Glob(filepath.Join(from, "*", "*", "root"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roots {
		rel, _ := filepath.Rel(from, filepath.Dir(r))
		if err := ScrubTree(r, filepath.Join(to, rel)); err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d data roots scrubbed into %s", len(roots), to)
}
