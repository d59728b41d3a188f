package jsontree

import "golang.org/x/sys/cpu"

// wide says stringStop may be used (it needs AVX2 and BMI1); tests turn it
// off to check the portable scan.
var wide = cpu.X86.HasAVX2 && cpu.X86.HasBMI1

// wide64 says stringStop64 may be used (AVX-512 with byte instructions,
// BMI2); it is tried before wide, and tests turn it off to check the
// others.
var wide64 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasBMI1 && cpu.X86.HasBMI2

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

// stringStop64 is stringStop 64 bytes at a time, with AVX-512; b may be
// of any length (the bytes after the last whole block are read with a
// masked load). Most strings end within their first 64 bytes. It also
// skips runs of backslashes (\\ is a simple escape): a backslash it
// stops at begins \u or a bad escape.
//
//go:noescape
func stringStop64(b []byte, j int) (stop int, esc bool)
