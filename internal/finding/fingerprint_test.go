package finding

import "testing"

func TestFingerprint(t *testing.T) {
	base := Finding{Rule: "schema", Path: "p/a.jsonl", Line: 10, Column: 3, Pointer: "/message",
		UUID: "u1", Message: "expected 2 items, got 3"}
	fp := Fingerprint(&base)
	same := []func(f *Finding){
		func(f *Finding) { f.Line, f.Column = 99, 7 },
		func(f *Finding) { f.Message = "expected 5 items, got 12" },
		func(f *Finding) { f.Severity = Warning },
	}
	for i, change := range same {
		f := base
		change(&f)
		if Fingerprint(&f) != fp {
			t.Errorf("change %d changed the fingerprint", i)
		}
	}
	differ := []func(f *Finding){
		func(f *Finding) { f.Rule = "other" },
		func(f *Finding) { f.Path = "p/b.jsonl" },
		func(f *Finding) { f.UUID = "u2" },
		func(f *Finding) { f.Pointer = "/type" },
		func(f *Finding) { f.Message = "expected items" },
	}
	for i, change := range differ {
		f := base
		change(&f)
		if Fingerprint(&f) == fp {
			t.Errorf("change %d kept the fingerprint", i)
		}
	}
	// Without a uuid the pointer does not count: it is relative to a line.
	a := Finding{Rule: "blank-line", Path: "p/a.jsonl", Line: 3, Message: "blank line"}
	b := a
	b.Line, b.Pointer = 8, "/x"
	if Fingerprint(&a) != Fingerprint(&b) {
		t.Error("without a uuid, line and pointer changed the fingerprint")
	}
}
