// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "src/exporter.h"

#ifdef GPUTOP_NO_HTTP
/*
 * Debian's libmicrohttpd is built with GnuTLS, whose static archives lack some of
 * their dependencies (p11-kit, libunistring): fully static builds (STATIC=1, and PORTABLE=1
 * for machines without libmicrohttpd) have no endpoint.
 */
bool exporter_built_in(void)
{
	return false;
}

struct exporter *exporter_start(const struct exporter_settings *s, char *err, size_t errlen)
{
	(void)s;
	snprintf(err, errlen,
		 "--listen: this build (make STATIC=1 or PORTABLE=1) has no HTTP server: libmicrohttpd cannot be linked statically; use the default build ('make')");
	return NULL;
}

const char *exporter_address(const struct exporter *e)
{
	(void)e;
	return "";
}

void exporter_publish(struct exporter *e, const struct snapshot *s)
{
	(void)e;
	(void)s;
}

int exporter_follow(struct exporter *e, const struct feed *feed)
{
	(void)e;
	(void)feed;
	return -1;
}

void exporter_wrap(struct exporter *e, struct feed *feed)
{
	(void)e;
	(void)feed;
}

int exporter_serve(struct exporter *e, const struct feed *feed, volatile sig_atomic_t *stop)
{
	(void)e;
	(void)feed;
	(void)stop;
	return -1;
}

void exporter_stop(struct exporter *e)
{
	(void)e;
}

#else
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>
#include "core/listen_addr.h"
#include "output/metrics.h"
#include "src/web_config.h"

/* One snapshot rendered in both formats; scrapes hold references to it. */
struct page {
	atomic_int refs;
	uint64_t seq;
	char *body[2]; /* by enum metrics_format */
	size_t len[2];
};

struct exporter {
	struct MHD_Daemon *daemon;
	const struct web_config *web; /* NULL: plain HTTP, anyone */
	char address[96]; /* the metrics' URL */
	pthread_mutex_t lock;
	struct page *page; /* the newest, NULL before the first snapshot */
	struct metrics_export drops; /* settings; its counts touched by the one thread that publishes */
	/* exporter_follow */
	pthread_t thread;
	bool following;
	volatile sig_atomic_t stop_following;
	struct feed followed;
	/* exporter_wrap */
	struct feed inner;
};

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gputop-bpf</title></head>\n"
	"<body><h1>gputop-bpf</h1>\n<p>What the GPU drivers of this machine do, from eBPF programs "
	"on kernel tracepoints.</p>\n<p><a href=\"/metrics\">Metrics</a> (Prometheus text format, or "
	"OpenMetrics when asked for).</p>\n</body></html>\n";

bool exporter_built_in(void)
{
	return true;
}

static void page_put(void *cls)
{
	struct page *p = cls;

	if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	free(p->body[0]);
	free(p->body[1]);
	free(p);
}

static struct page *page_get(struct exporter *e)
{
	struct page *p;

	pthread_mutex_lock(&e->lock);
	p = e->page;
	if (p)
		atomic_fetch_add(&p->refs, 1);
	pthread_mutex_unlock(&e->lock);
	return p;
}

static int render(const struct snapshot *s, enum metrics_format f, const struct metrics_export *d,
		  char **body, size_t *len)
{
	FILE *out = open_memstream(body, len);
	int err;

	if (!out)
		return -1;
	err = metrics_write(out, s, f, d);
	if (fclose(out) || err) {
		free(*body);
		*body = NULL;
		return -1;
	}
	return 0;
}

void exporter_publish(struct exporter *e, const struct snapshot *s)
{
	struct page *p, *old;

	pthread_mutex_lock(&e->lock);
	old = e->page;
	pthread_mutex_unlock(&e->lock);
	if (old && old->seq == s->seq)
		return; /* only this thread publishes: old cannot go meanwhile */
	p = calloc(1, sizeof(*p));
	if (!p)
		return; /* the last page stays served */
	atomic_init(&p->refs, 1);
	p->seq = s->seq;
	if (metrics_count_drops(s, &e->drops) ||
	    render(s, METRICS_TEXT, &e->drops, &p->body[METRICS_TEXT], &p->len[METRICS_TEXT]) ||
	    render(s, METRICS_OPENMETRICS, &e->drops, &p->body[METRICS_OPENMETRICS],
		   &p->len[METRICS_OPENMETRICS])) {
		page_put(p);
		return;
	}
	pthread_mutex_lock(&e->lock);
	e->page = p;
	pthread_mutex_unlock(&e->lock);
	page_put(old);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *type,
			     const char *text)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result serve_metrics(struct exporter *e, struct MHD_Connection *c)
{
	struct page *p = page_get(e);
	enum metrics_format f;
	struct MHD_Response *r;
	enum MHD_Result ret;

	if (!p)
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8",
			     "no snapshot yet: the first comes one interval after the start\n");
	f = metrics_negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	r = MHD_create_response_from_buffer_with_free_callback_cls(p->len[f], p->body[f], page_put, p);
	if (!r) {
		page_put(p);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				f == METRICS_OPENMETRICS ? METRICS_TYPE_OPENMETRICS : METRICS_TYPE_TEXT);
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* Basic authentication against --web-config's users: whether the request may go on. */
static bool authorised(const struct exporter *e, struct MHD_Connection *c)
{
	char *password = NULL, *user;
	bool ok;

	if (!e->web || !e->web->nusers)
		return true;
	user = MHD_basic_auth_get_username_password(c, &password);
	ok = user && web_config_check(e->web, user, password);
	if (password) {
		explicit_bzero(password, strlen(password));
		MHD_free(password);
	}
	if (user)
		MHD_free(user);
	return ok;
}

static enum MHD_Result unauthorised(struct MHD_Connection *c)
{
	static const char text[] = "401 unauthorized: this endpoint asks for a user and password\n";
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								 MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	ret = MHD_queue_basic_auth_fail_response(c, "gputop-bpf", r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	(void)version;
	(void)upload;
	(void)upload_size;
	(void)state;
	if (!authorised(cls, c))
		return unauthorised(c);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
			     "method not allowed: GET or HEAD\n");
	if (!strcmp(url, "/metrics"))
		return serve_metrics(cls, c);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", index_page);
	return reply(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
		     "not found: the metrics are at /metrics\n");
}

/* libmicrohttpd's own complaints (a client that went away, ...) stay quiet: the screen is ours. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;
}

static int open_listener(const char *spec, char *address, size_t addrlen, char *err, size_t errlen)
{
	struct sockaddr_storage ss, got;
	socklen_t len, glen = sizeof(got);
	char host[INET6_ADDRSTRLEN] = "";
	int fd, one = 1, zero = 0;
	unsigned int port;

	if (listen_addr_parse(spec, &ss, &len)) { /* options_parse refused it already */
		snprintf(err, errlen, "invalid --listen '%.80s': expected " LISTEN_ADDR_FORM, spec);
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "--listen: cannot create a socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6) /* [::] serves IPv4 too */
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 64)) {
		int e = errno;

		close(fd);
		if (e == EADDRINUSE)
			snprintf(err, errlen,
				 "--listen %.80s: the port is in use (another exporter?): choose another port",
				 spec);
		else if (e == EACCES)
			snprintf(err, errlen,
				 "--listen %.80s: ports below 1024 need CAP_NET_BIND_SERVICE: use a higher port (9464 is usual)",
				 spec);
		else if (e == EADDRNOTAVAIL)
			snprintf(err, errlen,
				 "--listen %.80s: that address is not one of this machine's", spec);
		else
			snprintf(err, errlen, "--listen %.80s: %s", spec, strerror(e));
		return -1;
	}
	getsockname(fd, (struct sockaddr *)&got, &glen);
	if (got.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&got)->sin6_addr, host, sizeof(host));
		port = ntohs(((struct sockaddr_in6 *)&got)->sin6_port);
		snprintf(address, addrlen, "[%s]:%u", host, port);
	} else {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&got)->sin_addr, host, sizeof(host));
		port = ntohs(((struct sockaddr_in *)&got)->sin_port);
		snprintf(address, addrlen, "%s:%u", host, port);
	}
	return fd;
}

/* The daemon's options: limits, and the certificate and key with --web-config's TLS. */
static void daemon_options(const struct exporter *e, int fd, struct MHD_OptionItem *o)
{
	size_t n = 0;

	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, fd, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)mhd_log, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, EXPORTER_MAX_CONNECTIONS, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, EXPORTER_TIMEOUT_S, NULL };
	o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, EXPORTER_REQUEST_MEMORY,
					  NULL };
	if (e->web && e->web->cert_pem) {
		o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, e->web->key_pem };
		o[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, e->web->cert_pem };
		o[n++] = (struct MHD_OptionItem){
			MHD_OPTION_HTTPS_PRIORITIES, 0,
			e->web->tls13_only ? "NORMAL:-VERS-ALL:+VERS-TLS1.3" :
					     "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"
		};
	}
	o[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
}

struct exporter *exporter_start(const struct exporter_settings *s, char *err, size_t errlen)
{
	struct exporter *e = calloc(1, sizeof(*e));
	bool tls = s->web && s->web->cert_pem;
	struct MHD_OptionItem opts[10];
	char address[80];
	int fd;

	if (!e) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (tls && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, errlen, "--web-config: this libmicrohttpd has no TLS: install Debian's libmicrohttpd12");
		free(e);
		return NULL;
	}
	fd = open_listener(s->listen, address, sizeof(address), err, errlen);
	if (fd < 0) {
		free(e);
		return NULL;
	}
	snprintf(e->address, sizeof(e->address), "%s://%s/metrics", tls ? "https" : "http", address);
	e->web = s->web;
	pthread_mutex_init(&e->lock, NULL);
	e->drops.max_rows = s->max_rows;
	e->drops.private_names = s->private_names;
	e->drops.viewer_uid = (uint32_t)getuid();
	daemon_options(e, fd, opts);
	e->daemon = MHD_start_daemon(MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD |
					     MHD_USE_ERROR_LOG | (tls ? MHD_USE_TLS : 0),
				     0, NULL, NULL, on_request, e, MHD_OPTION_ARRAY, opts,
				     MHD_OPTION_END);
	if (!e->daemon) {
		snprintf(err, errlen, "--listen %.80s: the HTTP server did not start%s", s->listen,
			 tls ? " (is the key the certificate's, both PEM?)" : "");
		close(fd);
		pthread_mutex_destroy(&e->lock);
		free(e);
		return NULL;
	}
	return e;
}

const char *exporter_address(const struct exporter *e)
{
	return e->address;
}

int exporter_serve(struct exporter *e, const struct feed *feed, volatile sig_atomic_t *stop)
{
	uint64_t seq = 0;

	while (!*stop) {
		const struct snapshot *s = feed->ops->take(feed->impl, seq, 200);

		if (!s) {
			if (*feed->ops->error(feed->impl))
				return -1;
			if (feed->ops->finished(feed->impl)) /* a replay's end: its last snapshot stays */
				usleep(200 * 1000);
			continue;
		}
		seq = s->seq;
		exporter_publish(e, s);
		feed->ops->release(feed->impl, s);
	}
	return 0;
}

static void *follow_thread(void *arg)
{
	struct exporter *e = arg;

	exporter_serve(e, &e->followed, &e->stop_following);
	return NULL;
}

int exporter_follow(struct exporter *e, const struct feed *feed)
{
	e->followed = *feed;
	if (pthread_create(&e->thread, NULL, follow_thread, e))
		return -1;
	e->following = true;
	return 0;
}

static const struct snapshot *wrap_take(void *impl, uint64_t after_seq, int timeout_ms)
{
	struct exporter *e = impl;
	const struct snapshot *s = e->inner.ops->take(e->inner.impl, after_seq, timeout_ms);

	if (s)
		exporter_publish(e, s);
	return s;
}

static void wrap_release(void *impl, const struct snapshot *s)
{
	struct exporter *e = impl;

	e->inner.ops->release(e->inner.impl, s);
}

static void wrap_set_delay(void *impl, double delay_s)
{
	struct exporter *e = impl;

	e->inner.ops->set_delay(e->inner.impl, delay_s);
}

static void wrap_step(void *impl)
{
	struct exporter *e = impl;

	if (e->inner.ops->step)
		e->inner.ops->step(e->inner.impl);
}

static const char *wrap_error(void *impl)
{
	struct exporter *e = impl;

	return e->inner.ops->error(e->inner.impl);
}

static bool wrap_finished(void *impl)
{
	struct exporter *e = impl;

	return e->inner.ops->finished(e->inner.impl);
}

static const struct feed_ops wrap_ops = {
	.take = wrap_take,
	.release = wrap_release,
	.set_delay = wrap_set_delay,
	.step = wrap_step,
	.error = wrap_error,
	.finished = wrap_finished,
};

void exporter_wrap(struct exporter *e, struct feed *feed)
{
	e->inner = *feed;
	feed->ops = &wrap_ops;
	feed->impl = e;
}

void exporter_stop(struct exporter *e)
{
	if (!e)
		return;
	if (e->following) {
		e->stop_following = 1;
		pthread_join(e->thread, NULL);
	}
	MHD_stop_daemon(e->daemon); /* waits for the scrapes in progress */
	page_put(e->page);
	metrics_export_free(&e->drops);
	pthread_mutex_destroy(&e->lock);
	free(e);
}
#endif
