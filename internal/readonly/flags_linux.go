package readonly

import "syscall"

const (
	oNonblock = syscall.O_NONBLOCK
	oNofollow = syscall.O_NOFOLLOW
	oNoatime  = syscall.O_NOATIME
)
