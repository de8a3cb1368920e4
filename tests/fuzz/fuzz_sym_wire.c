// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: any bytes as what the symbolizing child (sym_child.h) writes to
 * the monitor, read as the monitor reads its answers (sym_wire_recv): a
 * message is taken whole and within its bound, or refused; the reading ends
 * at the stream's end. The child is confined but parses hostile files, so the
 * monitor, which holds the privileges, trusts none of its bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include "symbols/sym_wire.h"

#define ANSWER_BOUND 4096 /* the monitor's bound on an answer is of this order (sym_child.c) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static void *buf;
	static size_t cap;
	int sv[2], fd, err = 0, bufsize = 1 << 20;
	size_t len, messages = 0;
	uint32_t type;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		abort();
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof(bufsize));
	setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof(bufsize));
	if (size > 200000) /* what one socket buffer surely holds: the write must not block */
		size = 200000;
	if (size && write(sv[0], data, size) != (ssize_t)size)
		abort();
	close(sv[0]);
	while (!err) {
		err = sym_wire_recv(sv[1], 0, &type, &buf, &cap, ANSWER_BOUND, &len, &fd);
		if (fd >= 0) /* no descriptor was sent */
			abort();
		if (!err && (len > ANSWER_BOUND || len > cap || ++messages > size / 8))
			abort();
	}
	if (err != -EPIPE && err != -EPROTO && err != -ETIMEDOUT)
		abort();
	close(sv[1]);
	return 0;
}
