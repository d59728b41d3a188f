package fix

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/fix/store"
	"github.com/ccvet/ccvet/internal/layout"
)

// isolate points HOME and XDG_STATE_HOME at temp folders: tests never touch the real home.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	return home
}

func planPaths(t *testing.T, unsafe bool, paths ...string) *Result {
	t.Helper()
	found, err := layout.Discover(paths, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Plan(found, Options{Unsafe: unsafe})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// provenance checks that every line of orig is in out byte-identical at
// its shifted place, or touched by an edit.
func provenance(t *testing.T, orig, out []byte, es []edit.Edit) {
	t.Helper()
	for a := 0; a < len(orig); {
		b := bytes.IndexByte(orig[a:], '\n')
		if b < 0 {
			b = len(orig)
		} else {
			b += a + 1
		}
		touched := false
		for _, e := range es {
			if e.Offset < int64(b) && e.End() > int64(a) || e.Length == 0 && e.Offset >= int64(a) && e.Offset <= int64(b) {
				touched = true
			}
		}
		if !touched {
			s := edit.NewShifter(es).Shift(int64(a))
			if s+int64(b-a) > int64(len(out)) || !bytes.Equal(out[s:s+int64(b-a)], orig[a:b]) {
				t.Fatalf("line at %d-%d is not in the output unchanged", a, b)
			}
		}
		a = b
	}
}

// confined checks that each line an edit changed parses to the same object
// except the allowed top-level fields.
func confined(t *testing.T, orig, out []byte, es []edit.Edit, allowed ...string) {
	t.Helper()
	for _, e := range es {
		if e.Length == 0 || e.Text == "" {
			continue // inserts and deletes of whole bytes: provenance covers them
		}
		a := int64(bytes.LastIndexByte(orig[:e.Offset], '\n') + 1)
		b := bytes.IndexByte(orig[e.Offset:], '\n')
		end := int64(len(orig))
		if b >= 0 {
			end = e.Offset + int64(b)
		}
		sh := edit.NewShifter(es)
		s, t2 := sh.ShiftEnd(a), sh.ShiftEnd(end)
		var x, y map[string]any
		if json.Unmarshal(orig[a:end], &x) != nil || json.Unmarshal(out[s:t2], &y) != nil {
			t.Fatalf("edited line at %d does not parse before or after", a)
		}
		for _, k := range allowed {
			delete(x, k)
			delete(y, k)
		}
		xb, _ := json.Marshal(x)
		yb, _ := json.Marshal(y)
		if !bytes.Equal(xb, yb) {
			t.Fatalf("edit at %d changed more than %v", e.Offset, allowed)
		}
	}
}

// writeAll writes every changed file of res through a store in dir.
func writeAll(t *testing.T, res *Result, dir string) *store.Run {
	t.Helper()
	st := &store.Store{Dir: dir, Force: true}
	var changes []store.Change
	for _, f := range res.Files {
		if f.Err != nil {
			t.Fatalf("%s: %v", f.File.Path, f.Err)
		}
		if f.Changed() {
			changes = append(changes, f.Change())
		}
	}
	run, _, err := st.Write("fix", "test", changes)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}
