package jsontree

import "golang.org/x/sys/cpu"

// wide says stringStop may be used (it needs AVX2 and BMI1); tests turn it
// off to check the portable scan.
var wide = cpu.X86.HasAVX2 && cpu.X86.HasBMI1

// stringStop scans a string from offset j of b, 32 bytes at a time. It
// skips the escapes \" \\ \/ \b \f \n \r \t (esc reports whether it met
// a backslash) and stops at the first other byte that is '"', '\\' or
// below 0x20, returning its offset, or len(b) when there is none. A
// backslash it stops at begins an escape that is not one of those (\u,
// a bad escape) or is followed by another backslash. It needs
// len(b) >= 32. Implemented in assembly: within a block of 32 bytes the
// escapes are found with bit masks, not one at a time.
//
//go:noescape
func stringStop(b []byte, j int) (stop int, esc bool)
