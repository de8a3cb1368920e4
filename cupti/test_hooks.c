// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test builds only (TEST_HOOKS=1): the probe functions' arguments written as text lines to the file
 * GPUTOP_TEST_CUPTI_LOG names, and the semaphore read from the file GPUTOP_TEST_CUPTI_ASK names
 * (its number) where set, so that tests/cupti/run.sh checks them without a BPF program.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cupti/cupti_lib.h"

static int log_fd(void)
{
	static int fd = -2;
	const char *path;

	if (fd == -2) {
		path = getenv("GPUTOP_TEST_CUPTI_LOG");
		fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
	}
	return fd;
}

void hook_records(const struct gputop_cupti_batch *b, const struct gputop_cupti_record *r)
{
	if (log_fd() < 0)
		return;
	dprintf(log_fd(),
		"batch pid=%d count=%u sent=%" PRIu64 " cupti_dropped=%" PRIu64 " library_dropped=%" PRIu64
		" clock=%d\n",
		(int)getpid(), b->count, b->sent, b->cupti_dropped, b->library_dropped,
		b->mono_before <= b->mono_after && b->cupti_ns != 0);
	for (uint32_t i = 0; i < b->count; i++, r++)
		dprintf(log_fd(),
			"rec kind=%u corr=%u start=%" PRIu64 " end=%" PRIu64 " queued=%" PRIu64 " submitted=%" PRIu64
			" bytes=%" PRIu64 " dev=%u ctx=%u stream=%u name=%u grid=%u,%u,%u block=%u,%u,%u\n",
			r->kind, r->correlation_id, r->start, r->end, r->queued, r->submitted, r->bytes, r->device_id,
			r->context_id, r->stream_id, r->name_id, r->grid[0], r->grid[1], r->grid[2], r->block[0],
			r->block[1], r->block[2]);
}

void hook_name(uint32_t id, const char *name, uint32_t len, uint32_t cut)
{
	if (log_fd() >= 0)
		dprintf(log_fd(), "name id=%u len=%u cut=%u %.*s\n", id, len, cut, (int)len, name);
}

void hook_status(uint32_t state, const char *detail)
{
	if (log_fd() >= 0)
		dprintf(log_fd(), "status pid=%d state=%u %s\n", (int)getpid(), state, detail);
}

int hook_asked(int semaphore)
{
	const char *path = getenv("GPUTOP_TEST_CUPTI_ASK");
	char buf[16] = "";
	int fd, n;

	if (!path)
		return semaphore;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : 0;
}
