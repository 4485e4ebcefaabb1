//go:build !purego

#include "textflag.h"

// quantTailMask holds, at 16·t, the mask of the first t of four float32
// lanes.
DATA quantTailMask<>+0x00(SB)/8, $0
DATA quantTailMask<>+0x08(SB)/8, $0
DATA quantTailMask<>+0x10(SB)/8, $0x00000000ffffffff
DATA quantTailMask<>+0x18(SB)/8, $0
DATA quantTailMask<>+0x20(SB)/8, $-1
DATA quantTailMask<>+0x28(SB)/8, $0
DATA quantTailMask<>+0x30(SB)/8, $-1
DATA quantTailMask<>+0x38(SB)/8, $0x00000000ffffffff
GLOBL quantTailMask<>(SB), RODATA|NOPTR, $64

// quantConsts: 1.5·2^82 in four lanes, 1.5·2^52, then the shifts 64, 0,
// 1, 1 and the mask of the last lane, which weigh four lanes by 0, 1, 2, 3.
DATA quantConsts<>+0x00(SB)/8, $0x4518000000000000
DATA quantConsts<>+0x08(SB)/8, $0x4518000000000000
DATA quantConsts<>+0x10(SB)/8, $0x4518000000000000
DATA quantConsts<>+0x18(SB)/8, $0x4518000000000000
DATA quantConsts<>+0x20(SB)/8, $0x4338000000000000
DATA quantConsts<>+0x28(SB)/8, $64
DATA quantConsts<>+0x30(SB)/8, $0
DATA quantConsts<>+0x38(SB)/8, $1
DATA quantConsts<>+0x40(SB)/8, $1
DATA quantConsts<>+0x48(SB)/8, $0
DATA quantConsts<>+0x50(SB)/8, $0
DATA quantConsts<>+0x58(SB)/8, $0
DATA quantConsts<>+0x60(SB)/8, $-1
GLOBL quantConsts<>(SB), RODATA|NOPTR, $104

// QUANT quantizes the four x = v·f in Y1 (clobbering Y0-Y2 and Y13) and
// adds their sums. Adding C = 1.5·2^82 rounds x to a multiple of 2^30,
// h·2^30 (ties to even): h is the bits of x + C less C's, and l = x −
// h·2^30 is exact, |l| <= 2^29; adding 1.5·2^52 rounds l to an integer,
// ties to even, whose bits less its own are that integer, so that h·2^30
// + l is x rounded, ties to even, with |h| <= 2^28 and |l| <= 2^29 for |x|
// <= 2^58. The lanes where l is not an integer (or NaN) are set in Y14.
// Σh and Σl go to Y3 and Y4, and their running sums, added after each
// step, to Y5 and Y6.
#define QUANT \
	VADDPD   (R8), Y1, Y2;   \
	VSUBPD   (R8), Y2, Y0;   \
	VPSUBQ   (R8), Y2, Y2;   \
	VSUBPD   Y0, Y1, Y1;     \
	VADDPD   Y12, Y1, Y0;    \
	VSUBPD   Y12, Y0, Y13;   \
	VCMPPD   $4, Y13, Y1, Y1; \
	VORPD    Y1, Y14, Y14;   \
	VPSUBQ   Y12, Y0, Y0;    \
	VPADDQ   Y2, Y3, Y3;     \
	VPADDQ   Y0, Y4, Y4;     \
	VPADDQ   Y3, Y5, Y5;     \
	VPADDQ   Y4, Y6, Y6;     \
	VPMULDQ  Y2, Y0, Y1;     \
	VPADDQ   Y1, Y8, Y8;     \
	VPMULDQ  Y2, Y2, Y2;     \
	VPADDQ   Y2, Y7, Y7;     \
	VPMULDQ  Y0, Y0, Y0;     \
	VPADDQ   Y0, Y9, Y9

// WEIGH sets P to S's lanes weighed by 0, 1, 2, 3 less 4·P (clobbering
// Y0 and Y1).
#define WEIGH(S, P) \
	VPSLLVQ 40(R8), S, Y0; \
	VPAND   72(R8), S, Y1; \
	VPADDQ  Y1, Y0, Y0;    \
	VPSLLQ  $2, P, P;      \
	VPSUBQ  P, Y0, P

// SUM4 leaves in Y1 the sums of the four lanes of A, B, C and D, in that
// order (clobbering Y0 and Y2).
#define SUM4(A, B, C, D) \
	VPUNPCKLQDQ B, A, Y0;        \
	VPUNPCKHQDQ B, A, Y1;        \
	VPADDQ      Y1, Y0, Y0;      \
	VPUNPCKLQDQ D, C, Y1;        \
	VPUNPCKHQDQ D, C, Y2;        \
	VPADDQ      Y2, Y1, Y1;      \
	VPERM2I128  $0x20, Y1, Y0, Y2; \
	VPERM2I128  $0x31, Y1, Y0, Y1; \
	VPADDQ      Y2, Y1, Y1

// func quantRuns32AVX2(row *float32, runs *int32, nruns int, f float64, out *runQuant, ahead uintptr) int
//
// For each run, of 1 to maxLaneSamples samples from runs[2k] (the first)
// and runs[2k+1] (the count), four samples a step in 64-bit lanes (lane j
// takes the samples 4t+j from the first at step t): Σh, Σl, their running
// sums, Σh², Σh·l and Σl². The last n%4 samples are the first lanes of a
// last step, whose other lanes are 0 (a masked load, which reads nothing
// there; the extremes skip them). The lanes go out added, Σh² and Σl² as
// unsigned integers, which none of the sums outgrows. It prefetches the
// samples 1024 bytes on and the bytes ahead bytes on from them. It returns
// the lanes of Y14 as a bit mask.
//
// Registers: Y3 Σh, Y4 Σl, Y5 and Y6 their running sums, Y7 Σh², Y8 Σh·l,
// Y9 Σl², Y10 min, Y11 max, Y12 1.5·2^52, Y14 the inexact lanes, Y15 f;
// R8 the constants.
TEXT ·quantRuns32AVX2(SB), NOSPLIT, $0-56
	MOVQ         row+0(FP), SI
	MOVQ         runs+8(FP), R9
	MOVQ         nruns+16(FP), R10
	VBROADCASTSD f+24(FP), Y15
	MOVQ         out+32(FP), DI
	MOVQ         ahead+40(FP), R12
	LEAQ         quantConsts<>(SB), R8
	LEAQ         quantTailMask<>(SB), R13
	VPXOR        Y14, Y14, Y14
	VBROADCASTSD 32(R8), Y12
	TESTQ        R10, R10
	JZ           end

runloop:
	MOVLQSX      0(R9), AX
	MOVLQSX      4(R9), CX
	LEAQ         (SI)(AX*4), R11
	MOVQ         CX, DX
	ANDQ         $3, DX
	SHRQ         $2, CX
	VBROADCASTSD infinity<>(SB), Y10
	VBROADCASTSD infinity<>+8(SB), Y11
	VPXOR        Y3, Y3, Y3
	VPXOR        Y4, Y4, Y4
	VPXOR        Y5, Y5, Y5
	VPXOR        Y6, Y6, Y6
	VPXOR        Y7, Y7, Y7
	VPXOR        Y8, Y8, Y8
	VPXOR        Y9, Y9, Y9
	TESTQ        CX, CX
	JZ           tail

blockloop:
	PREFETCHT0 1024(R11)
	PREFETCHT0 (R11)(R12*1)
	VCVTPS2PD (R11), Y0
	VMINPD    Y0, Y10, Y10
	VMAXPD    Y0, Y11, Y11
	VMULPD    Y15, Y0, Y1
	QUANT
	ADDQ      $16, R11
	DECQ      CX
	JNZ       blockloop

tail:
	TESTQ      DX, DX
	JZ         sums
	SHLQ       $4, DX
	VMOVDQU    (R13)(DX*1), X1
	VMASKMOVPS (R11), X1, X0
	VPMOVSXDQ  X1, Y1
	VCVTPS2PD  X0, Y0
	VBLENDVPD  Y1, Y0, Y10, Y2
	VMINPD     Y2, Y10, Y10
	VBLENDVPD  Y1, Y0, Y11, Y2
	VMAXPD     Y2, Y11, Y11
	VMULPD     Y15, Y0, Y1
	QUANT

sums:
	VEXTRACTF128 $1, Y10, X1
	VMINPD       X1, X10, X10
	VPERMILPD    $1, X10, X1
	VMINPD       X1, X10, X10
	VMOVSD       X10, 64(DI)
	VEXTRACTF128 $1, Y11, X1
	VMAXPD       X1, X11, X11
	VPERMILPD    $1, X11, X1
	VMAXPD       X1, X11, X11
	VMOVSD       X11, 72(DI)
	WEIGH(Y3, Y5)
	WEIGH(Y4, Y6)
	SUM4(Y3, Y4, Y5, Y6)
	VMOVDQU      Y1, 0(DI)
	SUM4(Y7, Y8, Y9, Y9)
	VMOVDQU      Y1, 32(DI)
	ADDQ         $8, R9
	ADDQ         $80, DI
	DECQ         R10
	JNZ          runloop

end:
	VMOVMSKPD    Y14, AX
	MOVQ         AX, inexact+48(FP)
	VZEROUPPER
	RET

// infinity holds +Inf and -Inf.
DATA infinity<>+0x00(SB)/8, $0x7ff0000000000000
DATA infinity<>+0x08(SB)/8, $0xfff0000000000000
GLOBL infinity<>(SB), RODATA|NOPTR, $16

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
