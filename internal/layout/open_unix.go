//go:build unix

package layout

import "syscall"

const oNonblock = syscall.O_NONBLOCK
