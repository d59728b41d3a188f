package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// TestLineHashes checks that the records of a repeated uuid get the hashes
// of their lines, the first line's read again, from a file on disk, from
// standard input and from an overlay; and that the others get none.
func TestLineHashes(t *testing.T) {
	a := `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`
	data := []byte(`{"type":"user","uuid":"u0","message":{"role":"user","content":"first"}}` + "\n" +
		a + "\n" + a + "\n" +
		`{"type":"user","uuid":"u1","message":{"role":"user","content":"other"}}` + "\n")
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, e *Engine, lf *layout.File) {
		t.Helper()
		f := model.NewFile(lf, e.env, func(finding.Finding) {})
		e.checkLines(f)
		r := f.Records
		if len(r) != 4 {
			t.Fatalf("%d records", len(r))
		}
		if r[0].Hash != 0 {
			t.Errorf("a uuid seen once has hash %x", r[0].Hash)
		}
		if r[1].Hash == 0 || r[1].Hash != r[2].Hash || r[1].Hash != hash([]byte(a)) {
			t.Errorf("exact repeat: hashes %x %x, want %x", r[1].Hash, r[2].Hash, hash([]byte(a)))
		}
		if r[3].Hash == r[1].Hash || r[3].Hash == 0 {
			t.Errorf("different line: hash %x", r[3].Hash)
		}
	}
	t.Run("disk", func(t *testing.T) {
		e := benchEngine(t, Options{Jobs: 1})
		check(t, e, &layout.File{OSPath: path, Path: "s.jsonl", Kind: layout.Transcript, Project: "."})
	})
	t.Run("stdin", func(t *testing.T) {
		e := benchEngine(t, Options{Jobs: 1, Stdin: bytes.NewReader(data)})
		check(t, e, &layout.File{OSPath: "-", Path: "-", Stdin: true, Kind: layout.Transcript, Project: "."})
		for _, sp := range e.spools {
			sp.Close()
		}
	})
	t.Run("overlay", func(t *testing.T) {
		e := benchEngine(t, Options{Jobs: 1, Overlay: map[string][]byte{"/nowhere/s.jsonl": data}})
		check(t, e, &layout.File{OSPath: "/nowhere/s.jsonl", Path: "s.jsonl", Kind: layout.Transcript, Project: "."})
	})
}
