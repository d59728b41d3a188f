package store

import (
	"os"
	"syscall"
	"testing"
)

// otherFS is a folder on another file system than dir (so a backup there
// is a copy): /dev/shm when it is one, else a tmpfs mounted for the test
// (as root), else the test is skipped, saying so.
func otherFS(t *testing.T, dir string) string {
	t.Helper()
	dev := func(p string) uint64 {
		st, err := os.Stat(p)
		if err != nil {
			return 0
		}
		id, _ := idOf(st)
		return id.dev
	}
	if d := dev("/dev/shm"); d != 0 && d != dev(dir) {
		p, err := os.MkdirTemp("/dev/shm", "ccvet-test-")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(p) })
			return p
		}
	}
	p := t.TempDir()
	if os.Geteuid() == 0 && syscall.Mount("tmpfs", p, "tmpfs", 0, "size=16m") == nil {
		t.Cleanup(func() { _ = syscall.Unmount(p, 0) })
		return p
	}
	t.Skip("NOTICE: no folder on another file system (no tmpfs /dev/shm, and mounting one is not allowed): the copy backup is tested only through the internal option")
	return ""
}
