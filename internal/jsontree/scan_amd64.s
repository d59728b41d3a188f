#include "textflag.h"

// The bytes the scans compare with, 64 of each (stringStop, with AVX2,
// reads the first 32).
#define REP64(name, v) \
	DATA name<>+0(SB)/8, v \
	DATA name<>+8(SB)/8, v \
	DATA name<>+16(SB)/8, v \
	DATA name<>+24(SB)/8, v \
	DATA name<>+32(SB)/8, v \
	DATA name<>+40(SB)/8, v \
	DATA name<>+48(SB)/8, v \
	DATA name<>+56(SB)/8, v \
	GLOBL name<>(SB), RODATA|NOPTR, $64

// REP16x4 is a 16-byte table (lo, then hi) four times over.
#define REP16x4(name, lo, hi) \
	DATA name<>+0(SB)/8, lo \
	DATA name<>+8(SB)/8, hi \
	DATA name<>+16(SB)/8, lo \
	DATA name<>+24(SB)/8, hi \
	DATA name<>+32(SB)/8, lo \
	DATA name<>+40(SB)/8, hi \
	DATA name<>+48(SB)/8, lo \
	DATA name<>+56(SB)/8, hi \
	GLOBL name<>(SB), RODATA|NOPTR, $64

REP64(quotes64, $0x2222222222222222)
REP64(backslashes64, $0x5c5c5c5c5c5c5c5c)
REP64(spaces64, $0x2020202020202020)
REP64(nibbles64, $0x0f0f0f0f0f0f0f0f)
REP64(controls64, $0x1f1f1f1f1f1f1f1f)

// The bytes that may follow a backslash without a closer look ("\/bfnrt),
// classified by nibble: a byte is one of them when the classes of its high
// and low nibble share a bit (high 2: bit 0, 5: bit 1, 6: bit 2, 7: bit 3);
// the 16-byte table is repeated four times.
REP16x4(escLo64, $0x00040008000d0000, $0x0104000200000000)
REP16x4(escHi64, $0x0804020000010000, $0)

// func stringStop(b []byte, j int) (stop int, esc bool)
//
// See scan_amd64.go. Registers: DI b, DX len(b), BX the offset reached,
// R8 the start of the last whole block, R11 esc, R12 1 in the last block;
// Y0-Y2 the constants '"', '\\' and 0x1f; per block Y3 the bytes, and
// R9, R10, R13 the masks of its quotes, backslashes and control bytes.
TEXT ·stringStop(SB), NOSPLIT, $0-41
	MOVQ b_base+0(FP), DI
	MOVQ b_len+8(FP), DX
	MOVQ j+24(FP), BX
	XORL R11, R11
	XORL R12, R12
	VMOVDQU quotes64<>(SB), Y0
	VMOVDQU backslashes64<>(SB), Y1
	VMOVDQU controls64<>(SB), Y2
	LEAQ -32(DX), R8

loop:
	CMPQ BX, R8
	JA   last
	VMOVDQU (DI)(BX*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPMINUB  Y2, Y3, Y6
	VPCMPEQB Y3, Y6, Y6
	VPOR     Y4, Y5, Y7
	VPOR     Y7, Y6, Y7
	VPMOVMSKB Y7, AX
	TESTL AX, AX
	JNZ   block
	ADDQ  $32, BX
	JMP   loop

last:
	// Fewer than 32 bytes remain: read the last 32 bytes of b; the flags
	// of those before BX are shifted out.
	CMPQ BX, DX
	JAE  none
	MOVL $1, R12
	VMOVDQU (DI)(R8*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPMINUB  Y2, Y3, Y6
	VPCMPEQB Y3, Y6, Y6
	MOVQ BX, CX
	SUBQ R8, CX
	JMP  masks

block:
	XORL CX, CX

masks:
	VPMOVMSKB Y4, R9
	VPMOVMSKB Y5, R10
	VPMOVMSKB Y6, R13
	SHRL CX, R9
	SHRL CX, R10
	SHRL CX, R13
	TESTL R10, R10
	JNZ  escapes
	MOVL R9, AX
	ORL  R13, AX
	JZ   none // the last block, with nothing left to see
	BSFL AX, AX
	ADDQ AX, BX
	JMP  out

escapes:
	// Bytes that are not a simple escape character: SI.
	VMOVDQU nibbles64<>(SB), Y10
	VMOVDQU escLo64<>(SB), Y8
	VMOVDQU escHi64<>(SB), Y9
	VPAND   Y10, Y3, Y11
	VPSHUFB Y11, Y8, Y11
	VPSRLW  $4, Y3, Y12
	VPAND   Y10, Y12, Y12
	VPSHUFB Y12, Y9, Y12
	VPAND   Y11, Y12, Y11
	VPXOR   Y12, Y12, Y12
	VPCMPEQB Y12, Y11, Y11
	VPMOVMSKB Y11, SI
	SHRL CX, SI
	// The stops: an unescaped quote, a control byte, a backslash before a
	// byte that is not a simple escape (\u, a bad escape: Go looks), and
	// the first of two backslashes in a row (Go takes the pair; the masks
	// below are right only up to it). Escaped: the byte after a backslash.
	MOVL R10, CX
	SHLL $1, CX      // escaped
	MOVL R9, AX
	ANDNL AX, CX, AX // unescaped quotes: AX = ^CX & AX
	ORL  R13, AX
	ANDL CX, SI      // escaped, not a simple escape character
	SHRL $1, SI      // its backslash
	ORL  SI, AX
	MOVL R10, SI
	SHRL $1, SI
	ANDL R10, SI     // backslashes followed by a backslash
	ANDNL SI, CX, SI // not escaped themselves: the first of a pair
	ORL  SI, AX
	TESTL AX, AX
	JZ   noStop
	BSFL AX, CX
	// esc: a backslash before the stop.
	MOVL $1, SI
	SHLL CX, SI
	DECL SI
	TESTL SI, R10
	JZ   stop
	MOVL $1, R11

stop:
	ADDQ CX, BX
	JMP  out

noStop:
	MOVL $1, R11
	TESTL R12, R12
	JNZ  none
	// A backslash in the last byte escapes the first of the next block:
	// start that block at the backslash.
	ADDQ $32, BX
	BTL  $31, R10
	JCC  loop
	DECQ BX
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


// func stringStop64(b []byte, j int) (stop int, esc bool)
//
// stringStop with AVX-512, 64 bytes at a time; the bytes left after the
// last whole block are read with a masked load, so b may be of any
// length. Registers: DI b, DX len(b), BX the offset reached, R8 the start
// of the last whole block, R11 esc, R12 1 in the last block; Z0-Z2 the
// constants '"', '\\' and 0x20; per block Z3 the bytes, and R9, R10, R13
// the masks of its quotes, backslashes and control bytes (K1-K3).
TEXT ·stringStop64(SB), NOSPLIT, $0-41
	MOVQ b_base+0(FP), DI
	MOVQ b_len+8(FP), DX
	MOVQ j+24(FP), BX
	XORL R11, R11
	XORL R12, R12
	VMOVDQU64 quotes64<>(SB), Z0
	VMOVDQU64 backslashes64<>(SB), Z1
	VMOVDQU64 spaces64<>(SB), Z2
	LEAQ -64(DX), R8

loop64:
	CMPQ BX, R8
	JGT  last64
	VMOVDQU64 (DI)(BX*1), Z3
	VPCMPEQB Z0, Z3, K1
	VPCMPEQB Z1, Z3, K2
	VPCMPUB  $1, Z2, Z3, K3
	KORQ     K1, K2, K4
	KORTESTQ K3, K4
	JNZ      block64
	ADDQ     $64, BX
	JMP      loop64

last64:
	// Fewer than 64 bytes remain: load them alone (the bytes past the end
	// are neither loaded nor flagged).
	MOVQ DX, CX
	SUBQ BX, CX
	JLE  none64
	MOVL $1, R12
	MOVQ $-1, AX
	BZHIQ CX, AX, AX
	KMOVQ AX, K5
	VMOVDQU8.Z (DI)(BX*1), K5, Z3
	VPCMPEQB Z0, Z3, K5, K1
	VPCMPEQB Z1, Z3, K5, K2
	VPCMPUB  $1, Z2, Z3, K5, K3

block64:
	KMOVQ K1, R9
	KMOVQ K2, R10
	KMOVQ K3, R13
	TESTQ R10, R10
	JNZ   escapes64
	MOVQ  R9, AX
	ORQ   R13, AX
	JZ    none64 // the last block, with nothing left to see
	TZCNTQ AX, AX
	ADDQ  AX, BX
	JMP   out64

escapes64:
	// Bytes that are not a simple escape character: SI.
	VMOVDQU64 nibbles64<>(SB), Z10
	VMOVDQU64 escLo64<>(SB), Z8
	VMOVDQU64 escHi64<>(SB), Z9
	VPANDQ    Z10, Z3, Z11
	VPSHUFB   Z11, Z8, Z11
	VPSRLW    $4, Z3, Z12
	VPANDQ    Z10, Z12, Z12
	VPSHUFB   Z12, Z9, Z12
	VPTESTNMB Z11, Z12, K6
	KMOVQ     K6, SI
	// The backslashes that escape the byte after them (AX) and the bytes
	// escaped (CX), runs of backslashes counted: the backslashes of a run
	// pair off from its first (a subtraction carries through each run,
	// after the escape scanner of simdjson), so a pair \\ is no stop.
	MOVQ  R10, AX
	SHLQ  $1, AX
	MOVQ  $-0x5555555555555556, CX // 0xAAAA...: the odd bits
	ORQ   CX, AX
	SUBQ  R10, AX
	XORQ  CX, AX
	MOVQ  AX, CX
	XORQ  R10, CX     // escaped
	ANDQ  R10, AX     // escaping
	// The stops: an unescaped quote, a control byte, a backslash before a
	// byte that is not a simple escape (\u, a bad escape: Go looks).
	ANDNQ R9, CX, R9  // unescaped quotes: R9 = ^CX & R9
	ORQ   R13, R9
	ANDQ  CX, SI      // escaped, not a simple escape character
	SHRQ  $1, SI      // its backslash
	ORQ   SI, R9
	TESTQ R9, R9
	JZ    noStop64
	TZCNTQ R9, CX
	// esc: a backslash before the stop.
	BZHIQ CX, R10, SI
	TESTQ SI, SI
	JZ    stop64
	MOVL  $1, R11

stop64:
	ADDQ CX, BX
	JMP  out64

noStop64:
	MOVL  $1, R11
	TESTL R12, R12
	JNZ   none64
	// A backslash in the last byte that escapes the first of the next
	// block: start that block at the backslash.
	ADDQ $64, BX
	BTQ  $63, AX
	JCC  loop64
	DECQ BX
	JMP  loop64

out64:
	MOVQ BX, stop+32(FP)
	MOVB R11, esc+40(FP)
	VZEROUPPER
	RET

none64:
	MOVQ DX, stop+32(FP)
	MOVB R11, esc+40(FP)
	VZEROUPPER
	RET
