//go:build !purego

#include "textflag.h"

// quantTailMask holds, at 32·t, the mask of the last t of four lanes.
DATA quantTailMask<>+0x00(SB)/8, $0
DATA quantTailMask<>+0x08(SB)/8, $0
DATA quantTailMask<>+0x10(SB)/8, $0
DATA quantTailMask<>+0x18(SB)/8, $0
DATA quantTailMask<>+0x20(SB)/8, $0
DATA quantTailMask<>+0x28(SB)/8, $0
DATA quantTailMask<>+0x30(SB)/8, $0
DATA quantTailMask<>+0x38(SB)/8, $-1
DATA quantTailMask<>+0x40(SB)/8, $0
DATA quantTailMask<>+0x48(SB)/8, $0
DATA quantTailMask<>+0x50(SB)/8, $-1
DATA quantTailMask<>+0x58(SB)/8, $-1
DATA quantTailMask<>+0x60(SB)/8, $0
DATA quantTailMask<>+0x68(SB)/8, $-1
DATA quantTailMask<>+0x70(SB)/8, $-1
DATA quantTailMask<>+0x78(SB)/8, $-1
GLOBL quantTailMask<>(SB), RODATA|NOPTR, $128

// quantConsts: 2^29 and 4 in four lanes each, the first indices 0, 1,
// 2, 3, then +Inf, -Inf and 2^-29 in four lanes each.
DATA quantConsts<>+0x00(SB)/8, $0x41c0000000000000
DATA quantConsts<>+0x08(SB)/8, $0x41c0000000000000
DATA quantConsts<>+0x10(SB)/8, $0x41c0000000000000
DATA quantConsts<>+0x18(SB)/8, $0x41c0000000000000
DATA quantConsts<>+0x20(SB)/8, $4
DATA quantConsts<>+0x28(SB)/8, $4
DATA quantConsts<>+0x30(SB)/8, $4
DATA quantConsts<>+0x38(SB)/8, $4
DATA quantConsts<>+0x40(SB)/8, $0
DATA quantConsts<>+0x48(SB)/8, $1
DATA quantConsts<>+0x50(SB)/8, $2
DATA quantConsts<>+0x58(SB)/8, $3
DATA quantConsts<>+0x60(SB)/8, $0x7ff0000000000000
DATA quantConsts<>+0x68(SB)/8, $0x7ff0000000000000
DATA quantConsts<>+0x70(SB)/8, $0x7ff0000000000000
DATA quantConsts<>+0x78(SB)/8, $0x7ff0000000000000
DATA quantConsts<>+0x80(SB)/8, $0xfff0000000000000
DATA quantConsts<>+0x88(SB)/8, $0xfff0000000000000
DATA quantConsts<>+0x90(SB)/8, $0xfff0000000000000
DATA quantConsts<>+0x98(SB)/8, $0xfff0000000000000
DATA quantConsts<>+0xa0(SB)/8, $0x3e20000000000000
DATA quantConsts<>+0xa8(SB)/8, $0x3e20000000000000
DATA quantConsts<>+0xb0(SB)/8, $0x3e20000000000000
DATA quantConsts<>+0xb8(SB)/8, $0x3e20000000000000
GLOBL quantConsts<>(SB), RODATA|NOPTR, $192

// SCALE takes the extremes of the four float64 samples in Y0 and leaves
// x = v·f in Y1; QUANT quantizes x (clobbering Y0-Y2) and adds its sums:
// r = roundeven(x), h = floor(r·2^-29) and l = r − h·2^29 (both exact),
// converted to integers by adding 1.5·2^52 and subtracting its bits; the
// lanes where r is not x (or NaN) are set in Y14.
#define SCALE \
	VMINPD Y0, Y10, Y10; \
	VMAXPD Y0, Y11, Y11; \
	VMULPD Y15, Y0, Y1

#define QUANT \
	VROUNDPD $0, Y1, Y0;  \
	VCMPPD   $4, Y0, Y1, Y1; \
	VORPD    Y1, Y14, Y14; \
	VMULPD   160(R8), Y0, Y2; \
	VROUNDPD $1, Y2, Y2;  \
	VMULPD   (R8), Y2, Y1; \
	VSUBPD   Y1, Y0, Y0;  \
	VADDPD   Y12, Y2, Y2; \
	VPSUBQ   Y12, Y2, Y2; \
	VADDPD   Y12, Y0, Y0; \
	VPSUBQ   Y12, Y0, Y0; \
	VPADDQ   Y2, Y3, Y3;  \
	VPADDQ   Y0, Y4, Y4;  \
	VPMULDQ  Y13, Y2, Y1; \
	VPADDQ   Y1, Y5, Y5;  \
	VPMULUDQ Y13, Y0, Y1; \
	VPADDQ   Y1, Y6, Y6;  \
	VPMULDQ  Y2, Y0, Y1;  \
	VPADDQ   Y1, Y8, Y8;  \
	VPMULDQ  Y2, Y2, Y2;  \
	VPADDQ   Y2, Y7, Y7;  \
	VPMULUDQ Y0, Y0, Y0;  \
	VPADDQ   Y0, Y9, Y9

// PAIR adds the four lanes of A and of B, leaving the sums in lanes 0
// and 2 of Y1 (clobbering Y2).
#define PAIR(A, B) \
	VPERM2I128 $0x20, B, A, Y1; \
	VPERM2I128 $0x31, B, A, Y2; \
	VPADDQ     Y2, Y1, Y1;      \
	VPSHUFD    $0x4e, Y1, Y2;   \
	VPADDQ     Y2, Y1, Y1

// func quantRuns32AVX2(row *float32, runs *int32, nruns int, f float64, out *runQuant, ahead uintptr) int
//
// For each run, of 4 to maxLaneSamples samples from runs[2k] (the first)
// and runs[2k+1] (the count), four samples a step in 64-bit lanes: Σh,
// Σl, Σ i·h, Σ i·l (i the sample's index from row, kept in Y13), Σh²,
// Σh·l and Σl². The last n%4 samples are the last lanes of a block of the
// last four, whose other lanes are multiplied by 0 (their samples are
// counted already; the extremes take them again). The lanes go out added
// as PAIR adds them, the sums of squares and products split into their
// high and low 32 bits first (Σh·l offset by 2^63), so that no sum
// overflows. It prefetches the samples 1024 bytes on and the bytes ahead
// bytes on from them. It returns the lanes of Y14 as a bit mask.
//
// Registers: Y3 Σh, Y4 Σl, Y5 Σ i·h, Y6 Σ i·l, Y7 Σh², Y8 Σh·l, Y9 Σl²,
// Y10 min, Y11 max, Y12 1.5·2^52, Y13 i, Y14 the inexact lanes, Y15 f;
// R8 the constants.
TEXT ·quantRuns32AVX2(SB), NOSPLIT, $0-56
	MOVQ         row+0(FP), SI
	MOVQ         runs+8(FP), R9
	MOVQ         nruns+16(FP), R10
	VBROADCASTSD f+24(FP), Y15
	MOVQ         out+32(FP), DI
	MOVQ         ahead+40(FP), R12
	LEAQ         quantConsts<>(SB), R8
	VPXOR        Y14, Y14, Y14
	MOVQ         $0x4338000000000000, AX
	VMOVQ        AX, X12
	VPBROADCASTQ X12, Y12
	TESTQ        R10, R10
	JZ           end

runloop:
	MOVLQSX      0(R9), AX
	MOVLQSX      4(R9), CX
	LEAQ         (SI)(AX*4), R11
	MOVQ         CX, DX
	ANDQ         $3, DX
	SHRQ         $2, CX
	LEAQ         -16(R11)(CX*8), BX
	LEAQ         (BX)(CX*8), BX
	LEAQ         (BX)(DX*4), BX                     // BX: the last four samples
	VMOVQ        AX, X13
	VPBROADCASTQ X13, Y13
	VPADDQ       64(R8), Y13, Y13                   // the indices from the first
	VMOVDQU      96(R8), Y10
	VMOVDQU      128(R8), Y11
	VPXOR        Y3, Y3, Y3
	VPXOR        Y4, Y4, Y4
	VPXOR        Y5, Y5, Y5
	VPXOR        Y6, Y6, Y6
	VPXOR        Y7, Y7, Y7
	VPXOR        Y8, Y8, Y8
	VPXOR        Y9, Y9, Y9

blockloop:
	PREFETCHT0 1024(R11)
	PREFETCHT0 (R11)(R12*1)
	VCVTPS2PD (R11), Y0
	SCALE
	QUANT
	VPADDQ    32(R8), Y13, Y13
	ADDQ      $16, R11
	DECQ      CX
	JNZ       blockloop

	TESTQ     DX, DX
	JZ        sums
	MOVQ      $4, AX
	SUBQ      DX, AX
	VMOVQ     AX, X0
	VPBROADCASTQ X0, Y0
	VPSUBQ    Y0, Y13, Y13
	SHLQ      $5, DX
	LEAQ      quantTailMask<>(SB), AX
	ADDQ      DX, AX
	VCVTPS2PD (BX), Y0
	SCALE
	VANDPD    (AX), Y1, Y1
	QUANT

sums:
	VEXTRACTF128 $1, Y10, X1
	VMINPD       X1, X10, X10
	VPERMILPD    $1, X10, X1
	VMINPD       X1, X10, X10
	VMOVSD       X10, 160(DI)
	VEXTRACTF128 $1, Y11, X1
	VMAXPD       X1, X11, X11
	VPERMILPD    $1, X11, X1
	VMAXPD       X1, X11, X11
	VMOVSD       X11, 168(DI)
	PAIR(Y3, Y4)
	VMOVDQU      Y1, 0(DI)
	PAIR(Y5, Y6)
	VMOVDQU      Y1, 32(DI)
	VPCMPEQQ     Y0, Y0, Y0
	VPSLLQ       $63, Y0, Y13
	VPSRLQ       $32, Y0, Y0
	VPXOR        Y13, Y8, Y8
	VPSRLQ       $32, Y7, Y10
	VPAND        Y0, Y7, Y11
	PAIR(Y10, Y11)
	VMOVDQU      Y1, 64(DI)
	VPSRLQ       $32, Y8, Y10
	VPAND        Y0, Y8, Y11
	PAIR(Y10, Y11)
	VMOVDQU      Y1, 96(DI)
	VPSRLQ       $32, Y9, Y10
	VPAND        Y0, Y9, Y11
	PAIR(Y10, Y11)
	VMOVDQU      Y1, 128(DI)
	ADDQ         $8, R9
	ADDQ         $176, DI
	DECQ         R10
	JNZ          runloop

end:
	VMOVMSKPD    Y14, AX
	MOVQ         AX, inexact+48(FP)
	VZEROUPPER
	RET

// func absMax32(row *float32, blocks int) uint32
//
// The greatest of the bits of |v| (the sign cleared) over blocks blocks of
// eight float32 samples: their order is that of |v|, NaN beyond +Inf.
TEXT ·absMax32(SB), NOSPLIT, $0-20
	MOVQ     row+0(FP), SI
	MOVQ     blocks+8(FP), CX
	VPCMPEQD Y2, Y2, Y2
	VPSRLD   $1, Y2, Y2
	VPXOR    Y0, Y0, Y0
	VPXOR    Y1, Y1, Y1
	TESTQ    CX, CX
	JZ       absdone

absloop:
	VPAND   (SI), Y2, Y3
	VPMAXUD Y3, Y0, Y0
	ADDQ    $32, SI
	DECQ    CX
	JNZ     absloop

absdone:
	VEXTRACTI128 $1, Y0, X1
	VPMAXUD      X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPMAXUD      X1, X0, X0
	VPSHUFD      $0xb1, X0, X1
	VPMAXUD      X1, X0, X0
	VMOVD        X0, AX
	MOVL         AX, ret+16(FP)
	VZEROUPPER
	RET
