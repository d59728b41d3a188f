package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/internal/edit"
)

var (
	orig  = []byte("{\"a\":1}\n{\"b\":2}\n{\"c\":3}")
	edits = []edit.Edit{{Offset: 8, Length: 8}, {Offset: int64(len(orig)), Text: "\n"}}
)

func newBytes(t *testing.T) []byte {
	b, err := edit.Bytes(orig, edits)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func setup(t *testing.T) (dir, file string) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir = t.TempDir()
	file = filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(file, orig, 0o640); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(t.TempDir(), "backups"), file
}

// TestFailureAfterEachStep injects a failure after each step of a replace:
// the file holds the old bytes or the new ones, never a mix, and the backup
// exists whenever the new bytes are in place.
func TestFailureAfterEachStep(t *testing.T) {
	boom := errors.New("injected")
	for _, step := range []string{"read", "temp", "backup", "restat", "rename", "verify"} {
		t.Run(step, func(t *testing.T) {
			bak, file := setup(t)
			s := &Store{Dir: bak, Step: func(name string) error {
				if name == step {
					return boom
				}
				return nil
			}}
			r, err := s.Begin("test")
			if err != nil {
				t.Fatal(err)
			}
			err = r.Replace(file, "s.jsonl", orig, edits, nil)
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v", err)
			}
			got, _ := os.ReadFile(file)
			switch {
			case bytes.Equal(got, orig):
			case bytes.Equal(got, newBytes(t)):
				b, err := os.ReadFile(filepath.Join(r.Dir(), "s.jsonl.orig"))
				if err != nil || !bytes.Equal(b, orig) {
					t.Fatalf("new bytes in place without a backup: %v", err)
				}
			default:
				t.Fatalf("file is a mix: %q", got)
			}
			ents, _ := os.ReadDir(filepath.Dir(file))
			if len(ents) != 1 {
				t.Fatalf("temp file left behind: %v", ents)
			}
		})
	}
}

// TestAppendDuringRun: lines a live writer appends between the plan and the
// rename are carried over; undo keeps them too.
func TestAppendDuringRun(t *testing.T) {
	bak, file := setup(t)
	tail := []byte("{\"d\":4}\n")
	// orig ends without a newline; the writer (2.1.330) writes one first.
	s := &Store{Dir: bak, Force: true}
	s.Appended = func(p string) {
		f, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		_, _ = f.Write(append([]byte("\n"), tail...))
		f.Close()
	}
	r, _ := s.Begin("test")
	err := r.Replace(file, "s.jsonl", orig, []edit.Edit{{Offset: 8, Length: 8}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want := append(append([]byte("{\"a\":1}\n{\"c\":3}"), '\n'), tail...)
	if !bytes.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if err := r.Commit(); err != nil {
		t.Fatal(err)
	}
	more := []byte("{\"e\":5}\n")
	f, _ := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	_, _ = f.Write(more)
	f.Close()
	if _, err := s.Undo("last"); err != nil {
		t.Fatal(err)
	}
	back, _ := os.ReadFile(file)
	wantBack := append(append(append(append([]byte{}, orig...), '\n'), tail...), more...)
	if !bytes.Equal(back, wantBack) {
		t.Fatalf("undo gave %q, want %q", back, wantBack)
	}
}

func TestModeKeptAndChangedFileRefused(t *testing.T) {
	bak, file := setup(t)
	s := &Store{Dir: bak}
	r, _ := s.Begin("test")
	if err := r.Replace(file, "s.jsonl", []byte("other"), edits, nil); !errors.Is(err, ErrRefused) {
		t.Fatalf("a changed file must be refused: %v", err)
	}
	if err := r.Replace(file, "s.jsonl", orig, edits, nil); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(file)
	if st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", st.Mode())
	}
}

func TestBeginNeverReuses(t *testing.T) {
	bak, _ := setup(t)
	s := &Store{Dir: bak}
	a, _ := s.Begin("t")
	b, _ := s.Begin("t")
	if a.Dir() == b.Dir() {
		t.Fatal("two runs share a folder")
	}
}

func TestInside(t *testing.T) {
	d := t.TempDir()
	if !Inside(filepath.Join(d, "x", "y"), d) || Inside(d+"-other", d) || !Inside(d, d) {
		t.Fatal("Inside")
	}
}
