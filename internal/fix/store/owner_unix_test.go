//go:build unix

package store

import (
	"os"
	"syscall"
	"testing"
)

// TestOwnerModeKept: fix and undo keep a file's owner, group and mode (as
// root, a file of another user stays that user's).
func TestOwnerModeKept(t *testing.T) {
	bak, file := setup(t)
	if err := os.Chmod(file, 0o604); err != nil {
		t.Fatal(err)
	}
	chowned := os.Geteuid() == 0 && os.Chown(file, 4242, 4343) == nil
	check := func(when string) {
		t.Helper()
		st, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o604 {
			t.Fatalf("%s: mode %v", when, st.Mode())
		}
		if sys := st.Sys().(*syscall.Stat_t); chowned && (sys.Uid != 4242 || sys.Gid != 4343) {
			t.Fatalf("%s: owner %d:%d", when, sys.Uid, sys.Gid)
		}
	}
	s := &Store{Dir: bak}
	if _, _, err := s.Write("fix", "test", []Change{change(t, file)}); err != nil {
		t.Fatal(err)
	}
	check("fix")
	if _, err := s.Undo("last"); err != nil {
		t.Fatal(err)
	}
	check("undo")
	if !chowned {
		t.Log("not root: the owner is not changed by the test, only the mode is checked")
	}
}
