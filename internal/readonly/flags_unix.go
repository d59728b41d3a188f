//go:build unix && !linux

package readonly

import "syscall"

const (
	oNonblock = syscall.O_NONBLOCK
	oNofollow = syscall.O_NOFOLLOW
	oNoatime  = 0
)
