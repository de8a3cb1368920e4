// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>
#include "src/module_watch.h"

#define UEVENT_MAX 8192 /* the kernel's own limit on one uevent's environment is 2048 */

struct module_watch {
	int fd;
};

struct module_watch *module_watch_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 /* the kernel's */ };
	struct module_watch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (w->fd < 0 || bind(w->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		if (w->fd >= 0)
			close(w->fd);
		free(w);
		return NULL;
	}
	return w;
}

int module_uevent_parse(const char *msg, size_t len, char *name, size_t size)
{
	const char *at = memchr(msg, '@', len), *end = memchr(msg, 0, len);
	const char *path;
	int action;

	if (!at || !end || at > end)
		return 0;
	if (at - msg == 3 && !memcmp(msg, "add", 3))
		action = 1;
	else if (at - msg == 6 && !memcmp(msg, "remove", 6))
		action = -1;
	else
		return 0;
	path = at + 1;
	if (strncmp(path, "/module/", 8) || !path[8] || strchr(path + 8, '/'))
		return 0; /* /module/NAME only: not its parameters, not devices */
	if (name && size)
		snprintf(name, size, "%s", path + 8);
	return action;
}

void module_watch_poll(struct module_watch *w, bool *added, bool *removed, char *name,
		       size_t size)
{
	char buf[UEVENT_MAX];

	*added = *removed = false;
	if (!w)
		return;
	for (;;) {
		struct sockaddr_nl from;
		struct iovec iov = { buf, sizeof(buf) - 1 };
		struct msghdr mh = { .msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov,
				     .msg_iovlen = 1 };
		ssize_t n = recvmsg(w->fd, &mh, MSG_DONTWAIT);
		int action;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) { /* some were lost: assume both */
				*added = *removed = true;
				continue;
			}
			return; /* EAGAIN: nothing more */
		}
		if (from.nl_pid != 0 || (mh.msg_flags & MSG_TRUNC))
			continue; /* the kernel's only; whole messages only */
		buf[n] = 0;
		action = module_uevent_parse(buf, (size_t)n + 1, name, size);
		*added |= action > 0;
		*removed |= action < 0;
	}
}

void module_watch_close(struct module_watch *w)
{
	if (!w)
		return;
	close(w->fd);
	free(w);
}
