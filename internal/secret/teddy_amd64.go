package secret

import "golang.org/x/sys/cpu"

// tedNative is how this processor reads the blocks: by teddyBlocks where
// it has AVX-512 with VBMI (and BMI2), else by teddyBlocksAVX2 where it
// has AVX2 and BMI2; tedGo (the automaton then finds the keywords) where
// it has neither.
var tedNative = func() tedPath {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI && cpu.X86.HasBMI2:
		return tedVBMI
	case tedHasAVX2:
		return tedAVX2
	}
	return tedGo
}()

// tedHasAVX2 says teddyBlocksAVX2 may be used.
var tedHasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasBMI2

// teddyBlocks sets out[k] to the candidate positions (one bit each) among
// bytes 64k to 64k+63 of text, by the tables t (see teddy.go), for the k
// below len(out) where 64k < len(text); bytes past the end of text read
// as zeros. Implemented in assembly (teddy_amd64.s).
//
//go:noescape
func teddyBlocks(t *tedTables, text []byte, out []uint64)

// teddyBlocksAVX2 is teddyBlocks by the nibble tables n (see tedNibbles)
// with AVX2, 32 bytes at a time: the same candidates and some more.
// Implemented in assembly (teddy_amd64.s).
//
//go:noescape
func teddyBlocksAVX2(n *tedNibbles, text []byte, out []uint64)
