// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* vblanks and event deliveries as instants on their CRTCs' and clients' tracks (trace_display.h). */
#include <stdio.h>
#include <string.h>
#include "output/trace_display.h"

void trace_display_init(struct trace_display *td, struct trace_counters *tc,
			int64_t wall_minus_mono_ns)
{
	memset(td, 0, sizeof(*td));
	td->tc = tc;
	td->wall_minus_mono_ns = wall_minus_mono_ns;
}

/* The "display" track, the CRTCs' parent (and that of clients of no known process). */
static uint64_t display_track(struct trace_display *td)
{
	return trace_track_ready(td->tc, "display", 0, "display", PERFETTO_TRACK_PLAIN,
				 PERFETTO_UNIT_NONE) ?
		       trace_key_uuid("display") :
		       0;
}

/* The mark's track (its CRTC's, or its client's under its process), described the first time; 0: none. */
static uint64_t mark_track(struct trace_display *td, const struct display_mark *m)
{
	uint64_t parent = display_track(td);
	char key[64], name[48];

	if (m->kind == DISPLAY_MARK_VBLANK) {
		snprintf(key, sizeof(key), "crtc\x1f%d", m->crtc);
		snprintf(name, sizeof(name), "CRTC %d vblanks", m->crtc);
	} else {
		if (m->pid)
			parent = trace_process_track(td->tc, m->pid, m->comm);
		snprintf(key, sizeof(key), "vbev\x1f%u\x1f%llx\x1f%d", m->pid,
			 (unsigned long long)m->file, m->crtc);
		snprintf(name, sizeof(name), "vblank events, CRTC %d", m->crtc);
	}
	if (!parent ||
	    !trace_track_ready(td->tc, key, parent, name, PERFETTO_TRACK_PLAIN, PERFETTO_UNIT_NONE))
		return 0;
	return trace_key_uuid(key);
}

/* One mark's instant: 0, or the writer's error (counted by it). */
static int mark_write(struct trace_display *td, const struct display_mark *m, uint64_t track)
{
	bool delivery = m->kind == DISPLAY_MARK_DELIVERY;
	struct perfetto_arg args[] = {
		{ .name = "seq", .type = PERFETTO_ARG_UINT, .u = m->seq },
		{ .name = "missed_frames", .type = PERFETTO_ARG_UINT, .u = m->missed },
	};
	struct perfetto_event e = {
		.ts_ns = m->ts_ns + (uint64_t)td->wall_minus_mono_ns,
		.track_uuid = track,
		.type = PERFETTO_INSTANT,
		.name = !delivery ? "vblank" : m->missed ? "delivered late" : "delivered",
		.args = args,
		.n_args = delivery && m->missed ? 2 : 1,
	};

	return perfetto_event(&td->tc->w, &e);
}

void trace_display_add(struct trace_display *td, const struct display_mark *marks, size_t n,
		       uint64_t lost)
{
	if (lost) {
		perfetto_count_lost(&td->tc->w, lost);
		td->lost += lost;
	}
	for (size_t i = 0; i < n; i++) {
		const struct display_mark *m = &marks[i];
		uint64_t track = mark_track(td, m);

		if (!track) {
			perfetto_count_dropped(&td->tc->w, 1);
			td->lost++;
		} else if (mark_write(td, m, track)) {
			td->lost++; /* counted by the writer */
		} else if (m->kind == DISPLAY_MARK_VBLANK) {
			td->vblanks++;
		} else {
			td->deliveries++;
			td->missed += m->missed;
		}
	}
}
