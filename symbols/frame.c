// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <inttypes.h>
#include <stdio.h>
#include "symbols/frame.h"

void frame_text(const struct frame *f, bool with_offset, char *out, size_t size)
{
	if (!size)
		return;
	if (f->name[0] && with_offset)
		snprintf(out, size, "%s+0x%" PRIx64, f->name, f->offset);
	else if (f->name[0])
		snprintf(out, size, "%s", f->name);
	else if (f->module[0] && f->module_offset)
		snprintf(out, size, "%s+0x%" PRIx64, f->module, f->offset);
	else if (f->module[0])
		snprintf(out, size, "%s", f->module);
	else
		snprintf(out, size, "[unknown]");
}
