/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --listen's "[ADDR:]PORT" read into a socket address, once for the command
 * line (a bad one is a usage error) and for the exporter that binds it.
 */
#ifndef GPUTOP_LISTEN_ADDR_H
#define GPUTOP_LISTEN_ADDR_H

#include <sys/socket.h>

#define LISTEN_ADDR_FORM "[ADDRESS:]PORT with an IP address, e.g. 9464, 0.0.0.0:9464 or [::1]:9464"

/*
 * "9464": 127.0.0.1; ":9464": every IPv4 address; "localhost:9464"; "[::1]:9464";
 * PORT from 0 to 65535. 0 with *ss and *len set, -1 when spec is none of those.
 */
int listen_addr_parse(const char *spec, struct sockaddr_storage *ss, socklen_t *len);

#endif
