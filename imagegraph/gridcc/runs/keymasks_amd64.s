//go:build !purego

#include "textflag.h"

// GROUP compares the eight keys at off(SI) with zero and with those at
// off(R9) and off(R10), and ORs the three 8-bit masks into AX, DX and R14
// at bit sh.
#define GROUP(off, sh) \
	VMOVDQU   off(SI), Y0 \
	VPCMPEQD  Y15, Y0, Y1 \
	VPCMPEQD  off(R9), Y0, Y3 \
	VPCMPEQD  off(R10), Y0, Y4 \
	VMOVMSKPS Y1, R11 \
	SHLQ      $sh, R11 \
	ORQ       R11, AX \
	VMOVMSKPS Y3, R13 \
	SHLQ      $sh, R13 \
	ORQ       R13, DX \
	VMOVMSKPS Y4, R11 \
	SHLQ      $sh, R11 \
	ORQ       R11, R14

// func keyMasks32AVX2(c, d, n unsafe.Pointer, words int, out *uint64)
TEXT ·keyMasks32AVX2(SB), NOSPLIT, $0-40
	MOVQ  c+0(FP), SI
	MOVQ  d+8(FP), R9
	MOVQ  n+16(FP), R10
	MOVQ  words+24(FP), CX
	MOVQ  out+32(FP), DI
	VPXOR Y15, Y15, Y15

loop:
	TESTQ CX, CX
	JZ    done
	XORQ  AX, AX
	XORQ  DX, DX
	XORQ  R14, R14
	GROUP(0, 0)
	GROUP(32, 8)
	GROUP(64, 16)
	GROUP(96, 24)
	GROUP(128, 32)
	GROUP(160, 40)
	GROUP(192, 48)
	GROUP(224, 56)
	NOTQ AX
	MOVQ AX, 0(DI)
	MOVQ DX, 16(DI)
	MOVQ R14, 24(DI)
	ADDQ $256, SI
	ADDQ $256, R9
	ADDQ $256, R10
	ADDQ $32, DI
	DECQ CX
	JMP  loop

done:
	VZEROUPPER
	RET
