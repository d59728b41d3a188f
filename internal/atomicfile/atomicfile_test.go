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
