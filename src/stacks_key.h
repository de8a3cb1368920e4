/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The interface's stacks key (c, tui/tui.h): with --stacks it says they are on;
 * without, the stack file
 * is armed ("-": the tables only) and the collectors watch it; the key opens
 * it, and the NVIDIA collector starts taking its launches' stacks (frame
 * pointers: the DWARF copies' ring is sized at load, with --stacks only). The
 * scheduler's job stacks cannot start live (the stream's stack table is sized
 * at load): the key says so, and how to have them.
 */
#ifndef GPUTOP_STACKS_KEY_H
#define GPUTOP_STACKS_KEY_H

#include <stdbool.h>
#include "symbols/stack_file.h"
#include "tui/tui.h"

struct stacks_key {
	struct tui_stacks_key ops; /* for tui_settings.stacks_key */
	struct stack_file *sf; /* the armed file, or --stacks' */
	bool given; /* --stacks: on from the start */
	bool launches; /* the NVIDIA collector runs: it takes the stacks */
	bool sched_stream; /* the scheduler runs the streamed design */
};

void stacks_key_init(struct stacks_key *k, struct stack_file *sf, bool launches, bool sched_stream);

#endif
