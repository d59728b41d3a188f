//go:build unix

package lint

import (
	"errors"
	"syscall"
)

const oNonblock = syscall.O_NONBLOCK

var errNotRegular = errors.New("not a regular file")
