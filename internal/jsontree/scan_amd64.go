package jsontree

import "golang.org/x/sys/cpu"

// wide says stringStop may be used (it needs AVX2); tests turn it off to
// check the portable scan.
var wide = cpu.X86.HasAVX2

// stringStop scans a string from offset j of b, 32 bytes at a time. It
// skips the escapes \" \\ \/ \b \f \n \r \t (esc reports whether it met
// one) and stops at the first other byte that is '"', '\\' or below 0x20,
// returning its offset, or len(b) when there is none. It needs
// len(b) >= 32. Implemented in assembly.
//
//go:noescape
func stringStop(b []byte, j int) (stop int, esc bool)
