//go:build !purego

#include "textflag.h"

// func writeRunsAVX2(dst *uint32, starts, ends *int32, stride int, labels *uint32, n, from, blocks int)
TEXT ·writeRunsAVX2(SB), NOSPLIT, $0-64
	MOVQ  dst+0(FP), DI
	MOVQ  starts+8(FP), SI
	MOVQ  ends+16(FP), R8
	MOVQ  stride+24(FP), R10
	MOVQ  labels+32(FP), R9
	MOVQ  n+40(FP), CX
	MOVQ  from+48(FP), AX
	MOVQ  blocks+56(FP), R12
	VPXOR Y1, Y1, Y1

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
	MOVQ    R12, R11

	// The first blocks blocks of eight of the run, whatever its length:
	// a loop of the same count for every run, which the branch predictor
	// follows.
first:
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ    $8, AX
	DECQ    R11
	JNZ     first

run:
	CMPQ    AX, DX
	JGE     next
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     run

next:
	MOVQ DX, AX
	ADDQ R10, SI
	ADDQ R10, R8
	ADDQ $4, R9
	DECQ CX
	JMP  loop

done:
	VZEROUPPER
	RET

// func writeTouchingAVX2(dst *uint32, bounds *uint16, labels *uint32, n, blocks int)
TEXT ·writeTouchingAVX2(SB), NOSPLIT, $0-40
	MOVQ    dst+0(FP), DI
	MOVQ    bounds+8(FP), SI
	MOVQ    labels+16(FP), R9
	MOVQ    n+24(FP), CX
	MOVQ    blocks+32(FP), R12
	MOVWQZX (SI), AX

tloop:
	TESTQ        CX, CX
	JZ           tdone
	MOVWQZX      2(SI), DX
	VPBROADCASTD (R9), Y0
	MOVQ         R12, R11

tfirst:
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ    $8, AX
	DECQ    R11
	JNZ     tfirst

trun:
	CMPQ    AX, DX
	JGE     tnext
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     trun

tnext:
	MOVQ DX, AX
	ADDQ $2, SI
	ADDQ $4, R9
	DECQ CX
	JMP  tloop

tdone:
	VZEROUPPER
	RET
