//go:build unix && !(linux && (amd64 || arm64))

package readonly

import "syscall"

// The system calls of a Handle (see rawsys_linux.go, where they are raw).

func readFD(fd int, p []byte) (int, error) { return syscall.Read(fd, p) }

func openFD(path string, flags int) (int, error) { return syscall.Open(path, flags, 0) }

func fstatFD(fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }

func closeFD(fd int) error { return syscall.Close(fd) }
