/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --listen: the snapshots as Prometheus / OpenMetrics metrics over HTTP
 * (libmicrohttpd). Each new snapshot is rendered once, off the poller, into an
 * immutable page that scrapes share by reference: a scrape never waits for the
 * poller and never sees a half-built snapshot, and scrapes may run at once.
 */
#ifndef GPUTOP_EXPORTER_H
#define GPUTOP_EXPORTER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "model/feed.h"

#define EXPORTER_MAX_CONNECTIONS 32
#define EXPORTER_TIMEOUT_S 10 /* a client that sends nothing for this long is dropped */
#define EXPORTER_REQUEST_MEMORY (32 * 1024) /* request line and headers, at most */

struct exporter;
struct web_config;

struct exporter_settings {
	const char *listen; /* --listen */
	size_t max_rows; /* --metrics-max-rows */
	const struct web_config *web; /* --web-config: TLS and users (NULL: HTTP, anyone); kept */
	bool private_names; /* --metrics-private */
};

/* Whether this build has the exporter (STATIC=1 builds cannot link libmicrohttpd). */
bool exporter_built_in(void);
/*
 * Parses "[ADDR:]PORT" ("9464": loopback; ":9464" or "0.0.0.0:9464": every IPv4
 * address; "[::]:9464": every address), binds it and starts serving, over TLS
 * and to the users of s->web where it names them. NULL with err set (naming the
 * fix) when that fails.
 */
struct exporter *exporter_start(const struct exporter_settings *s, char *err, size_t errlen);
/* The URL of the metrics, e.g. "http://127.0.0.1:9464/metrics". */
const char *exporter_address(const struct exporter *e);
/* Renders s for the scrapes to come, when newer than the one served. */
void exporter_publish(struct exporter *e, const struct snapshot *s);
/* Takes the feed's snapshots in a thread of its own (the live poller allows several readers). */
int exporter_follow(struct exporter *e, const struct feed *feed);
/* Wraps a replay's feed so that what its one reader (the front end) takes is published too. */
void exporter_wrap(struct exporter *e, struct feed *feed);
/* Serves until *stop: takes the feed's snapshots here (the exporter alone, no front end). */
int exporter_serve(struct exporter *e, const struct feed *feed, volatile sig_atomic_t *stop);
void exporter_stop(struct exporter *e);

#endif
