/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Snapshots and collector lists as plain text, for people reading a terminal or a log. */
#ifndef GPUTOP_OUTPUT_TEXT_H
#define GPUTOP_OUTPUT_TEXT_H

#include <stdio.h>
#include "model/snapshot.h"
#include "model/table_seen.h"

struct text_settings {
	bool programs; /* also self.programs (the BPF programs' own statistics, a long table) */
	/* what an empty table says (seen: the rows of the snapshots before); replay: self.* is the recorder's */
	struct empty_context empty;
};

void snapshot_print_text(FILE *out, const struct snapshot *s, const struct text_settings *ts);
void collectors_print_list(FILE *out, const struct collector_status *cs, size_t n);

#endif
