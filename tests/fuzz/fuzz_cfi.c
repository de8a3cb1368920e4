// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: the CFI check (symbols/cfi_check.h) on a section's bytes another
 * user wrote. The input: 1 byte of flags (bit 0: .eh_frame, else .debug_frame),
 * then the section. Every verdict is one of the enum's, and a program the check
 * takes is within its bounds (the check read it whole: no crash, no leak).
 */
#include <stdint.h>
#include <stdlib.h>
#include "symbols/cfi_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum cfi_verdict v;

	if (size < 1)
		return 0;
	v = cfi_check_frames(data + 1, size - 1, data[0] & 1);
	if (v > CFI_TOO_COSTLY)
		abort();
	if (cfi_check_program(data + 1, size - 1) > CFI_TOO_COSTLY)
		abort();
	return 0;
}
