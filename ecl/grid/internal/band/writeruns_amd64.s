//go:build !purego

#include "textflag.h"

// func writeRunsAVX2(dst *uint32, starts, ends *int32, labels *uint32, n int)
TEXT ·writeRunsAVX2(SB), NOSPLIT, $0-40
	MOVQ  dst+0(FP), DI
	MOVQ  starts+8(FP), SI
	MOVQ  ends+16(FP), R8
	MOVQ  labels+24(FP), R9
	MOVQ  n+32(FP), CX
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
	ADDQ    $4, SI
	ADDQ    $4, R8
	ADDQ    $4, R9
	DECQ    CX
	JMP     loop

done:
	VZEROUPPER
	RET
