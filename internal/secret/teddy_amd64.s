#include "textflag.h"

// The keyword prefilter's candidate finder, after the "Teddy" method of
// Hyperscan (Intel), 64 bytes at a time with AVX-512 VBMI: each keyword's
// first four bytes (all of a shorter one, the places after it then the
// bytes that may follow it) go in one of 32 buckets, in 4 groups of 8; for each group and
// each of the four places, a 64-entry table (VPERMB reads it by the low 6
// bits of a byte's class, see tedClass) says which buckets allow a byte
// of that class there, both cases of a letter alike. A position is a
// candidate when some bucket allows its byte and the three after. A
// byte's class: above 0x7e read as 0x7e (VPMINUB), then bit 5 cleared
// where bit 6 is set (VPSRLW, VPTERNLOGD).
DATA ted7e<>+0(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA ted7e<>+8(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA ted7e<>+16(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA ted7e<>+24(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA ted7e<>+32(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA ted7e<>+40(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA ted7e<>+48(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA ted7e<>+56(SB)/8, $0x7e7e7e7e7e7e7e7e
GLOBL ted7e<>(SB), RODATA|NOPTR, $64

DATA ted20<>+0(SB)/8, $0x2020202020202020
DATA ted20<>+8(SB)/8, $0x2020202020202020
DATA ted20<>+16(SB)/8, $0x2020202020202020
DATA ted20<>+24(SB)/8, $0x2020202020202020
DATA ted20<>+32(SB)/8, $0x2020202020202020
DATA ted20<>+40(SB)/8, $0x2020202020202020
DATA ted20<>+48(SB)/8, $0x2020202020202020
DATA ted20<>+56(SB)/8, $0x2020202020202020
GLOBL ted20<>(SB), RODATA|NOPTR, $64

// GROUP sets acc to the buckets of the group whose four tables start at
// off(DX) that allow the classes at each position (Z0), after (Z1), two
// after (Z2) and three after (Z3).
#define GROUP(off, acc) \
	VPERMB (off+0)(DX), Z0, acc \
	VPERMB (off+64)(DX), Z1, Z8 \
	VPERMB (off+128)(DX), Z2, Z9 \
	VPTERNLOGD $0x80, Z9, Z8, acc \
	VPERMB (off+192)(DX), Z3, Z8 \
	VPANDQ Z8, acc, acc

// CLASS makes each byte of z its class in its low 6 bits (Z10: scratch).
#define CLASS(z) \
	VPMINUB Z15, z, z \
	VPSRLW $1, z, Z10 \
	VPTERNLOGD $0x70, Z14, Z10, z

// func teddyBlocks(t *tedTables, text []byte, out []uint64)
// out[k] gets the candidates among positions 64k to 64k+63 of text, one
// bit each, for k below len(out) and 64k below len(text). It may report
// as candidates positions among the last three of text that are not
// (see tail): the caller checks every candidate.
TEXT ·teddyBlocks(SB), NOSPLIT, $0-56
	MOVQ t+0(FP), DX
	MOVQ text_base+8(FP), SI
	MOVQ text_len+16(FP), BX
	MOVQ out_base+32(FP), DI
	MOVQ out_len+40(FP), CX
	TESTQ BX, BX
	JZ done
	TESTQ CX, CX
	JZ done
	VMOVDQU64 ted7e<>(SB), Z15
	VMOVDQU64 ted20<>(SB), Z14
	MOVQ $-1, R8

loop:
	MOVQ R8, R11 // the positions in text
	CMPQ BX, $67
	JL tail

whole:
	VMOVDQU64 0(SI), Z0
	VMOVDQU64 1(SI), Z1
	VMOVDQU64 2(SI), Z2
	VMOVDQU64 3(SI), Z3
	JMP lookup

tail:
	// Fewer than 67 bytes left (BX > 0). Where the 67 bytes from SI lie
	// in one page, they can be read whole: the bytes past the end only
	// add candidates at the last positions (each is checked), and the
	// positions past the end are dropped. Masked loads, which read none
	// past the end, are much slower.
	BZHIQ BX, R8, R11
	MOVQ SI, R10
	ANDQ $4095, R10
	CMPQ R10, $(4096-67)
	JLS whole
	BZHIQ BX, R8, R9
	KMOVQ R9, K2
	VMOVDQU8.Z 0(SI), K2, Z0
	LEAQ -1(BX), R10
	BZHIQ R10, R8, R9
	KMOVQ R9, K2
	VMOVDQU8.Z 1(SI), K2, Z1
	LEAQ -2(BX), R10
	XORQ R9, R9
	TESTQ R10, R10
	JLE tail2
	BZHIQ R10, R8, R9

tail2:
	KMOVQ R9, K2
	VMOVDQU8.Z 2(SI), K2, Z2
	LEAQ -3(BX), R10
	XORQ R9, R9
	TESTQ R10, R10
	JLE tail3
	BZHIQ R10, R8, R9

tail3:
	KMOVQ R9, K2
	VMOVDQU8.Z 3(SI), K2, Z3

lookup:
	CLASS(Z0)
	CLASS(Z1)
	CLASS(Z2)
	CLASS(Z3)
	GROUP(0, Z4)
	GROUP(256, Z5)
	GROUP(512, Z6)
	GROUP(768, Z7)
	VPTERNLOGD $0xfe, Z6, Z5, Z4
	VPORQ Z7, Z4, Z4
	VPTESTMB Z4, Z4, K1
	KMOVQ K1, AX
	ANDQ R11, AX
	MOVQ AX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $64, BX
	JLE end
	DECQ CX
	JNZ loop

end:
	VZEROUPPER

done:
	RET

// The same finder with AVX2, 32 bytes at a time (teddyBlocksAVX2), for
// the processors without AVX-512 VBMI. AVX2's byte shuffle (VPSHUFB)
// reads a 16-entry table in each 16-byte lane, by the low four bits of
// each byte (zero where the byte's high bit is set), so each 64-entry
// table becomes two (see tedNibbles): the buckets that some byte with a
// given low nibble allows, and those that some byte with a given high
// nibble allows; a byte's buckets are the AND of its two. A byte above
// 0x7e reads as 0x7e (VPMINUB), which also leaves its high bit clear,
// so the low-nibble shuffle reads it as it is; its high nibble is the
// word shifted right by four (VPSRLW), the next byte's bits cleared
// (VPAND). Each group of 8 buckets and each of the four places costs two
// shuffles and two ANDs; the groups OR-ed, a compare with zero and
// VPMOVMSKB give the 32 positions' bits, and two halves one output word.
DATA ted0f<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ted0f<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ted0f<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ted0f<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL ted0f<>(SB), RODATA|NOPTR, $32

// NIBBLES sets x to the 32 bytes at off(SI), those above 0x7e as 0x7e,
// and h to their high nibbles.
#define NIBBLES(off, x, h) \
	VPMINUB off(SI), Y15, x \
	VPSRLW $4, x, h \
	VPAND Y14, h, h

// PLACE ANDs into acc the buckets that allow the bytes x, of high
// nibbles h, at the place whose two tables start at off(DX) (Y11, Y12:
// scratch).
#define PLACE(off, x, h, acc) \
	VMOVDQU (off)(DX), Y11 \
	VPSHUFB x, Y11, Y11 \
	VMOVDQU (off+32)(DX), Y12 \
	VPSHUFB h, Y12, Y12 \
	VPAND Y11, acc, acc \
	VPAND Y12, acc, acc

// GROUP32 sets acc to the buckets of the group whose tables start at
// off(DX) that allow the bytes at each position (Y0, high nibbles Y4),
// after (Y1, Y5), two after (Y2, Y6) and three after (Y3, Y7).
#define GROUP32(off, acc) \
	VMOVDQU (off)(DX), acc \
	VPSHUFB Y0, acc, acc \
	VMOVDQU (off+32)(DX), Y12 \
	VPSHUFB Y4, Y12, Y12 \
	VPAND Y12, acc, acc \
	PLACE(off+64, Y1, Y5, acc) \
	PLACE(off+128, Y2, Y6, acc) \
	PLACE(off+192, Y3, Y7, acc)

// HALF sets the low 32 bits of res to the candidates among the 32
// positions from off(SI) (and clears the rest).
#define HALF(off, res) \
	NIBBLES(off+0, Y0, Y4) \
	NIBBLES(off+1, Y1, Y5) \
	NIBBLES(off+2, Y2, Y6) \
	NIBBLES(off+3, Y3, Y7) \
	GROUP32(0, Y8) \
	GROUP32(256, Y9) \
	GROUP32(512, Y10) \
	VPOR Y9, Y8, Y8 \
	GROUP32(768, Y9) \
	VPOR Y10, Y8, Y8 \
	VPOR Y9, Y8, Y8 \
	VPCMPEQB Y13, Y8, Y8 \
	VPMOVMSKB Y8, res \
	NOTL res

// func teddyBlocksAVX2(n *tedNibbles, text []byte, out []uint64)
// As teddyBlocks, by the nibble tables n. Where fewer than 67 bytes are
// left and they do not lie in one page, they are copied to a zeroed
// buffer on the stack (AVX2 has no masked byte loads) and read there.
TEXT ·teddyBlocksAVX2(SB), NOSPLIT, $160-56
	MOVQ n+0(FP), DX
	MOVQ text_base+8(FP), SI
	MOVQ text_len+16(FP), BX
	MOVQ out_base+32(FP), DI
	MOVQ out_len+40(FP), CX
	TESTQ BX, BX
	JZ done
	TESTQ CX, CX
	JZ done
	VMOVDQU ted7e<>(SB), Y15
	VMOVDQU ted0f<>(SB), Y14
	VPXOR Y13, Y13, Y13
	MOVQ $-1, R8
	XORQ R12, R12 // 1 once SI is in the copy

loop:
	MOVQ R8, R11 // the positions in text
	CMPQ BX, $67
	JGE whole
	BZHIQ BX, R8, R11
	TESTQ R12, R12
	JNZ whole
	MOVQ SI, R10
	ANDQ $4095, R10
	CMPQ R10, $(4096-67)
	JLS whole

	// The rest (BX bytes, 1 to 66) to the buffer: two blocks' reads, 131
	// bytes, lie in its 160.
	VMOVDQU Y13, 0(SP)
	VMOVDQU Y13, 32(SP)
	VMOVDQU Y13, 64(SP)
	VMOVDQU Y13, 96(SP)
	VMOVDQU Y13, 128(SP)
	XORQ R9, R9

copy:
	MOVB (SI)(R9*1), R10
	MOVB R10, 0(SP)(R9*1)
	INCQ R9
	CMPQ R9, BX
	JLT copy
	LEAQ 0(SP), SI
	MOVQ $1, R12

whole:
	HALF(0, AX)
	HALF(32, R9)
	SHLQ $32, R9
	ORQ R9, AX
	ANDQ R11, AX
	MOVQ AX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $64, BX
	JLE end
	DECQ CX
	JNZ loop

end:
	VZEROUPPER

done:
	RET
