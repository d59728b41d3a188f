package lint

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestNoatime: the caller's own files are opened with O_NOATIME.
func TestNoatime(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := openReadOnly(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.f.Fd(), syscall.F_GETFL, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	if flags&syscall.O_NOATIME == 0 {
		t.Errorf("flags %#x: no O_NOATIME", flags)
	}
}
