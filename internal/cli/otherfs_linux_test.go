package cli

import (
	"os"
	"syscall"
	"testing"
)

// otherFileSystem is a folder on another file system than file's:
// /dev/shm when it is one, else a tmpfs mounted for the test as root, else
// the test is skipped with a notice.
func otherFileSystem(t *testing.T, file string) string {
	t.Helper()
	dev := func(p string) uint64 {
		var st syscall.Stat_t
		if syscall.Stat(p, &st) != nil {
			return 0
		}
		return uint64(st.Dev) //nolint:unconvert // not uint64 on every system
	}
	if d := dev("/dev/shm"); d != 0 && d != dev(file) {
		if p, err := os.MkdirTemp("/dev/shm", "ccvet-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(p) })
			return p
		}
	}
	p := t.TempDir()
	if os.Geteuid() == 0 && syscall.Mount("tmpfs", p, "tmpfs", 0, "size=16m") == nil {
		t.Cleanup(func() { _ = syscall.Unmount(p, 0) })
		return p
	}
	t.Skip("NOTICE: no folder on another file system here (no tmpfs /dev/shm, no tmpfs mount allowed); the store's tests force the copy path instead")
	return ""
}

// makeFifo makes a FIFO in dir ("" when the system cannot).
func makeFifo(t *testing.T, dir string) string {
	t.Helper()
	p := dir + "/fifo.jsonl"
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		return ""
	}
	return p
}
