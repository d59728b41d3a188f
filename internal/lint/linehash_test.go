package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// TestRepeatHashes checks that duplicate-uuid tells an exact repeat of a
// line from another line with its uuid, the lines read again (LineHashes)
// from a file on disk, from the copy of standard input and from an overlay
// (whose bytes differ from the file's on disk), and that LineHashes gives
// the same hash to equal lines only, a last line without a newline too.
func TestRepeatHashes(t *testing.T) {
	a := `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`
	data := []byte(`{"type":"user","uuid":"u0","message":{"role":"user","content":"first"}}` + "\n" +
		a + "\n" + a + "\n" +
		`{"type":"user","uuid":"u1","message":{"role":"user","content":"other"}}` + "\n" + a)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// On disk where the overlay is checked: the same length, other bytes.
	other := filepath.Join(dir, "o.jsonl")
	if err := os.WriteFile(other, bytes.Repeat([]byte("x"), len(data)), 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, e *Engine, lf *layout.File) {
		t.Helper()
		var got []string
		f := model.NewFile(lf, e.env, func(fd finding.Finding) {
			if fd.Rule == "duplicate-uuid" {
				got = append(got, fd.Severity.String()+" "+strings.Fields(fd.Message)[0]+" "+
					map[bool]string{true: "exactly", false: "other"}[strings.Contains(fd.Message, "exactly")])
			}
		})
		e.checkFile(f, false)
		if len(f.Records) != 5 {
			t.Fatalf("%d records", len(f.Records))
		}
		want := []string{"warning this exactly", "error user other", "warning this exactly"}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("duplicate-uuid: %q, want %q", got, want)
		}
		var offs []int64
		for _, r := range f.Records {
			offs = append(offs, r.Offset)
		}
		hs, ok := f.LineHashes(offs)
		for i := range hs {
			if !ok[i] {
				t.Fatalf("line %d not read again", i+1)
			}
		}
		if hs[1] != hs[2] || hs[1] != hs[4] || hs[0] == hs[1] || hs[3] == hs[1] {
			t.Errorf("hashes %x", hs)
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
		e := benchEngine(t, Options{Jobs: 1, Overlay: map[string][]byte{other: data}})
		check(t, e, &layout.File{OSPath: other, Path: "o.jsonl", Kind: layout.Transcript, Project: "."})
	})
}
