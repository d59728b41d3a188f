//go:build !linux || !(amd64 || arm64)

package hugeheap

// Advise does nothing but on 64-bit Linux.
func Advise() bool { return false }

// Settle does nothing but on 64-bit Linux.
func Settle() {}
