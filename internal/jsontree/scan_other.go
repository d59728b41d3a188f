//go:build !amd64

package jsontree

// wide says stringStop may be used: never off amd64.
var wide = false

func stringStop(b []byte, j int) (int, bool) { panic("unreachable") }
