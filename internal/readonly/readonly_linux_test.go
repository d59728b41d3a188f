package readonly

import (
	"errors"
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
	f, _, err := Open(p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETFL, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	if flags&syscall.O_NOATIME == 0 || flags&syscall.O_ACCMODE != syscall.O_RDONLY {
		t.Errorf("flags %#x: want read-only with O_NOATIME", flags)
	}
}

// TestNotRegular: a FIFO is refused without blocking.
func TestNotRegular(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	if _, _, err := Open(p, true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v", err)
	}
}

// TestNoFollow: without follow, a link is refused; with it, read.
func TestNoFollow(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l.jsonl")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if f, _, err := Open(link, false); err == nil {
		f.Close()
		t.Error("a link opened without follow")
	}
	f, _, err := Open(link, true)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestHandleFlags: a Handle's descriptor is read-only, O_NOATIME and
// close-on-exec, as os.File's, and a FIFO is refused without blocking.
func TestHandleFlags(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHandle(p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	fd := uintptr(h.h.fd)
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	if flags&syscall.O_NOATIME == 0 || flags&syscall.O_ACCMODE != syscall.O_RDONLY {
		t.Errorf("flags %#x: want read-only with O_NOATIME", flags)
	}
	fdFlags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFD, 0)
	if errno != 0 || fdFlags&syscall.FD_CLOEXEC == 0 {
		t.Errorf("F_GETFD %#x, %v: want close-on-exec", fdFlags, errno)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := OpenHandle(fifo, true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v", err)
	}
}
