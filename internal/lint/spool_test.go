package lint

import (
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
)

// TestStdinSpooled: standard input is read as a stream and copied to an
// unnamed file, not held in memory; findings still get their columns and
// the lines can be read again.
func TestStdinSpooled(t *testing.T) {
	in := `{"type":"user","uuid":"u1","parentUuid":"nowhere","message":{"role":"user","content":"hi"}}` + "\n{broken\n"
	e, err := New(Options{Jobs: 1, Stdin: strings.NewReader(in)})
	if err != nil {
		t.Fatal(err)
	}
	found, err := layout.Discover([]string{"-"}, "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	res := e.Run(found)
	defer res.Close()
	if len(res.spools) != 1 || res.spools[0].file == nil || res.spools[0].mem.Len() != 0 {
		t.Fatalf("standard input is not spooled to a file: %+v", res.spools)
	}
	lines := res.Lines()
	defer lines.Close()
	if l, ok := lines.Line("x.jsonl", 2); !ok || string(l) != "{broken" {
		t.Errorf("line 2: %q %v", l, ok)
	}
	cols := 0
	for _, f := range res.Findings {
		if f.Rule == "orphan-parent" && f.Column > 1 {
			cols++
		}
	}
	if cols != 1 {
		t.Errorf("orphan-parent without its column: %+v", res.Findings)
	}
}
