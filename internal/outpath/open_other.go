//go:build !unix

package outpath

const oNonblock = 0
