// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "bpf/cupti.h"
#include "collectors/gpu_time/gpu_busy.h"
#include "collectors/gpu_time/gpu_time_tables.h"
#include "collectors/kit/proc_info.h"
#include "core/array.h"
#include "core/counter.h"

struct gpu_busy_row {
	struct cupti_busy_key key;
	struct cupti_busy_val now, before;
};

static bool entry(const void *key, const void *now, const void *before, void *state, void *arg)
{
	const struct cupti_busy_val *n = now, *b = before;
	struct gpu_busy *gb = arg;
	struct gpu_busy_row *r;

	(void)state;
	if (gb->gone(gb->arg, ((const struct cupti_busy_key *)key)->tgid))
		return true;
	r = array_push(&gb->rows, &gb->n, &gb->cap, sizeof(*r));
	if (!r) {
		gb->failed = true;
		return false;
	}
	memcpy(&r->key, key, sizeof(r->key));
	r->now = *n;
	r->before = *b;
	return false;
}

/* All processes' kernel time on each device this interval: per distinct device, in sums (rows' order). */
static void device_sums(struct gpu_busy *gb)
{
	gb->nsums = 0;
	for (size_t i = 0; i < gb->n; i++) {
		const struct gpu_busy_row *r = &gb->rows[i];
		struct gpu_busy_sum *s = NULL;

		for (size_t j = 0; j < gb->nsums && !s; j++) /* devices are few */
			if (gb->sums[j].device == r->key.device)
				s = &gb->sums[j];
		if (!s) {
			if (!(s = array_push(&gb->sums, &gb->nsums, &gb->sums_cap, sizeof(*s)))) {
				gb->failed = true;
				return;
			}
			*s = (struct gpu_busy_sum){ .device = r->key.device };
		}
		s->kernel_delta += counter_delta(r->now.kernel_ns, r->before.kernel_ns);
	}
}

static uint64_t device_kernel_delta(const struct gpu_busy *gb, uint32_t device)
{
	for (size_t j = 0; j < gb->nsums; j++)
		if (gb->sums[j].device == device)
			return gb->sums[j].kernel_delta;
	return 0;
}

int gpu_busy_init(struct gpu_busy *b, bool (*gone)(void *arg, uint32_t pid), void *arg)
{
	memset(b, 0, sizeof(*b));
	b->gone = gone;
	b->arg = arg;
	return map_delta_init(&b->delta, sizeof(struct cupti_busy_key), sizeof(struct cupti_busy_val), 0);
}

void gpu_busy_read(struct gpu_busy *b, int fd, struct model *m)
{
	struct table *t = model_table(m, &nvidia_gpu_busy);
	double iv = model_interval_s(m);

	b->n = 0;
	map_delta_read(&b->delta, fd, entry, b);
	device_sums(b);
	for (size_t i = 0; t && i < b->n; i++) {
		struct cell *row = table_row_add(t);

		if (!row)
			break;
		const struct gpu_busy_row *r = &b->rows[i];
		char comm[64];

		proc_comm(r->key.tgid, comm, sizeof(comm));
		gpu_busy_row(row, &r->key, &r->now, &r->before, comm, device_kernel_delta(b, r->key.device), iv);
	}
}

void gpu_busy_free(struct gpu_busy *b)
{
	map_delta_free(&b->delta);
	free(b->rows);
	free(b->sums);
	b->rows = NULL;
	b->sums = NULL;
	b->n = b->cap = b->nsums = b->sums_cap = 0;
}
