//go:build !purego

#include "textflag.h"

// func otherBytesAVX2(d *byte, blocks int, v byte) bool
TEXT ·otherBytesAVX2(SB), NOSPLIT, $0-25
	MOVQ         d+0(FP), SI
	MOVQ         blocks+8(FP), CX
	MOVBLZX      v+16(FP), AX
	MOVQ         AX, X0
	VPBROADCASTB X0, Y0
	VPXOR        Y1, Y1, Y1
	VPCMPEQB     Y7, Y7, Y7

loop:
	TESTQ    CX, CX
	JZ       done
	VMOVDQU  0(SI), Y2
	VMOVDQU  32(SI), Y3
	VPCMPEQB Y1, Y2, Y4
	VPCMPEQB Y0, Y2, Y2
	VPOR     Y4, Y2, Y2
	VPCMPEQB Y1, Y3, Y5
	VPCMPEQB Y0, Y3, Y3
	VPOR     Y5, Y3, Y3
	VPAND    Y2, Y3, Y2
	VPAND    Y2, Y7, Y7
	ADDQ     $64, SI
	DECQ     CX
	JMP      loop

done:
	VPMOVMSKB Y7, AX
	VZEROUPPER
	CMPL      AX, $0xffffffff
	SETNE     ret+24(FP)
	RET
