//go:build !unix

package lint

import "errors"

const oNonblock = 0

var errNotRegular = errors.New("not a regular file")
