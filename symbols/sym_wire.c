// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "symbols/sym_wire.h"

struct header {
	uint32_t type, len;
};

int sym_wire_send(int sock, uint32_t type, const void *a, size_t alen, const void *b, size_t blen, int fd)
{
	struct header h = { .type = type, .len = (uint32_t)(alen + blen) };
	struct iovec iov[3] = { { &h, sizeof(h) }, { (void *)a, alen }, { (void *)b, blen } };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 3 };
	size_t left = sizeof(h) + alen + blen;

	if (alen + blen > SYM_WIRE_MAX)
		return -EMSGSIZE;
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		msg.msg_control = u.buf;
		msg.msg_controllen = sizeof(u.buf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	while (left) {
		ssize_t n = sendmsg(sock, &msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 && errno != EPIPE ? -errno : -EPIPE;
		left -= (size_t)n;
		msg.msg_control = NULL; /* the descriptor went with the first bytes */
		msg.msg_controllen = 0;
		while (n > 0 && msg.msg_iovlen) { /* past what went */
			size_t step = (size_t)n < msg.msg_iov->iov_len ? (size_t)n : msg.msg_iov->iov_len;

			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + step;
			msg.msg_iov->iov_len -= step;
			n -= (ssize_t)step;
			if (!msg.msg_iov->iov_len) {
				msg.msg_iov++;
				msg.msg_iovlen--;
			}
		}
	}
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for bytes until deadline (ms, -1: none). 0, or -errno. */
static int wait_readable(int sock, long long deadline)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };

	for (;;) {
		int left = deadline < 0 ? -1 : (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 0);
		int r = poll(&p, 1, left);

		if (r > 0)
			return 0;
		if (!r)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

/* len bytes into buf before deadline; the first read's descriptor into *fd. 0, or -errno. */
static int read_full(int sock, long long deadline, void *buf, size_t len, int *fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;

	for (size_t got = 0; got < len;) {
		struct iovec iov = { (char *)buf + got, len - got };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf)
		};
		int err = wait_readable(sock, deadline);
		ssize_t n;

		if (err)
			return err;
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) /* the other end gone: its close, or a reset (it died with our bytes unread) */
			return n < 0 && errno != ECONNRESET ? -errno : -EPIPE;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
			    c->cmsg_len == CMSG_LEN(sizeof(int))) {
				int got_fd;

				memcpy(&got_fd, CMSG_DATA(c), sizeof(int));
				if (*fd < 0)
					*fd = got_fd;
				else
					close(got_fd); /* one descriptor a message */
			}
		got += (size_t)n;
	}
	return 0;
}

int sym_wire_recv(int sock, int timeout_ms, uint32_t *type, void **buf, size_t *cap, size_t max, size_t *len, int *fd)
{
	long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	struct header h = { 0 };
	int err;

	*fd = -1;
	err = read_full(sock, deadline, &h, sizeof(h), fd);
	if (!err && (h.len > max || h.len > SYM_WIRE_MAX))
		err = -EPROTO;
	if (!err && h.len > *cap) {
		void *p = realloc(*buf, h.len);

		if (!p)
			err = -ENOMEM;
		else {
			*buf = p;
			*cap = h.len;
		}
	}
	if (!err)
		err = read_full(sock, deadline, *buf, h.len, fd);
	if (err && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	*type = h.type;
	*len = h.len;
	return err;
}
