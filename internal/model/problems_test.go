package model

import (
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/schema"
)

// TestProblemCache: the same bytes in another file of the run get the
// problems of the first validation; other bytes, or the same bytes in a
// file of another kind, are validated.
func TestProblemCache(t *testing.T) {
	v, err := schema.New()
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Schema: v}
	bad := []byte(`{"type":"user","uuid":"6b1f3c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f","parentUuid":null,"sessionId":"7d3f0c1a-5b2e-4c8d-9a61-2f4e8b0c9d13","timestamp":"yesterday","message":{"role":"user","content":"hi"},"isSidechain":false,"userType":"external","cwd":"/p","version":"2.1.110"}`)
	worse := []byte(`{"type":"user","uuid":"6b1f3c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f","parentUuid":null,"sessionId":"7d3f0c1a-5b2e-4c8d-9a61-2f4e8b0c9d13","timestamp":"yesterday","message":{"role":"bot","content":"hi"},"isSidechain":false,"userType":"external","cwd":"/p","version":"2.1.110"}`)
	problems := func(kind layout.Kind, raw []byte) []schema.Problem {
		f := &File{File: &layout.File{Kind: kind}, Env: env}
		l := &Line{File: f, Raw: raw}
		decodeForTest(t, l)
		return l.SchemaProblems()
	}
	first := problems(layout.Transcript, bad)
	if len(first) == 0 {
		t.Fatal("no problem on a bad line")
	}
	again := problems(layout.Transcript, bad)
	if len(again) != len(first) || &again[0] != &first[0] {
		t.Errorf("the same line was validated again (or got other problems): %v, %v", first, again)
	}
	other := problems(layout.Transcript, worse)
	if len(other) <= len(first) {
		t.Errorf("another line got the cached problems: %v", other)
	}
	if sub := problems(layout.Subagent, bad); len(sub) != len(first) || &sub[0] == &first[0] {
		t.Errorf("a subagent's line shared a transcript's entry (or got other problems): %v", sub)
	}
}

// decodeForTest parses l.Raw as the engine does for a line that parses.
func decodeForTest(t *testing.T, l *Line) {
	t.Helper()
	tree := new(jsontree.Tree)
	if err := tree.Parse(l.Raw); err != nil {
		t.Fatal(err)
	}
	l.Tree, l.Root = tree, jsontree.TreeVal(tree)
	l.Type, _ = tree.Str(tree.Get(jsontree.Root, "type"))
}
