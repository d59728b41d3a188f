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
	b := New(fs, nil)
	if len(b.Findings) != 2 || b.Findings[0].Path != "a.jsonl" || b.Findings[0].Count != 2 {
		t.Fatalf("baseline = %+v", b.Findings)
	}
	p := filepath.Join(t.TempDir(), "baseline.json")
	if err := Write(p, b); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(p)
	// The same findings in another order give the same bytes.
	if err := Write(p, New([]finding.Finding{fs[2], fs[0], fs[1]}, nil)); err != nil {
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
	kept, o := back.Apply(now, nil, nil)
	if len(kept) != 1 || kept[0].UUID != "u2" || o.Matched != 2 || o.Unmatched != 1 {
		t.Errorf("kept %+v, outcome %+v", kept, o)
	}
}

func TestReadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"garbage":   "nope",
		"version":   `{"version":1,"fingerprint":"ccvetFingerprint/v1","findings":[]}`,
		"scheme":    `{"version":2,"fingerprint":"other","findings":[]}`,
		"unknown":   `{"version":2,"fingerprint":"ccvetContentFingerprint/v1","findings":[],"extra":1}`,
		"zerocount": `{"version":2,"fingerprint":"ccvetContentFingerprint/v1","findings":[{"path":"a","fingerprint":"ab","count":0}]}`,
		"nopath":    `{"version":2,"fingerprint":"ccvetContentFingerprint/v1","findings":[{"fingerprint":"ab","count":1}]}`,
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

// TestKeyedPaths: entries are keyed on the path the key function gives, so
// a run that names the file otherwise still matches.
func TestKeyedPaths(t *testing.T) {
	f := finding.Finding{Rule: "blank-line", Path: "store/projects/-p/s.jsonl", Line: 2, Message: "blank line"}
	toRoot := func(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, "store/"), "other/") }
	b := New([]finding.Finding{f}, toRoot)
	if b.Findings[0].Path != "projects/-p/s.jsonl" {
		t.Fatalf("path %q", b.Findings[0].Path)
	}
	g := f
	g.Path, g.Line = "other/projects/-p/s.jsonl", 7
	if kept, o := b.Apply([]finding.Finding{g}, toRoot, nil); len(kept) != 0 || o.Matched != 1 {
		t.Errorf("kept %+v, outcome %+v", kept, o)
	}
	g.Path = "other/projects/-q/s.jsonl"
	if kept, _ := b.Apply([]finding.Finding{g}, toRoot, nil); len(kept) != 1 {
		t.Errorf("a finding in another file was hidden")
	}
}

// TestInSight: entries on paths out of the run's sight are not unmatched.
func TestInSight(t *testing.T) {
	b := New([]finding.Finding{{Rule: "blank-line", Path: "a.jsonl", Message: "x"}, {Rule: "blank-line", Path: "b.jsonl", Message: "x"}}, nil)
	onlyA := func(p string) bool { return p == "a.jsonl" }
	if _, o := b.Apply(nil, nil, onlyA); o.Unmatched != 1 {
		t.Errorf("unmatched %d, want 1", o.Unmatched)
	}
	if _, o := b.Apply(nil, nil, nil); o.Unmatched != 2 {
		t.Errorf("unmatched %d, want 2", o.Unmatched)
	}
}

// TestKeyedFindings: a finding with a Key (a secret's) is recorded by it,
// so a change of counts in its message does not make it new; a baseline
// written before Key existed, which recorded it by its message, still
// hides it, once per entry.
func TestKeyedFindings(t *testing.T) {
	secretAt := func(msg string) finding.Finding {
		return finding.Finding{Rule: "secret", Path: "s.jsonl", UUID: "u1", Message: msg, Key: "aws-access-token\x003f9a00c0ffee"}
	}
	b := New([]finding.Finding{secretAt("a key, once")}, nil)
	kept, o := b.Apply([]finding.Finding{secretAt("a key, 3 times, 2 times in the store")}, nil, nil)
	if len(kept) != 0 || o.Matched != 1 {
		t.Errorf("by its Key: kept %d, outcome %+v", len(kept), o)
	}
	old := secretAt("a key, once")
	legacy := &File{Version: Version, Fingerprint: Scheme, Findings: []Entry{
		{Path: "s.jsonl", Fingerprint: finding.MessageFingerprint(&old), Count: 1, Rule: "secret"},
	}}
	kept, o = legacy.Apply([]finding.Finding{secretAt("a key, once"), secretAt("a key, once")}, nil, nil)
	if len(kept) != 1 || o.Matched != 1 || o.Unmatched != 0 {
		t.Errorf("by its message, as written before: kept %d, outcome %+v", len(kept), o)
	}
}
