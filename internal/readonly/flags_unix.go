//go:build unix && !linux

package readonly

import "syscall"

const (
	oNonblock = syscall.O_NONBLOCK
	oNoatime  = 0
)
