//go:build !purego

#include "textflag.h"

// func writeRunsAVX2(dst *uint32, starts, ends *int32, stride int, labels *uint32, n int)
TEXT ·writeRunsAVX2(SB), NOSPLIT, $0-48
	MOVQ  dst+0(FP), DI
	MOVQ  starts+8(FP), SI
	MOVQ  ends+16(FP), R8
	MOVQ  stride+24(FP), R10
	MOVQ  labels+32(FP), R9
	MOVQ  n+40(FP), CX
	VPXOR Y1, Y1, Y1
	XORQ  AX, AX

loop:
	TESTQ        CX, CX
	JZ           done
	MOVLQSX      (SI), BX
	MOVLQSX      (R8), DX
	VPBROADCASTD (R9), Y0

gap:
	VMOVDQU Y1, (DI)(AX*4)
	ADDQ    $8, AX
	CMPQ    AX, BX
	JLT     gap
	MOVQ    BX, AX

run:
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ    $8, AX
	CMPQ    AX, DX
	JLT     run
	MOVQ    DX, AX
	ADDQ    R10, SI
	ADDQ    R10, R8
	ADDQ    $4, R9
	DECQ    CX
	JMP     loop

done:
	VZEROUPPER
	RET
