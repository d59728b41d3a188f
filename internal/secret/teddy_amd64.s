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
