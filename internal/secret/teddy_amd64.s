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

// The same finder with AVX2, 64 bytes a round as two halves of 32
// (teddyBlocksAVX2), for the processors without AVX-512 VBMI. AVX2's byte
// shuffle (VPSHUFB) reads a 16-entry table in each 16-byte lane, by the
// low four bits of each byte (zero where the byte's high bit is set), so
// each group and place has two tables (see tedNibbles): one read by a
// byte's bits 0-3, one by its bits 3-6; the buckets a byte allows are the
// AND of the two. A byte above 0x7e reads as 0x7e (VPMINUB), which leaves
// its high bit clear, so the first shuffle reads it as it is; for the
// second it is shifted right by three (VPSRLW, on words: the next byte's
// low bits come in at the top, VPAND clears them). Each group of 8
// buckets and each of the four places costs two shuffles and two ANDs per
// half, the tables loaded once for both; the groups OR-ed, a compare with
// zero and VPMOVMSKB give a half's 32 positions' bits.
DATA ted0f<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ted0f<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ted0f<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ted0f<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL ted0f<>(SB), RODATA|NOPTR, $32

// INDEX sets lo to the 32 bytes at off(SI), those above 0x7e as 0x7e,
// and hi to their bits 3-6.
#define INDEX(off, lo, hi) \
	VMOVDQU off(SI), lo \
	VPMINUB ted7e<>(SB), lo, lo \
	VPSRLW $3, lo, hi \
	VPAND ted0f<>(SB), hi, hi

// FIRST sets acc0 and acc1 to the buckets of the group whose tables
// for the first place start at off(DX) that allow the bytes of the first
// half (Y8, Y9) and of the second (Y10, Y11); NEXT ANDs into them those
// of a place after.
#define FIRST(off, acc0, acc1) \
	VMOVDQU (off)(DX), Y12 \
	VMOVDQU (off+32)(DX), Y13 \
	VPSHUFB Y8, Y12, acc0 \
	VPSHUFB Y9, Y13, Y14 \
	VPAND Y14, acc0, acc0 \
	VPSHUFB Y10, Y12, acc1 \
	VPSHUFB Y11, Y13, Y15 \
	VPAND Y15, acc1, acc1

#define NEXT(off, acc0, acc1) \
	VMOVDQU (off)(DX), Y12 \
	VMOVDQU (off+32)(DX), Y13 \
	VPSHUFB Y8, Y12, Y14 \
	VPAND Y14, acc0, acc0 \
	VPSHUFB Y9, Y13, Y15 \
	VPAND Y15, acc0, acc0 \
	VPSHUFB Y10, Y12, Y14 \
	VPAND Y14, acc1, acc1 \
	VPSHUFB Y11, Y13, Y15 \
	VPAND Y15, acc1, acc1

// func teddyBlocksAVX2(n *tedNibbles, text []byte, out []uint64)
// As teddyBlocks, by the nibble tables n. Where fewer than 67 bytes are
// left and they do not lie in one page, they are copied to a zeroed
// buffer on the stack (AVX2 has no masked byte loads) and read there.
// Y0-Y3: the groups' buckets in the first half, Y4-Y7 in the second.
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
	VPXOR Y15, Y15, Y15
	VMOVDQU Y15, 0(SP)
	VMOVDQU Y15, 32(SP)
	VMOVDQU Y15, 64(SP)
	VMOVDQU Y15, 96(SP)
	VMOVDQU Y15, 128(SP)
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
	INDEX(0, Y8, Y9)
	INDEX(32, Y10, Y11)
	FIRST(0, Y0, Y4)
	FIRST(256, Y1, Y5)
	FIRST(512, Y2, Y6)
	FIRST(768, Y3, Y7)
	INDEX(1, Y8, Y9)
	INDEX(33, Y10, Y11)
	NEXT(64, Y0, Y4)
	NEXT(320, Y1, Y5)
	NEXT(576, Y2, Y6)
	NEXT(832, Y3, Y7)
	INDEX(2, Y8, Y9)
	INDEX(34, Y10, Y11)
	NEXT(128, Y0, Y4)
	NEXT(384, Y1, Y5)
	NEXT(640, Y2, Y6)
	NEXT(896, Y3, Y7)
	INDEX(3, Y8, Y9)
	INDEX(35, Y10, Y11)
	NEXT(192, Y0, Y4)
	NEXT(448, Y1, Y5)
	NEXT(704, Y2, Y6)
	NEXT(960, Y3, Y7)
	VPOR Y1, Y0, Y0
	VPOR Y3, Y2, Y2
	VPOR Y5, Y4, Y4
	VPOR Y7, Y6, Y6
	VPOR Y2, Y0, Y0
	VPOR Y6, Y4, Y4
	VPXOR Y15, Y15, Y15
	VPCMPEQB Y15, Y0, Y0
	VPCMPEQB Y15, Y4, Y4
	VPMOVMSKB Y0, AX
	VPMOVMSKB Y4, R9
	NOTL AX
	NOTL R9
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
