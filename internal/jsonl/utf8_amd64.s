#include "textflag.h"

// UTF-8 validation 32 bytes at a time, after the method of Keiser and
// Lemire ("Validating UTF-8 In Less Than One Instruction Per Byte", 2021):
// each byte and the one before it are classified by three 16-entry tables
// (the high nibble of the first, its low nibble, the high nibble of the
// second); a bit left in all three is an error of that pair. The bits:
// 0x01 too short (a lead or ASCII byte after a lead), 0x02 too long (a
// continuation after ASCII), 0x04 overlong 3-byte, 0x08 above U+10FFFF,
// 0x10 surrogate, 0x20 overlong 2-byte, 0x40 overlong 4-byte or above
// U+10FFFF, 0x80 two continuations (an error unless the second is the
// third or fourth byte of a sequence, which the bytes two and three back
// say).
DATA utfHi1<>+0(SB)/8, $0x0202020202020202
DATA utfHi1<>+8(SB)/8, $0x4915012180808080
DATA utfHi1<>+16(SB)/8, $0x0202020202020202
DATA utfHi1<>+24(SB)/8, $0x4915012180808080
GLOBL utfHi1<>(SB), RODATA|NOPTR, $32
DATA utfLo1<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA utfLo1<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
DATA utfLo1<>+16(SB)/8, $0xcbcbcb8b8383a3e7
DATA utfLo1<>+24(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL utfLo1<>(SB), RODATA|NOPTR, $32
DATA utfHi2<>+0(SB)/8, $0x0101010101010101
DATA utfHi2<>+8(SB)/8, $0x01010101babaaee6
DATA utfHi2<>+16(SB)/8, $0x0101010101010101
DATA utfHi2<>+24(SB)/8, $0x01010101babaaee6
GLOBL utfHi2<>(SB), RODATA|NOPTR, $32
DATA utfMax<>+0(SB)/8, $0xffffffffffffffff
DATA utfMax<>+8(SB)/8, $0xffffffffffffffff
DATA utfMax<>+16(SB)/8, $0xffffffffffffffff
DATA utfMax<>+24(SB)/8, $0xbfdfefffffffffff
GLOBL utfMax<>(SB), RODATA|NOPTR, $32
DATA utfNib<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA utfNib<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA utfNib<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA utfNib<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL utfNib<>(SB), RODATA|NOPTR, $32
DATA utf60<>+0(SB)/8, $0x6060606060606060
DATA utf60<>+8(SB)/8, $0x6060606060606060
DATA utf60<>+16(SB)/8, $0x6060606060606060
DATA utf60<>+24(SB)/8, $0x6060606060606060
GLOBL utf60<>(SB), RODATA|NOPTR, $32
DATA utf70<>+0(SB)/8, $0x7070707070707070
DATA utf70<>+8(SB)/8, $0x7070707070707070
DATA utf70<>+16(SB)/8, $0x7070707070707070
DATA utf70<>+24(SB)/8, $0x7070707070707070
GLOBL utf70<>(SB), RODATA|NOPTR, $32
DATA utf80<>+0(SB)/8, $0x8080808080808080
DATA utf80<>+8(SB)/8, $0x8080808080808080
DATA utf80<>+16(SB)/8, $0x8080808080808080
DATA utf80<>+24(SB)/8, $0x8080808080808080
GLOBL utf80<>(SB), RODATA|NOPTR, $32

// func validBlocks(b []byte) bool
// len(b) is a multiple of 32, at least 32. It reports false when b holds
// an invalid sequence; a sequence cut by the end of b is not reported
// (the caller checks the end).
TEXT ·validBlocks(SB), NOSPLIT, $0-25
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	VMOVDQU utfHi1<>(SB), Y4
	VMOVDQU utfLo1<>(SB), Y5
	VMOVDQU utfHi2<>(SB), Y6
	VMOVDQU utfNib<>(SB), Y7
	VMOVDQU utfMax<>(SB), Y8
	VMOVDQU utf60<>(SB), Y9
	VMOVDQU utf70<>(SB), Y10
	VMOVDQU utf80<>(SB), Y11
	VPXOR Y1, Y1, Y1 // the block before
	VPXOR Y2, Y2, Y2 // errors
	VPXOR Y3, Y3, Y3 // the block before ends inside a sequence

loop:
	// Two blocks of ASCII are the usual case: they are passed together.
	CMPQ CX, $64
	JB one
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y12
	VPOR Y0, Y12, Y13
	VPMOVMSKB Y13, AX
	TESTL AX, AX
	JNZ one
	VPOR Y3, Y2, Y2
	VPXOR Y3, Y3, Y3
	VMOVDQU Y12, Y1
	ADDQ $64, SI
	SUBQ $64, CX
	JNZ loop
	JMP done

one:
	VMOVDQU (SI), Y0
	VPMOVMSKB Y0, AX
	TESTL AX, AX
	JNZ multi
	// All ASCII: an error only if the block before ended inside a sequence.
	VPOR Y3, Y2, Y2
	VPXOR Y3, Y3, Y3
	JMP next

multi:
	VPERM2I128 $0x21, Y0, Y1, Y12 // the last half of the block before, the first of this one
	VPALIGNR $14, Y12, Y0, Y14    // each byte's second byte before
	VPALIGNR $13, Y12, Y0, Y15    // third before
	VPALIGNR $15, Y12, Y0, Y13    // first before
	VPSUBUSB Y9, Y14, Y14         // high bit: at least 0xE0
	VPSUBUSB Y10, Y15, Y15        // high bit: at least 0xF0
	VPOR Y15, Y14, Y14
	VPAND Y11, Y14, Y14           // must be a continuation
	VPSRLW $4, Y13, Y12
	VPAND Y7, Y12, Y12
	VPSHUFB Y12, Y4, Y12
	VPAND Y7, Y13, Y13
	VPSHUFB Y13, Y5, Y13
	VPAND Y13, Y12, Y12
	VPSRLW $4, Y0, Y15
	VPAND Y7, Y15, Y15
	VPSHUFB Y15, Y6, Y15
	VPAND Y15, Y12, Y12
	VPXOR Y14, Y12, Y12
	VPOR Y12, Y2, Y2
	VPSUBUSB Y8, Y0, Y3           // a lead byte too close to the end

next:
	VMOVDQU Y0, Y1
	ADDQ $32, SI
	SUBQ $32, CX
	JNZ loop

done:
	VPTEST Y2, Y2
	SETEQ ret+24(FP)
	VZEROUPPER
	RET
