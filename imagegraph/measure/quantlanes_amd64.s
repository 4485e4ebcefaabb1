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

// func quantLanes32AVX2(p *float32, n int, f float64, l *quantLanes)
//
// Per four samples: v as float64, r = roundeven(v·f), h = floor(r·2^-29)
// and l = r − h·2^29 (both exact), converted to integers by adding
// 1.5·2^52 and subtracting its bits; then Σh, Σl, their running sums,
// Σh², Σh·l and Σl² in 64-bit lanes. The last n%4 samples are the last
// lanes of a block of the last four, whose other lanes are multiplied
// by 0 (their samples are counted already; the extremes take them
// again).
//
// Registers: Y3 Σh, Y4 Σl, Y5 Σ running Σh, Y6 Σ running Σl, Y7 Σh²,
// Y8 Σh·l, Y9 Σl², Y10 min, Y11 max, Y12 1.5·2^52, Y13 2^29, Y14 2^-29,
// Y15 f.
TEXT ·quantLanes32AVX2(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD f+16(FP), Y15
	MOVQ         l+24(FP), DI
	MOVQ         CX, DX
	ANDQ         $3, DX
	SHRQ         $2, CX
	LEAQ         -16(SI)(CX*8), BX
	LEAQ         (BX)(CX*8), BX
	LEAQ         (BX)(DX*4), BX                     // BX: the last four samples
	MOVQ         $0x3e20000000000000, AX
	VMOVQ        AX, X14
	VPBROADCASTQ X14, Y14
	MOVQ         $0x41c0000000000000, AX
	VMOVQ        AX, X13
	VPBROADCASTQ X13, Y13
	MOVQ         $0x4338000000000000, AX
	VMOVQ        AX, X12
	VPBROADCASTQ X12, Y12
	VMOVUPD      288(DI), Y10
	VMOVUPD      320(DI), Y11
	VPXOR        Y3, Y3, Y3
	VPXOR        Y4, Y4, Y4
	VPXOR        Y5, Y5, Y5
	VPXOR        Y6, Y6, Y6
	VPXOR        Y7, Y7, Y7
	VPXOR        Y8, Y8, Y8
	VPXOR        Y9, Y9, Y9

loop:
	VCVTPS2PD (SI), Y0
	VMINPD    Y0, Y10, Y10
	VMAXPD    Y0, Y11, Y11
	VMULPD    Y15, Y0, Y1
	VROUNDPD  $0, Y1, Y1
	VMULPD    Y14, Y1, Y2
	VROUNDPD  $1, Y2, Y2
	VMULPD    Y13, Y2, Y0
	VSUBPD    Y0, Y1, Y0
	VADDPD    Y12, Y2, Y2
	VPSUBQ    Y12, Y2, Y2
	VADDPD    Y12, Y0, Y0
	VPSUBQ    Y12, Y0, Y0
	VPADDQ    Y2, Y3, Y3
	VPADDQ    Y0, Y4, Y4
	VPADDQ    Y3, Y5, Y5
	VPADDQ    Y4, Y6, Y6
	VPMULDQ   Y2, Y0, Y1
	VPADDQ    Y1, Y8, Y8
	VPMULDQ   Y2, Y2, Y2
	VPADDQ    Y2, Y7, Y7
	VPMULUDQ  Y0, Y0, Y0
	VPADDQ    Y0, Y9, Y9
	ADDQ      $16, SI
	DECQ      CX
	JNZ       loop

	// The tail: h and l of its lanes go to l.th and l.tl, their
	// products to the sums.
	VPXOR     Y1, Y1, Y1
	VPXOR     Y2, Y2, Y2
	TESTQ     DX, DX
	JZ        done
	SHLQ      $5, DX
	LEAQ      quantTailMask<>(SB), AX
	ADDQ      DX, AX
	VCVTPS2PD (BX), Y0
	VMINPD    Y0, Y10, Y10
	VMAXPD    Y0, Y11, Y11
	VMULPD    Y15, Y0, Y1
	VANDPD    (AX), Y1, Y1
	VROUNDPD  $0, Y1, Y1
	VMULPD    Y14, Y1, Y2
	VROUNDPD  $1, Y2, Y2
	VMULPD    Y13, Y2, Y0
	VSUBPD    Y0, Y1, Y0
	VADDPD    Y12, Y2, Y2
	VPSUBQ    Y12, Y2, Y2
	VADDPD    Y12, Y0, Y0
	VPSUBQ    Y12, Y0, Y0
	VPMULDQ   Y2, Y0, Y1
	VPADDQ    Y1, Y8, Y8
	VPMULDQ   Y2, Y2, Y1
	VPADDQ    Y1, Y7, Y7
	VPMULUDQ  Y0, Y0, Y1
	VPADDQ    Y1, Y9, Y9
	VMOVDQU   Y0, Y1

done:
	VMOVDQU Y3, 0(DI)
	VMOVDQU Y4, 32(DI)
	VMOVDQU Y5, 64(DI)
	VMOVDQU Y6, 96(DI)
	VMOVDQU Y7, 128(DI)
	VMOVDQU Y8, 160(DI)
	VMOVDQU Y9, 192(DI)
	VMOVDQU Y2, 224(DI)
	VMOVDQU Y1, 256(DI)
	VMOVUPD Y10, 288(DI)
	VMOVUPD Y11, 320(DI)
	VZEROUPPER
	RET
