/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The model: this tick's data as the collectors publish it (their tables,
 * devices, statuses), owned by the poller thread, and the immutable snapshot
 * built from it. Collectors keep their own cumulative counters and derive
 * their rows (collectors/drm_sched/sched_model.c for the scheduler).
 */
#ifndef GPUTOP_MODEL_H
#define GPUTOP_MODEL_H

#include "model/snapshot.h"

struct model;

struct model *model_new(uint64_t start_ns);
void model_free(struct model *m);
void model_set_host(struct model *m, const char *hostname, const char *kernel);
/* -p: only this process's rows in every table with a pid key (0: all). Rings stay system-wide. */
void model_set_pid_filter(struct model *m, uint32_t pid);

void model_tick_begin(struct model *m, uint64_t now_ns);
int model_device_add(struct model *m, const struct device_snap *d);
/* Copies the status (its lists too) into this tick's snapshot. */
int model_collector_status(struct model *m, const struct collector_status *st);
/* This tick's table for d, created empty at the first call of the tick; NULL on failure. */
struct table *model_table(struct model *m, const struct table_desc *d);
/* The interval the rates of this tick cover, in seconds (> 0). */
double model_interval_s(const struct model *m);
/* Builds this tick's snapshot (NULL on allocation failure) and forgets what was not seen. */
struct snapshot *model_tick_end(struct model *m);
/*
 * Ends a tick whose snapshot nobody sees (the collectors' first read after they
 * attached, so that the first interval's rates cover that interval only): what
 * it gathered is freed, and the next snapshot is still number 1.
 */
void model_tick_discard(struct model *m);

#endif
