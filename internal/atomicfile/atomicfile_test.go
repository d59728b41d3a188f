package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	for _, s := range []string{"one", "two"} {
		if err := Write(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != s {
			t.Errorf("got %q, want %q", got, s)
		}
	}
	if err := WriteNew(p, []byte("three"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("WriteNew over a file: %v", err)
	}
	q := filepath.Join(dir, "g")
	if err := WriteNew(q, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(q); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// TestPending: the target keeps its content until Commit; Abort and
// RemovePending leave no temporary file.
func TestPending(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.txt")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Create(target, 0o640)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.WriteString("new"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Fatalf("target before Commit: %q", b)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target after Commit: %q", b)
	}
	a, _ := Create(target, 0o640)
	a.Abort()
	r, _ := Create(target, 0o640)
	RemovePending()
	r.Close()
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target after abort: %q", b)
	}
}
