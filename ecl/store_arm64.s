#include "textflag.h"

// func storeRelaxed(addr *int32, val int32)
TEXT ·storeRelaxed(SB), NOSPLIT, $0-12
	MOVD addr+0(FP), R0
	MOVW val+8(FP), R1
	MOVW R1, (R0)
	RET
