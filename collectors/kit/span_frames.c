// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include "collectors/kit/span_frames.h"

size_t span_frames_of(const struct frame *in, size_t n, struct span_frame *out, size_t max)
{
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		frame_text(&in[i], false, out[i].name, sizeof(out[i].name));
		out[i].kernel = !strcmp(in[i].module, "[kernel]");
	}
	return n;
}
