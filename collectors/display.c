// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Display collector: per CRTC the measured refresh rate, vblank-interval
 * quantiles, jitter and counter gaps; per client (an open DRM file on a CRTC)
 * events delivered, the interval between them, vblank -> delivery and
 * queued -> delivered latency, and missed frames. Tables: display_tables.c.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "../model/array.h"
#include "bpf_util.h"
#include "collector.h"
#include "display_tables.h"
#include "proc_info.h"
#include "tracefs.h"
#include <linux/types.h>
#include "../bpf/display.h"
#include "display.skel.h"

#define GROUP "drm"
#define NPROGS 3

static const char *const events[NPROGS] = {
	"drm_vblank_event", "drm_vblank_event_queued", "drm_vblank_event_delivered",
};

static const char *const drop_names[DISPLAY_DROP_MAX] = {
	[DISPLAY_DROP_CRTC] = "crtc_index_too_large",
	[DISPLAY_DROP_CLIENT_FULL] = "client_table_full",
	[DISPLAY_DROP_PENDING_FULL] = "delivery_latency_overflow",
	[DISPLAY_DROP_LATENCY_UNMATCHED] = "delivery_latency_unmatched",
	[DISPLAY_DROP_QUEUED_FULL] = "queued_table_full",
};

/* What the last read saw of a client, to turn cumulative counters into this tick's. */
struct client_seen {
	struct client_key key;
	struct client_stats last;
	uint64_t id; /* numbered in order of appearance */
	char comm[16];
	bool seen, gone;
};

struct display_priv {
	struct display_bpf *skel;
	struct tp_prog tps[NPROGS];
	struct crtc_stats last_crtc[DISPLAY_MAX_CRTCS];
	struct crtc_stats *crtc; /* one read */
	struct client_stats *value; /* one read */
	struct client_seen *clients;
	size_t nclients, cap;
	uint64_t next_id;
};

static void display_probe(struct collector *c)
{
	bool any = false;

	for (size_t i = 0; i < NPROGS; i++) {
		bool exists = tracepoint_exists(GROUP, events[i]);

		collector_add_tracepoint(c, GROUP, events[i],
					 exists ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
					 exists ? "" : "not in this kernel");
		any |= exists;
	}
	if (!tracepoint_exists(GROUP, "drm_vblank_event")) {
		if (!tracepoint_group_exists(GROUP) && access("/sys/module/drm", F_OK))
			collector_set_state(c, COLLECTOR_UNAVAILABLE,
					    "no drm tracepoints: the drm module is not loaded (no GPU or display driver is active)",
					    "load your display driver (amdgpu, i915, xe, nouveau ...; vkms for a virtual display)");
		else
			collector_set_state(c, COLLECTOR_UNAVAILABLE,
					    any ? "drm:drm_vblank_event is missing" :
						  "the drm module has no vblank tracepoints (CONFIG_EVENT_TRACING off?)",
					    "use a kernel with CONFIG_EVENT_TRACING=y");
		return;
	}
	c->priv = calloc(1, sizeof(struct display_priv));
	if (!c->priv)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

static int display_open(struct collector *c)
{
	struct display_priv *p = c->priv;
	struct bpf_program *progs[NPROGS];
	int err;

	p->crtc = malloc(sizeof(*p->crtc));
	p->value = malloc(sizeof(*p->value));
	p->skel = display_bpf__open();
	if (!p->crtc || !p->value || !p->skel) {
		collector_set_state(c, COLLECTOR_FAILED, "cannot open the BPF object", NULL);
		return -1;
	}
	progs[0] = p->skel->progs.vblank_event;
	progs[1] = p->skel->progs.vblank_event_queued;
	progs[2] = p->skel->progs.vblank_event_delivered;
	for (size_t i = 0; i < NPROGS; i++)
		p->tps[i] = (struct tp_prog){ .group = GROUP, .event = events[i], .prog = progs[i],
					      .wanted = tracepoint_exists(GROUP, events[i]) };
	tp_progs_autoload(p->tps, NPROGS);
	err = display_bpf__load(p->skel);
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	return 0;
}

static int display_attach(struct collector *c)
{
	struct display_priv *p = c->priv;

	tp_progs_attach(c, p->tps, NPROGS);
	if (!p->tps[0].link) {
		collector_set_state(c, COLLECTOR_FAILED, "drm:drm_vblank_event could not be attached",
				    "run with -v to see libbpf's messages");
		return -1;
	}
	snprintf(c->status.detail, sizeof(c->status.detail), "%s",
		 p->tps[2].link ? "vblanks per CRTC, events per client" :
			       "vblanks per CRTC (no delivery events on this kernel)");
	return 0;
}

static void dev_name(int minor, char *buf, size_t size)
{
	if (minor < 0)
		snprintf(buf, size, "-");
	else if (minor < 64)
		snprintf(buf, size, "card%d", minor);
	else if (minor >= 128 && minor < 192)
		snprintf(buf, size, "renderD%d", minor);
	else
		snprintf(buf, size, "minor%d", minor);
}

/* The device of CRTC pipe index crtc: known only when every client on it names the same one. */
static int crtc_minor(const struct display_priv *p, int crtc)
{
	int minor = -1;

	for (size_t i = 0; i < p->nclients; i++) {
		const struct client_seen *cs = &p->clients[i];

		if (cs->key.crtc != crtc || cs->last.minor < 0)
			continue;
		if (minor >= 0 && minor != cs->last.minor)
			return -2; /* pipe 0 of two devices: the vblank event cannot tell them apart */
		minor = cs->last.minor;
	}
	return minor;
}

static void read_crtcs(struct display_priv *p, struct model *m)
{
	int fd = bpf_map__fd(p->skel->maps.crtcs);
	struct table *t = model_table(m, &display_crtcs);
	double iv = model_interval_s(m);

	for (__u32 i = 0; t && i < DISPLAY_MAX_CRTCS; i++) {
		struct crtc_stats *now = p->crtc, *last = &p->last_crtc[i];
		struct latency_summary q;
		struct cell *row;
		double adv, span, n, sum_us, sq;
		int minor;

		if (bpf_map_lookup_elem(fd, &i, now) || !now->vblanks)
			continue;
		row = table_row_add(t);
		if (!row)
			break;
		cell_set_u64(row, CRTC_ID, i);
		minor = crtc_minor(p, (int)i);
		if (minor >= 0) {
			char dev[16];

			dev_name(minor, dev, sizeof(dev));
			cell_set_str(row, CRTC_DEV, dev);
		}
		adv = (double)(now->seq_advance - last->seq_advance);
		span = (double)(now->time_span_ns - last->time_span_ns);
		if (adv > 0 && span > 0)
			cell_set_f64(row, CRTC_HZ, adv / (span / 1e9));
		cell_set_f64(row, CRTC_VBL_PER_S, (double)(now->vblanks - last->vblanks) / iv);
		cells_set_quantiles(row, CRTC_INT_P50, CRTC_INT_P99, now->interval_hist, last->interval_hist,
			      (double)(now->interval_sum_ns - last->interval_sum_ns), &q);
		if (q.count)
			cell_set_f64(row, CRTC_INT_MEAN, q.mean_ns);
		if (now->intervals)
			cell_set_f64(row, CRTC_INT_MAX, (double)now->interval_max_ns);
		n = (double)(now->intervals - last->intervals);
		if (n >= 2) {
			sum_us = (double)(now->interval_sum_ns - last->interval_sum_ns) / 1e3;
			sq = (double)(now->interval_sq_us - last->interval_sq_us);
			cell_set_f64(row, CRTC_JITTER,
				     sqrt(fmax(0, sq / n - (sum_us / n) * (sum_us / n))) * 1e3);
		}
		cell_set_u64(row, CRTC_GAPS, now->gaps);
		cell_set_f64(row, CRTC_GAPS_PER_S, (double)(now->gaps - last->gaps) / iv);
		cell_set_u64(row, CRTC_VBLANKS, now->vblanks);
		cell_set_u64(row, CRTC_RESTARTS, now->restarts);
		*last = *now;
	}
}

static struct client_seen *client_find(struct display_priv *p, const struct client_key *k)
{
	struct client_seen *grown;

	for (size_t i = 0; i < p->nclients; i++)
		if (p->clients[i].key.file == k->file && p->clients[i].key.crtc == k->crtc)
			return &p->clients[i];
	grown = array_push(&p->clients, &p->nclients, &p->cap, sizeof(*grown));
	if (!grown)
		return NULL;
	grown->key = *k;
	grown->id = ++p->next_id;
	return grown;
}

static void client_row(struct table *t, struct client_seen *cs, const struct client_stats *now,
		       double iv)
{
	const struct client_stats *last = &cs->last;
	struct cell *row = table_row_add(t);
	struct latency_summary q;
	char dev[16];

	if (!row)
		return;
	cell_set_u64(row, CLIENT_PID, now->pid);
	cell_set_str(row, CLIENT_COMM, cs->comm);
	if (now->minor >= 0) {
		dev_name(now->minor, dev, sizeof(dev));
		cell_set_str(row, CLIENT_DEV, dev);
	}
	cell_set_u64(row, CLIENT_CRTC, (uint64_t)cs->key.crtc);
	cell_set_u64(row, CLIENT_ID, cs->id);
	cell_set_f64(row, CLIENT_PER_S, (double)(now->delivered - last->delivered) / iv);
	cell_set_u64(row, CLIENT_MISSED, now->missed);
	cell_set_f64(row, CLIENT_MISSED_PER_S, (double)(now->missed - last->missed) / iv);
	cells_set_quantiles(row, CLIENT_INT_P50, CLIENT_INT_P99, now->interval_hist, last->interval_hist,
		      (double)(now->interval_sum_ns - last->interval_sum_ns), &q);
	cells_set_quantiles(row, CLIENT_LAT_P50, CLIENT_LAT_P99, now->latency_hist, last->latency_hist,
		      (double)(now->latency_sum_ns - last->latency_sum_ns), &q);
	cells_set_quantiles(row, CLIENT_WAIT_P50, CLIENT_WAIT_P99, now->wait_hist, last->wait_hist,
		      (double)(now->wait_sum_ns - last->wait_sum_ns), &q);
	cell_set_u64(row, CLIENT_DELIVERED, now->delivered);
	cell_set_u64(row, CLIENT_QUEUED, now->queued);
}

static void read_clients(struct display_priv *p, struct model *m)
{
	int fd = bpf_map__fd(p->skel->maps.clients);
	struct table *t = model_table(m, &display_clients);
	struct client_key key, next, *prev = NULL;
	double iv = model_interval_s(m);
	size_t w = 0;

	for (size_t i = 0; i < p->nclients; i++)
		p->clients[i].seen = p->clients[i].gone = false;
	while (t && !bpf_map_get_next_key(fd, prev, &next)) {
		struct client_seen *cs;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, p->value))
			continue;
		cs = client_find(p, &key);
		if (!cs)
			break;
		if (!cs->comm[0])
			proc_comm(p->value->pid, cs->comm, sizeof(cs->comm));
		client_row(t, cs, p->value, iv);
		cs->last = *p->value;
		cs->seen = true;
		cs->gone = proc_gone(p->value->pid); /* shown once more, then forgotten */
	}
	/* Deleting while walking would restart the walk (the next key of a deleted one is the first). */
	for (size_t i = 0; i < p->nclients; i++) {
		if (p->clients[i].gone)
			bpf_map_delete_elem(fd, &p->clients[i].key);
		else if (p->clients[i].seen)
			p->clients[w++] = p->clients[i];
	}
	p->nclients = w;
}

static int display_read(struct collector *c, struct model *m)
{
	struct display_priv *p = c->priv;

	read_clients(p, m); /* first: the CRTCs' devices come from their clients */
	read_crtcs(p, m);
	collector_set_drops(c, drop_names, p->skel->bss->drops, DISPLAY_DROP_MAX);
	tp_progs_report(c, p->tps, NPROGS, m);
	return 0;
}

static void display_close(struct collector *c)
{
	struct display_priv *p = c->priv;

	if (!p)
		return;
	tp_progs_detach(p->tps, NPROGS);
	display_bpf__destroy(p->skel);
	free(p->crtc);
	free(p->value);
	free(p->clients);
	free(p);
}

static const struct collector_ops display_collector = {
	.name = "display", /* id */
	.order = 40,
	.description = "vblanks per CRTC (refresh, jitter, gaps) and per client (events, latency, missed frames)",
	.probe = display_probe, /* drm vblank tracepoints */
	.open = display_open,
	.attach = display_attach,
	.read = display_read, /* maps -> display.crtcs, display.clients */
	.close = display_close,
};
COLLECTOR_REGISTER(display_collector);
