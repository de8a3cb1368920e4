/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The interface's capture key (T, tui/tui.h) on a capture (capture.h): the
 * next TUI_CAPTURE_SECONDS of snapshots (their counters; live, with the
 * streamed design, the scheduler's jobs too) into a new file
 * gputop-bpf-YYYYMMDD-HHMMSS.pftrace in the current directory, opened with
 * the user's rights. The seconds are the snapshots' (a replay's: the
 * recording's, as it is played or stepped). At their end it takes one more
 * snapshot before it closes, so that the events up to the end, still in the
 * collectors' ring buffers, are written (those after it left out). With
 * nothing to record the file is removed, and the message says so.
 */
#ifndef GPUTOP_TUI_CAPTURE_H
#define GPUTOP_TUI_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include "src/capture.h"
#include "tui/tui.h"

#define TUI_CAPTURE_SECONDS 10.0

struct tui_capturer {
	struct tui_capture ops; /* for tui_settings.capture */
	struct capture *cap; /* the one running, NULL: none */
	char path[64];
	double start_s; /* its first snapshot's interval start; < 0 before it */
	bool ending; /* its seconds are over: closed at the next snapshot */
	uint64_t limit_bytes;
	const char *what; /* what it holds, said when it starts */
};

/* jobs: the scheduler's jobs come (live, the streamed design). */
void tui_capturer_init(struct tui_capturer *t, uint64_t limit_bytes, bool replay, bool jobs);
/* One still running when the interface ends: closed as it is. */
void tui_capturer_end(struct tui_capturer *t);

#endif
