package readonly

import "syscall"

const (
	oNonblock = syscall.O_NONBLOCK
	oNoatime  = syscall.O_NOATIME
)
