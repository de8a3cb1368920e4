// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include "collectors/kit/capture_rb.h"

int capture_rb_init(struct capture_rb *c, int map_fd, __u32 *on, const __u64 *lost,
		    ring_buffer_sample_fn fn, void *ctx)
{
	*c = (struct capture_rb){ .on = on, .lost = lost };
	c->rb = ring_buffer__new(map_fd, fn, ctx, NULL);
	return c->rb ? 0 : -errno;
}

__u64 capture_rb_drain(struct capture_rb *c, atomic_bool *active)
{
	__u64 lost, n;

	if (!c->rb)
		return 0;
	*(volatile __u32 *)c->on = active && atomic_load(active);
	ring_buffer__consume(c->rb);
	lost = *(volatile const __u64 *)c->lost;
	n = lost - c->lost_seen;
	c->lost_seen = lost;
	return n;
}

void capture_rb_free(struct capture_rb *c)
{
	if (c->on)
		*(volatile __u32 *)c->on = 0;
	ring_buffer__free(c->rb);
	c->rb = NULL;
}
