//go:build !amd64

package secret

// wideKeywords says teddyBlocks may be used: never off amd64.
var wideKeywords = false

func teddyBlocks(t *tedTables, text []byte, out []uint64) { panic("unreachable") }
