#include "textflag.h"

// func storeRelaxed(addr *int32, val int32)
TEXT ·storeRelaxed(SB), NOSPLIT, $0-12
	MOVQ addr+0(FP), AX
	MOVL val+8(FP), BX
	MOVL BX, 0(AX)
	RET
