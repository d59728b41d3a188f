//go:build !linux || !(amd64 || arm64)

package hugeheap

// Advise does nothing but on 64-bit Linux.
func Advise() bool { return false }

// Settle does nothing but on 64-bit Linux.
func Settle() {}

// bounded is false: nothing here borrows memory for advice.
func bounded() bool { return false }
