//go:build unix

package store

import (
	"errors"
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
