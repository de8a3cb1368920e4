// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: the DWARF unwinder on stack bytes and registers another user's
 * process controls, over the real modules of the unwinder's fixture
 * (tests/unit/unwind_fixture.h; run from the repository's root). The input:
 * 2 bytes of offset added to the fixture's ip, 8 of bp, 1 of flags (bit 0: the
 * budget cut the copy), then the stack bytes from sp. Every walk must give 1 to
 * UNWIND_FRAMES_MAX frames, the first the ip, none 0, and [truncated] only
 * where the copy was cut.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/unwind.h"
#include "tests/unit/unwind_fixture.h"

#define HEAD 11

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nv_stack_sample sample;
	static struct sym_process p;
	static struct unwind_proc *u;
	static struct unwind_result r;
	struct unwind_input in;
	uint16_t delta;

	if (!u) {
		if (!unwind_fixture_sample(&sample) || unwind_fixture_process(&p) ||
		    !(u = unwind_proc_new(p.pid, &p.maps)))
			abort(); /* the fixture is missing: not a finding of the unwinder */
	}
	if (size < HEAD)
		return 0;
	memcpy(&delta, data, sizeof(delta));
	in = (struct unwind_input){ .ip = sample.stack.ip + (delta & 0x3ff), .sp = sample.stack.sp,
				    .stack = data + HEAD, .len = size - HEAD, .cut = data[10] & 1 };
	memcpy(&in.bp, data + 2, sizeof(in.bp));
	unwind_stack(u, &in, &r);
	if (r.n < 1 || r.n > UNWIND_FRAMES_MAX || r.ips[0] != in.ip)
		abort();
	for (size_t i = 0; i < r.n; i++)
		if (!r.ips[i])
			abort();
	if (r.truncated && !in.cut && r.n < UNWIND_FRAMES_MAX)
		abort();
	return 0;
}
