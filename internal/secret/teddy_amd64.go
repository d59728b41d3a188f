package secret

import "golang.org/x/sys/cpu"

// wideKeywords says teddyBlocks may be used (it needs AVX-512 with VBMI,
// and BMI2); without it the automaton finds the keywords.
var wideKeywords = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI && cpu.X86.HasBMI2

// teddyBlocks sets out[k] to the candidate positions (one bit each) among
// bytes 64k to 64k+63 of text, by the tables t (see teddy.go), for the k
// below len(out) where 64k < len(text); bytes past the end of text read
// as zeros. Implemented in assembly (teddy_amd64.s).
//
//go:noescape
func teddyBlocks(t *tedTables, text []byte, out []uint64)
