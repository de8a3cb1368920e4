// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "../model/array.h"
#include "bpf_util.h"
#include "self_tables.h"

void tp_progs_autoload(struct tp_prog *tps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tps[i].prog)
			bpf_program__set_autoload(tps[i].prog, tps[i].wanted);
}

size_t tp_progs_attach(struct collector *c, struct tp_prog *tps, size_t n)
{
	size_t attached = 0;

	for (size_t i = 0; i < n; i++) {
		char note[96];

		if (!tps[i].wanted || !tps[i].prog)
			continue;
		tps[i].link = tps[i].by_name ?
			bpf_program__attach_raw_tracepoint(tps[i].prog, tps[i].event) :
			bpf_program__attach(tps[i].prog);
		if (!tps[i].link) {
			snprintf(note, sizeof(note), "attach failed: %s", strerror(errno));
			collector_set_tracepoint(c, tps[i].group, tps[i].event, TRACEPOINT_FAILED,
						 note);
			continue;
		}
		if (!tps[i].rescued) /* a twin's tracepoint is its primary's */
			collector_set_tracepoint(c, tps[i].group, tps[i].event, TRACEPOINT_ATTACHED,
						 NULL);
		attached++;
	}
	return attached;
}

void tp_progs_detach(struct tp_prog *tps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bpf_link__destroy(tps[i].link);
		tps[i].link = NULL;
	}
}

void collector_set_drops(struct collector *c, const char *const *names, const __u64 *counts,
			 size_t n)
{
	for (size_t i = 0; i < n; i++)
		collector_set_drop(c, names[i], counts[i]);
}

void collector_load_failed(struct collector *c, int err)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "loading the BPF programs failed: %s", strerror(err < 0 ? -err : err));
	collector_set_state(c, COLLECTOR_FAILED, msg,
			    "run with -v to see libbpf's and the verifier's messages");
}

static int stats_fd = -1;
static char stats_why[160] = "not switched on";

int bpf_cost_enable(char *why, size_t size)
{
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0)
		snprintf(stats_why, sizeof(stats_why), "%s",
			 errno == EINVAL ? "this kernel has no BPF_ENABLE_STATS (Linux 5.8+)" :
			 errno == EPERM ? "not permitted (needs CAP_SYS_ADMIN)" : strerror(errno));
	else
		stats_why[0] = '\0';
	if (why)
		snprintf(why, size, "%s", stats_why);
	return stats_fd;
}

bool bpf_cost_available(const char **why)
{
	if (why)
		*why = stats_why;
	return stats_fd >= 0;
}

/* The events of a primary and its twins that every copy skipped: its misses, less the rescues. */
static void report_lost(struct collector *c, const struct tp_prog *tps, size_t first, size_t end)
{
	uint64_t rescued = 0, missed = tps[first].misses;

	for (size_t i = first + 1; i < end; i++)
		if (tps[i].link)
			rescued += *(volatile const __u64 *)tps[i].rescued;
	collector_set_drop(c, tps[end - 1].lost_name, missed > rescued ? missed - rescued : 0);
}

uint64_t tp_progs_report_rows(struct collector *c, struct tp_prog *tps, size_t n, struct model *m,
			      bool *untwinned_out)
{
	struct table *t = model_table(m, &self_programs_table);
	double iv = model_interval_s(m);
	uint64_t misses = 0;
	bool untwinned = false;

	/* Misses first, rescues after (report_lost): a rescue follows its miss. */
	for (size_t i = 0; i < n; i++) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		char where[96];
		struct cell *row;
		int fd;

		if (!tps[i].link)
			continue;
		fd = bpf_program__fd(tps[i].prog);
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		tps[i].misses = info.recursion_misses;
		if (!tps[i].rescued && !(i + 1 < n && tps[i + 1].rescued && tps[i + 1].link)) {
			misses += info.recursion_misses;
			untwinned = true;
		}
		row = t ? table_row_add(t) : NULL;
		if (!row)
			continue;
		snprintf(where, sizeof(where), "%s:%s", tps[i].group, tps[i].event);
		cell_set_str(row, SELF_PROG_COLLECTOR, c->info.name);
		cell_set_str(row, SELF_PROG_NAME, bpf_program__name(tps[i].prog));
		cell_set_str(row, SELF_PROG_TRACEPOINT, where);
		cell_set_u64(row, SELF_PROG_MISSES, info.recursion_misses);
		if (tps[i].rescued)
			cell_set_u64(row, SELF_PROG_RESCUED, *tps[i].rescued);
		if (stats_fd >= 0) {
			uint64_t cnt = info.run_cnt - tps[i].last_cnt, ns = info.run_time_ns - tps[i].last_ns;

			cell_set_u64(row, SELF_PROG_EVENTS, info.run_cnt);
			cell_set_f64(row, SELF_PROG_PER_S, (double)cnt / iv);
			if (cnt)
				cell_set_f64(row, SELF_PROG_NS_PER_EVENT, (double)ns / (double)cnt);
			cell_set_f64(row, SELF_PROG_CPU, (double)ns / (iv * 1e9) * 100.0);
		}
		tps[i].last_cnt = info.run_cnt;
		tps[i].last_ns = info.run_time_ns;
	}
	for (size_t i = 0; i < n; i++) {
		size_t end = i + 1;

		while (end < n && tps[end].rescued)
			end++;
		if (end > i + 1 && tps[i].link)
			report_lost(c, tps, i, end);
		i = end - 1;
	}
	*untwinned_out = untwinned;
	return misses;
}

void tp_progs_report(struct collector *c, struct tp_prog *tps, size_t n, struct model *m)
{
	bool untwinned;
	uint64_t misses = tp_progs_report_rows(c, tps, n, m, &untwinned);

	/* Runs the kernel skipped: one of our programs already running on that CPU (>= 5.12). */
	if (untwinned)
		collector_set_drop(c, "bpf_recursion_misses", misses);
}

/* Quantiles of what a cumulative histogram gained since the last read; unknown when nothing. */
void cells_set_quantiles(struct cell *row, unsigned int p50, unsigned int p99, const __u64 *now,
			  const __u64 *before, double sum_ns, struct latency_summary *out)
{
	struct histogram a, b, d;

	memcpy(a.slots, now, sizeof(a.slots));
	memcpy(b.slots, before, sizeof(b.slots));
	histogram_delta(&d, &a, &b);
	histogram_summarize(&d, sum_ns, 0, out);
	if (!out->count)
		return;
	cell_set_f64(row, p50, out->p50_ns);
	cell_set_f64(row, p99, out->p99_ns);
}

uint64_t bpf_sweep_gone_threads(int fd)
{
	__u64 key, next, *prev = NULL, *doomed = NULL;
	size_t n = 0, cap = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		char task[64];

		key = next;
		prev = &key;
		snprintf(task, sizeof(task), "/proc/%u/task/%u", (unsigned int)(key >> 32),
			 (unsigned int)key);
		if (access(task, F_OK) && errno == ENOENT) {
			__u64 *d = array_push(&doomed, &n, &cap, sizeof(*d));

			if (d)
				*d = key;
		}
	}
	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(fd, &doomed[i]);
	free(doomed);
	return n;
}
