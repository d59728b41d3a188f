package baseline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
)

func TestRoundTrip(t *testing.T) {
	fs := []finding.Finding{
		{Rule: "schema", Path: "b.jsonl", Line: 3, UUID: "u1", Pointer: "/x", Message: "bad x"},
		{Rule: "blank-line", Path: "a.jsonl", Line: 2, Message: "blank line"},
		{Rule: "blank-line", Path: "a.jsonl", Line: 9, Message: "blank line"},
	}
	b := New(fs)
	if len(b.Findings) != 2 || b.Findings[0].Path != "a.jsonl" || b.Findings[0].Count != 2 {
		t.Fatalf("baseline = %+v", b.Findings)
	}
	p := filepath.Join(t.TempDir(), "baseline.json")
	if err := Write(p, b); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(p)
	// The same findings in another order give the same bytes.
	if err := Write(p, New([]finding.Finding{fs[2], fs[0], fs[1]})); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(p)
	if !bytes.Equal(first, second) {
		t.Errorf("not stable:\n%s\n%s", first, second)
	}
	back, err := Read(p, "baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	// Lines moved; one of the two blank lines is gone; a new finding appears.
	now := []finding.Finding{
		{Rule: "blank-line", Path: "a.jsonl", Line: 12, Message: "blank line"},
		{Rule: "schema", Path: "b.jsonl", Line: 30, UUID: "u1", Pointer: "/x", Message: "bad x"},
		{Rule: "schema", Path: "b.jsonl", Line: 31, UUID: "u2", Pointer: "/x", Message: "bad x"},
	}
	kept, o := back.Apply(now)
	if len(kept) != 1 || kept[0].UUID != "u2" || o.Matched != 2 || o.Unmatched != 1 {
		t.Errorf("kept %+v, outcome %+v", kept, o)
	}
}

func TestReadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"garbage":   "nope",
		"version":   `{"version":2,"fingerprint":"ccvetFingerprint/v1","findings":[]}`,
		"scheme":    `{"version":1,"fingerprint":"other","findings":[]}`,
		"unknown":   `{"version":1,"fingerprint":"ccvetFingerprint/v1","findings":[],"extra":1}`,
		"zerocount": `{"version":1,"fingerprint":"ccvetFingerprint/v1","findings":[{"fingerprint":"ab","count":0}]}`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p, name); err == nil || !strings.HasPrefix(err.Error(), "baseline "+name+": ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
