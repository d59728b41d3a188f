//go:build unix && !linux

package readonly

import "syscall"

// readFD reads from fd (see readfd_linux.go, where the call is raw).
func readFD(fd int, p []byte) (int, error) { return syscall.Read(fd, p) }
