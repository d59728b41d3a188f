//go:build !unix

package layout

const oNonblock = 0
