//go:build !amd64

package jsonl

// wideUTF8 says validBlocks may be used: never off amd64.
var wideUTF8 = false

func validBlocks(b []byte) bool { panic("unreachable") }
