/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Snapshots and collector lists as plain text, for people reading a terminal or a log. */
#ifndef GPUTOP_OUTPUT_TEXT_H
#define GPUTOP_OUTPUT_TEXT_H

#include <stdio.h>
#include "model/snapshot.h"

/* programs: also self.programs (the BPF programs' own statistics, a long table). */
void snapshot_print_text(FILE *out, const struct snapshot *s, bool programs);
void collectors_print_list(FILE *out, const struct collector_status *cs, size_t n);

#endif
