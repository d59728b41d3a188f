package storetest

import (
	"os"
	"syscall"
	"testing"
)

// OtherFileSystem is a folder on another file system than path's (so a
// backup there is a copy): /dev/shm when it is one, else a tmpfs mounted
// for the test (as root), else the test is skipped with a notice.
func OtherFileSystem(t testing.TB, path string) string {
	t.Helper()
	dev := func(p string) uint64 {
		var st syscall.Stat_t
		if syscall.Stat(p, &st) != nil {
			return 0
		}
		return uint64(st.Dev) //nolint:unconvert // not uint64 on every system
	}
	if d := dev("/dev/shm"); d != 0 && d != dev(path) {
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
	t.Skip(SkipNotice)
	return ""
}
