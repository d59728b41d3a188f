package lint

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// runOn lints path with one job and every default rule.
func runOn(t *testing.T, path string) (*Result, *layout.Result) {
	t.Helper()
	e, err := New(Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	found, err := layout.Discover([]string{path}, "")
	if err != nil {
		t.Fatal(err)
	}
	return e.Run(found), found
}

// TestLinesMarks: a line read again is the line, whatever order the lines
// are asked in (forward, backward, far apart: from a mark or by reading
// on), in a file of many marks with long, blank and broken lines, and a
// last line without a newline.
func TestLinesMarks(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := 1; i <= 10*model.MarkEvery+5; i++ {
		l := fmt.Sprintf(`{"type":"user","n":%d,"pad":"%s"}`, i, strings.Repeat("é", i%7*300))
		switch i % 13 {
		case 5:
			l = ""
		case 9:
			l = "{broken"
		}
		want = append(want, l)
	}
	p := filepath.Join(dir, "loose.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(want, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	res, found := runOn(t, p)
	defer res.Close()
	if f := res.src[0]; len(f.Marks) != len(want)/model.MarkEvery {
		t.Fatalf("%d marks for %d lines", len(f.Marks), len(want))
	}
	lines := res.Lines()
	defer lines.Close()
	order := rand.New(rand.NewPCG(3, 4)).Perm(len(want))
	order = append(order, 0, 1, 2, len(want)-1, len(want)-1, len(want)-2)
	for _, i := range order {
		got, ok := lines.Line(found.Files[0].Path, i+1)
		if !ok || string(got) != want[i] {
			t.Fatalf("line %d: %q %v, want %q", i+1, got, ok, want[i])
		}
	}
	if _, ok := lines.Line(found.Files[0].Path, len(want)+1); ok {
		t.Error("a line past the end was read")
	}
}
