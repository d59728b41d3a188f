//go:build !unix

package readonly

const (
	oNonblock = 0
	oNofollow = 0
	oNoatime  = 0
)
