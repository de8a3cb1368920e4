// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/listen_addr.h"

static int parse_port(const char *s, unsigned int *port)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9') /* no sign, no space: strtoul would take them */
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 65535)
		return -1;
	*port = (unsigned int)v;
	return 0;
}

/* The host part of spec into host ("127.0.0.1" when there is none), and where its port starts. */
static int split(const char *spec, char *host, size_t size, const char **port_s)
{
	const char *colon;

	snprintf(host, size, "127.0.0.1");
	*port_s = spec;
	if (spec[0] == '[') { /* [v6]:port */
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= size)
			return -1;
		snprintf(host, size, "%.*s", (int)(close - spec - 1), spec + 1);
		*port_s = close + 2;
	} else if ((colon = strrchr(spec, ':'))) {
		if ((size_t)(colon - spec) >= size)
			return -1;
		snprintf(host, size, "%.*s", (int)(colon - spec), spec);
		if (!*host)
			snprintf(host, size, "0.0.0.0");
		else if (!strcmp(host, "localhost"))
			snprintf(host, size, "127.0.0.1");
		*port_s = colon + 1;
	}
	return 0;
}

int listen_addr_parse(const char *spec, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	const char *port_s;
	unsigned int port;
	char host[64];

	if (split(spec, host, sizeof(host), &port_s) || parse_port(port_s, &port))
		return -1;
	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)port);
		*len = sizeof(*v4);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*v6);
		return 0;
	}
	return -1;
}
