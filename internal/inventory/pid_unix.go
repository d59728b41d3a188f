//go:build unix

package inventory

import (
	"errors"
	"syscall"
)

// pidLive reports whether a process with this id runs (signal 0 checks
// without sending anything; EPERM means it runs as another user).
func pidLive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
