//go:build !purego

#include "textflag.h"

// func keyExtremes32AVX2(p unsafe.Pointer, blocks int, lo, hi *[8]uint32)
//
// key(b) = b ^ (b >>arith 31 >>logical 1 | 1<<31), two blocks of eight a
// loop in two pairs of accumulators.
TEXT ·keyExtremes32AVX2(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ lo+16(FP), DI
	MOVQ hi+24(FP), DX
	VPCMPEQD Y15, Y15, Y15
	VPSLLD   $31, Y15, Y14
	VMOVDQU  (DI), Y0
	VMOVDQU  (DX), Y1
	VMOVDQU  Y0, Y2
	VMOVDQU  Y1, Y3

loop:
	TESTQ   CX, CX
	JZ      done
	VMOVDQU 0(SI), Y4
	VMOVDQU 32(SI), Y5
	VPSRAD  $31, Y4, Y6
	VPSRAD  $31, Y5, Y7
	VPSRLD  $1, Y6, Y6
	VPSRLD  $1, Y7, Y7
	VPOR    Y14, Y6, Y6
	VPOR    Y14, Y7, Y7
	VPXOR   Y6, Y4, Y4
	VPXOR   Y7, Y5, Y5
	VPMINUD Y4, Y0, Y0
	VPMAXUD Y4, Y1, Y1
	VPMINUD Y5, Y2, Y2
	VPMAXUD Y5, Y3, Y3
	ADDQ    $64, SI
	DECQ    CX
	JMP     loop

done:
	VPMINUD    Y2, Y0, Y0
	VPMAXUD    Y3, Y1, Y1
	VMOVDQU    Y0, (DI)
	VMOVDQU    Y1, (DX)
	VZEROUPPER
	RET
