// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * T: a capture of the next seconds to a file (a Perfetto trace, src/), its
 * progress in the status line while it runs, what it wrote when it is over.
 */
#include <stdio.h>
#include "tui/view.h"

void view_capture_start(struct view *v)
{
	char msg[sizeof(v->capture_line)];

	if (!v->capture) {
		view_message(v, true, "T: no capture here");
		return;
	}
	if (v->capturing) {
		view_message(v, false, "already %s", v->capture_line);
		return;
	}
	if (!v->capture->start(v->capture->impl, msg, sizeof(msg))) {
		view_message(v, true, "T: %s", msg);
		return;
	}
	v->capturing = true;
	snprintf(v->capture_line, sizeof(v->capture_line), "%s", msg);
}

void view_capture_snapshot(struct view *v, const struct snapshot *s)
{
	char msg[sizeof(v->capture_line)];
	bool failed = false;

	v->capturing = v->capture->add(v->capture->impl, s, msg, sizeof(msg), &failed);
	if (v->capturing)
		snprintf(v->capture_line, sizeof(v->capture_line), "%s", msg);
	else /* over: said until a key */
		view_message(v, failed, "%s", msg);
}
