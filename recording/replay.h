/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Plays back a recording (JSON lines of -J / --record) as a feed: no root, no BPF. */
#ifndef GPUTOP_REPLAY_H
#define GPUTOP_REPLAY_H

#include "model/feed.h"

#define REPLAY_LINE_MAX (256 << 20) /* the longest snapshot line read: 256 MiB */

/*
 * realtime: hand out snapshots at their recorded intervals (or every delay_s when
 * delay_s > 0); otherwise as fast as they are taken (batch). NULL with err set
 * when the file cannot be opened.
 */
struct replay *replay_open(const char *path, bool realtime, double delay_s, char *err,
			   size_t errlen);
void replay_close(struct replay *r);
/* -p: keep only this process's rows (0: all), as the live model does. */
void replay_set_pid_filter(struct replay *r, uint32_t pid);
/* The replay as a feed; its reader thread starts reading ahead. */
void replay_feed(struct replay *r, struct feed *feed);

#endif
