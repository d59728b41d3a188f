//go:build !amd64

package jsontree

// wide and wide64 say stringStop and stringStop64 may be used: never off
// amd64.
var wide, wide64 = false, false

func stringStop(b []byte, j int) (int, bool)   { panic("unreachable") }
func stringStop64(b []byte, j int) (int, bool) { panic("unreachable") }
