#include "textflag.h"

// func stringStop(b []byte, j int) (stop int, esc bool)
//
// See scan_amd64.go. Registers: DI b, DX len(b), BX the offset reached,
// R8 the start of the last whole block, R11 esc, Y0-Y2 the constants.
TEXT ·stringStop(SB), NOSPLIT, $0-41
	MOVQ b_base+0(FP), DI
	MOVQ b_len+8(FP), DX
	MOVQ j+24(FP), BX
	XORL R11, R11
	MOVL $0x22, AX
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	MOVL $0x5c, AX
	MOVQ AX, X1
	VPBROADCASTB X1, Y1
	MOVL $0x1f, AX
	MOVQ AX, X2
	VPBROADCASTB X2, Y2
	LEAQ -32(DX), R8

loop:
	CMPQ BX, R8
	JA   last
	VMOVDQU (DI)(BX*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPMINUB  Y2, Y3, Y6
	VPCMPEQB Y3, Y6, Y6
	VPOR     Y4, Y5, Y4
	VPOR     Y4, Y6, Y4
	VPMOVMSKB Y4, AX
	TESTL AX, AX
	JNZ   found
	ADDQ  $32, BX
	JMP   loop

last:
	// Fewer than 32 bytes remain: read the last 32 bytes of b and drop
	// the flags of those before BX.
	CMPQ BX, DX
	JAE  none
	VMOVDQU (DI)(R8*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPMINUB  Y2, Y3, Y6
	VPCMPEQB Y3, Y6, Y6
	VPOR     Y4, Y5, Y4
	VPOR     Y4, Y6, Y4
	VPMOVMSKB Y4, AX
	MOVQ BX, CX
	SUBQ R8, CX
	SHRL CX, AX
	TESTL AX, AX
	JZ    none

found:
	BSFL AX, AX
	ADDQ AX, BX
	// A backslash followed by one of "\/bfnrt is skipped here; anything
	// else (a quote, a control byte, \u, a bad escape) goes back to Go.
	MOVBLZX (DI)(BX*1), AX
	CMPL AX, $0x5c
	JNE  out
	LEAQ 1(BX), CX
	CMPQ CX, DX
	JAE  out
	MOVBLZX (DI)(CX*1), AX
	CMPL AX, $0x40
	JAE  high
	MOVQ $0x800400000000, R9 // '"' and '/'
	BTQ  AX, R9
	JCC  out
	JMP  skip

high:
	CMPL AX, $0x80
	JAE  out
	SUBL $0x40, AX
	MOVQ $0x14404410000000, R9 // '\\', 'b', 'f', 'n', 'r', 't' (less 0x40)
	BTQ  AX, R9
	JCC  out

skip:
	MOVL $1, R11
	ADDQ $2, BX
	JMP  loop

out:
	MOVQ BX, stop+32(FP)
	MOVB R11, esc+40(FP)
	VZEROUPPER
	RET

none:
	MOVQ DX, stop+32(FP)
	MOVB R11, esc+40(FP)
	VZEROUPPER
	RET
