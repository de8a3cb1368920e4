// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "collectors/kit/stack_table.h"
#include "src/replay_stacks.h"

struct feed_rows {
	struct stack_file *sf;
	size_t rows, other; /* rows seen; of them, of a source the weight does not take */
	int err;
};

static void row_in(void *arg, const struct stack_row *r)
{
	struct feed_rows *fr = arg;
	int err;

	fr->rows++;
	if (!stack_weight_takes(fr->sf->weight, r->source))
		fr->other++;
	else if ((err = stack_file_row(fr->sf, r)) && !fr->err)
		fr->err = err;
}

/* The stacks the collectors' tables left out at s (their drop stacks_past_table_rows). */
static uint64_t past_table_rows(const struct snapshot *s)
{
	static const char *const owners[] = { "nvidia", "drm_sched", "calls" };
	uint64_t n = 0;

	for (size_t i = 0; i < sizeof(owners) / sizeof(owners[0]); i++) {
		const struct collector_status *c = snapshot_collector(s, owners[i]);

		for (size_t d = 0; c && d < c->ndrops; d++)
			if (!strcmp(c->drops[d].name, "stacks_past_table_rows"))
				n += c->drops[d].count;
	}
	return n;
}

/* s's stacks rows into sf; the end line into msg. */
static int write_rows(const struct snapshot *s, struct stack_file *sf, const char *path, char *msg, size_t size)
{
	static const struct table_desc *const tables[] = { &nvidia_stacks_table, &sched_stacks_table,
							   &calls_stacks_table };
	struct feed_rows fr = { .sf = sf };
	enum stack_weight w = sf->weight;
	uint64_t lines, total;
	char other[96] = "", untimed[160];
	int err;

	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		stack_table_rows(snapshot_table(s, tables[i]->name), row_in, &fr);
	lines = sf->lines, total = sf->total;
	stack_file_untimed_note(sf, untimed, sizeof(untimed));
	err = stack_file_close(sf);
	if (fr.err || err) {
		snprintf(msg, size, "writing the stacks '%s' failed: %s", path, strerror(-(fr.err ? fr.err : err)));
		return fr.err ? fr.err : err;
	}
	if (fr.other)
		snprintf(other, sizeof(other), ", %zu rows of sources weight %s does not take left out", fr.other,
			 stack_weight_name(w));
	snprintf(msg, size,
		 "stacks '%s': %llu stacks, weight %s %llu%s, from the last snapshot played "
		 "(number %llu of the recording): %zu rows of its stacks tables "
		 "(%llu stacks past their 1000 rows not there)%s%s%s",
		 path, (unsigned long long)lines, stack_weight_name(w), (unsigned long long)total,
		 stack_weight_ns(w) ? " ns" : "", (unsigned long long)s->seq, fr.rows,
		 (unsigned long long)past_table_rows(s), other, untimed,
		 fr.rows ? "" : "; stacks tables have rows where the recording was made with --stacks");
	return 0;
}

int replay_stacks_write(struct feed *feed, const char *path, enum stack_weight w, char *msg, size_t size)
{
	const struct snapshot *s = feed->ops->take(feed->impl, 0, 0); /* the last one played */
	struct stack_file sf;
	int err;

	if (!s) {
		snprintf(msg, size, "--stacks '%s': the replay played no snapshot: nothing written", path);
		return -ENODATA;
	}
	err = stack_file_open(&sf, path, w, msg, size);
	if (!err)
		err = write_rows(s, &sf, path, msg, size);
	feed->ops->release(feed->impl, s);
	return err;
}
