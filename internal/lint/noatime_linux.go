package lint

import "syscall"

const oNoatime = syscall.O_NOATIME
