// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include "collectors/kit/prog_stats.h"

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

/* One program's row; its statistics kept for the next read. */
static void report_one(struct collector *c, struct tp_prog *tp, const struct bpf_prog_info *info,
		       struct table *t, double iv)
{
	char where[96];
	struct prog_run before = { .run_cnt = tp->last_cnt, .run_time_ns = tp->last_ns };
	struct prog_run now = {
		.collector = c->info.name,
		.program = bpf_program__name(tp->prog),
		.where = where,
		.run_cnt = info->run_cnt,
		.run_time_ns = info->run_time_ns,
		.misses = info->recursion_misses,
		.rescued = tp->rescued ? *(volatile const __u64 *)tp->rescued : 0,
		.twin = tp->rescued != NULL,
		.stats_on = stats_fd >= 0,
	};
	struct cell *row = t ? table_row_add(t) : NULL;

	snprintf(where, sizeof(where), "%s:%s", tp->group, tp->event);
	if (row)
		prog_stats_row(row, &now, &before, iv);
	tp->last_cnt = info->run_cnt;
	tp->last_ns = info->run_time_ns;
	tp->misses = info->recursion_misses;
}

/* Rows; the misses of programs without twins in *misses; whether there are such programs. */
static bool report_rows(struct collector *c, struct tp_prog *tps, size_t n, struct model *m,
			uint64_t *misses)
{
	struct table *t = model_table(m, &self_programs_table);
	double iv = model_interval_s(m);
	bool untwinned = false;

	*misses = 0;
	/* Misses first, rescues after (report_lost): a rescue follows its miss. */
	for (size_t i = 0; i < n; i++) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd;

		if (!tps[i].link)
			continue;
		fd = bpf_program__fd(tps[i].prog);
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		report_one(c, &tps[i], &info, t, iv);
		if (!tps[i].rescued && !(i + 1 < n && tps[i + 1].rescued && tps[i + 1].link)) {
			*misses += info.recursion_misses;
			untwinned = true;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t end = i + 1;

		while (end < n && tps[end].rescued)
			end++;
		if (end > i + 1 && tps[i].link)
			report_lost(c, tps, i, end);
		i = end - 1;
	}
	return untwinned;
}

uint64_t tp_progs_report_rows(struct collector *c, struct tp_prog *tps, size_t n, struct model *m)
{
	uint64_t misses;

	report_rows(c, tps, n, m, &misses);
	return misses;
}

void tp_progs_report(struct collector *c, struct tp_prog *tps, size_t n, struct model *m)
{
	uint64_t misses;

	/* Runs the kernel skipped: one of our programs already running on that CPU (>= 5.12). */
	if (report_rows(c, tps, n, m, &misses))
		collector_set_drop(c, "bpf_recursion_misses", misses);
}
