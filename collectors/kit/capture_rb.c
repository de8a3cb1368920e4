// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "collectors/kit/capture_rb.h"

/* The items so far and the losses since the last hand, to the collector's hand. */
static void hand(struct capture_rb *c, uint64_t lost)
{
	if (c->n || lost)
		c->ops->hand(c->ctx, c->items, c->n, lost);
	c->n = 0;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct capture_rb *c = ctx;

	if (!c->keep)
		return 0;
	if (c->n == CAPTURE_RB_BATCH)
		hand(c, 0);
	if (c->ops->convert(c->ctx, data, size, c->items + c->n * c->ops->item_size))
		c->n++;
	return 0;
}

void capture_rb_size(struct bpf_map *map, bool capturing)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!capturing)
		bpf_map__set_max_entries(map, page > 0 ? (__u32)page : 4096);
}

/*
 * The reader's lock held: what waits handed over while a capture runs (else
 * dropped, and the flag cleared), the flag set for what comes next when it does.
 */
static void drain(void *arg)
{
	struct capture_rb *c = arg;
	__u64 lost, n;

	c->keep = !c->active || atomic_load(c->active);
	if (!c->keep)
		*(volatile __u32 *)c->on = 0;
	ring_buffer__consume(c->rb);
	lost = *(volatile const __u64 *)c->lost;
	n = lost - c->lost_seen;
	c->lost_seen = lost;
	if (c->keep)
		hand(c, n);
	*(volatile __u32 *)c->on = c->keep;
}

int capture_rb_init(struct capture_rb *c, int map_fd, __u32 *on, const __u64 *lost, atomic_bool *active,
		    const struct capture_rb_ops *ops, void *ctx)
{
	*c = (struct capture_rb){ .on = on, .lost = lost, .active = active, .ops = ops, .ctx = ctx };
	c->items = calloc(CAPTURE_RB_BATCH, ops->item_size);
	if (!c->items)
		return -ENOMEM;
	c->rb = ring_buffer__new(map_fd, on_record, c, NULL);
	if (!c->rb) {
		int err = -errno;

		capture_rb_free(c);
		return err;
	}
	ring_reader_init(&c->reader, c->rb, CAPTURE_RB_READ_MS, drain, c);
	c->reading = true;
	(void)ring_reader_start(&c->reader); /* not started: drained at each tick only */
	return 0;
}

void capture_rb_drain(struct capture_rb *c)
{
	if (!c->reading)
		return;
	ring_reader_lock(&c->reader);
	ring_reader_unlock(&c->reader);
}

void capture_rb_free(struct capture_rb *c)
{
	if (c->reading) {
		ring_reader_stop(&c->reader); /* its last drain done */
		drain(c); /* and what came since, the thread gone */
		c->reading = false;
	}
	if (c->on && c->rb)
		*(volatile __u32 *)c->on = 0;
	ring_buffer__free(c->rb);
	free(c->items);
	c->rb = NULL;
	c->items = NULL;
}
