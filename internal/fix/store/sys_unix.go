//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// processAlive reports whether process pid exists (signal 0 reaches it, or
// it belongs to another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// inode is the file's inode number, or 0 when the system gives none.
func inode(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}

// fileID is the file's device and inode.
type fileID struct{ dev, ino uint64 }

func idOf(st os.FileInfo) (fileID, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(s.Dev), uint64(s.Ino)}, true //nolint:unconvert // int32 on some systems
	}
	return fileID{}, false
}

// tryLock takes an exclusive advisory lock on f without waiting; false
// when another process holds one.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// keepOwner gives f the owner, group and mode of st. An owner or group it
// cannot give (not root) is an error when it differs from what f has.
func keepOwner(f *os.File, st os.FileInfo) error {
	if err := f.Chmod(st.Mode().Perm()); err != nil {
		return err
	}
	want, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	have, err := f.Stat()
	if err != nil {
		return err
	}
	h, ok := have.Sys().(*syscall.Stat_t)
	if !ok || h.Uid == want.Uid && h.Gid == want.Gid {
		return nil
	}
	if err := f.Chown(int(want.Uid), int(want.Gid)); err != nil {
		return fmt.Errorf("cannot keep its owner %d:%d (%v)", want.Uid, want.Gid, err)
	}
	// chown may clear set-id bits; the mode is set again.
	return f.Chmod(st.Mode().Perm())
}
