/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Within the Perfetto writer only (perfetto.c, perfetto_callstack.c): a
 * packet begun into w->pkt, and written out if it fits.
 */
#ifndef GPUTOP_PERFETTO_PACKET_H
#define GPUTOP_PERFETTO_PACKET_H

#include "output/perfetto.h"

enum {
	PACKET_INTERNED_DATA = 12,
};

/* A packet's start: the Trace.packet field, the time (0: none), the sequence and its flags. */
void perfetto_packet_begin(struct perfetto_writer *w, uint64_t ts_ns, bool uses_state);
/* The packet out, if it fits within the limit less room: 0; -ENOSPC (counted in dropped); -EIO. */
int perfetto_packet_commit(struct perfetto_writer *w, uint64_t room);
/* s cleaned to valid UTF-8 into out[PERFETTO_STR_MAX]: its length. */
size_t perfetto_clean(const char *s, char *out);

#endif
