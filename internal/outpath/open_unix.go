//go:build unix

package outpath

import "syscall"

// oNonblock keeps the check of a FIFO without a reader from blocking.
const oNonblock = syscall.O_NONBLOCK
