/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The poller thread: ticks the attached collectors every interval, builds the
 * tick's snapshot through the model and publishes it. Front ends take the
 * latest snapshot (a reference) and release it; they never see the model.
 */
#ifndef GPUTOP_POLLER_H
#define GPUTOP_POLLER_H

#include <stdint.h>
#include <stdio.h>
#include "collectors/collector.h"
#include "model/feed.h"

struct poller;

struct poller *poller_start(struct collector *collectors, size_t n, struct model *m,
			    double delay_s, FILE *recorder);
/* Waits up to timeout_ms for a snapshot newer than after_seq; NULL on timeout or stop. */
const struct snapshot *poller_take(struct poller *p, uint64_t after_seq, int timeout_ms);
void poller_release(struct poller *p, const struct snapshot *s);
void poller_set_delay(struct poller *p, double delay_s);
/* --record: every published snapshot also goes to this file as a JSON line (before start). */
void poller_set_recorder(struct poller *p, FILE *f);
void poller_feed(struct poller *p, struct feed *feed);
/* Stops and joins the thread, frees the published snapshot. */
void poller_stop(struct poller *p);

#endif
