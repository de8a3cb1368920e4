// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Display collector: per CRTC the measured refresh rate, vblank-interval
 * quantiles, jitter and counter gaps; per client (an open DRM file on a CRTC)
 * events delivered, the interval between them, vblank -> delivery and
 * queued -> delivered latency, and missed frames. Tables: display_tables.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collectors/collector.h"
#include "collectors/display/display_tables.h"
#include "collectors/kit/capture_rb.h"
#include "collectors/kit/map_delta.h"
#include "collectors/kit/proc_cache.h"
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/tp_progs.h"
#include "collectors/kit/tracefs.h"
#include "bpf/display.h"
#include "display.skel.h"

#define GROUP "drm"

static const struct tp_spec specs[] = {
	{ .group = GROUP, .event = "drm_vblank_event", .prog = "vblank_event" },
	{ .group = GROUP, .event = "drm_vblank_event_queued", .prog = "vblank_event_queued" },
	{ .group = GROUP, .event = "drm_vblank_event_delivered", .prog = "vblank_event_delivered" },
};
#define NTPS (sizeof(specs) / sizeof(specs[0]))

static const char *const drop_names[DISPLAY_DROP_MAX] = {
	[DISPLAY_DROP_CRTC] = "crtc_index_too_large",
	[DISPLAY_DROP_CLIENT_FULL] = "client_table_full",
	[DISPLAY_DROP_PENDING_FULL] = "delivery_latency_overflow",
	[DISPLAY_DROP_LATENCY_UNMATCHED] = "delivery_latency_unmatched",
	[DISPLAY_DROP_QUEUED_FULL] = "queued_table_full",
	[DISPLAY_DROP_CAPTURE_FULL] = "capture_ring_buffer_full",
};

/* What the collector keeps beside each client's counters (map_delta). */
struct client_state {
	uint64_t id; /* numbered in order of appearance */
};

struct display_priv {
	struct display_bpf *skel;
	struct tp_prog tps[NTPS];
	struct crtc_stats last_crtc[DISPLAY_MAX_CRTCS];
	struct crtc_stats *crtc; /* one read */
	struct map_delta clients;
	struct proc_cache procs;
	uint64_t next_id;
	int crtc_minor[DISPLAY_MAX_CRTCS]; /* this tick, from its clients: -1 none yet, -2 several */
	struct table *t; /* display.clients while it is filled */
	double iv;
	struct capture_rb capture; /* --trace: vblanks and deliveries, while a capture runs */
	const struct job_sink *sink; /* NULL: no capture */
};

static void display_probe(struct collector *c)
{
	size_t any = tp_specs_list(c, specs, NTPS);

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

/* A capture record (display_rec) as a mark, named by its process. */
static bool mark_of(void *ctx, const void *rec, size_t size, void *item)
{
	const struct display_rec *r = rec;
	struct display_priv *p = ctx;
	struct display_mark *m = item;
	const struct proc_entry *pe;

	if (size < sizeof(*r))
		return false;
	*m = (struct display_mark){ .ts_ns = r->ts_ns, .crtc = r->crtc, .seq = r->seq,
				    .file = r->file, .pid = r->pid, .missed = r->missed };
	m->kind = r->kind == DISPLAY_REC_VBLANK ? DISPLAY_MARK_VBLANK : DISPLAY_MARK_DELIVERY;
	pe = r->pid ? proc_cache_get(&p->procs, r->pid) : NULL;
	if (pe)
		snprintf(m->comm, sizeof(m->comm), "%s", pe->comm);
	return true;
}

static void marks_hand(void *ctx, const void *items, size_t n, uint64_t lost)
{
	struct display_priv *p = ctx;

	p->sink->marks(p->sink->arg, items, n, lost);
}

static const struct capture_rb_ops capture_ops = {
	.item_size = sizeof(struct display_mark),
	.convert = mark_of,
	.hand = marks_hand,
};

static int display_open(struct collector *c)
{
	struct display_priv *p = c->priv;
	int err;

	p->crtc = malloc(sizeof(*p->crtc));
	p->skel = display_bpf__open();
	if (!p->crtc || !p->skel ||
	    map_delta_init(&p->clients, sizeof(struct client_key), sizeof(struct client_stats),
			   sizeof(struct client_state)) ||
	    tp_progs_open(p->tps, specs, NTPS, p->skel->obj, NULL)) {
		collector_set_state(c, COLLECTOR_FAILED, "cannot open the BPF object", NULL);
		return -1;
	}
	p->sink = c->config && c->config->job_sink && c->config->job_sink->marks ?
			  c->config->job_sink :
			  NULL;
	capture_rb_size(p->skel->maps.capture_rb, p->sink);
	err = display_bpf__load(p->skel);
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	if (p->sink &&
	    capture_rb_init(&p->capture, bpf_map__fd(p->skel->maps.capture_rb), &p->skel->bss->capture_on,
			    &p->skel->bss->drops[DISPLAY_DROP_CAPTURE_FULL], p->sink->active, &capture_ops, p))
		p->sink = NULL; /* out of memory: the trace gets no display events */
	return 0;
}

static int display_attach(struct collector *c)
{
	struct display_priv *p = c->priv;

	tp_progs_attach(c, p->tps, NTPS);
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

/*
 * The device of CRTC pipe index crtc is known only when every client on it
 * names the same one: pipe 0 of two devices cannot be told apart by the event.
 */
static void note_crtc_minor(struct display_priv *p, int crtc, int minor)
{
	int *m;

	if (crtc < 0 || crtc >= DISPLAY_MAX_CRTCS || minor < 0)
		return;
	m = &p->crtc_minor[crtc];
	*m = *m == -1 || *m == minor ? minor : -2;
}

static void read_crtcs(struct display_priv *p, struct model *m)
{
	int fd = bpf_map__fd(p->skel->maps.crtcs);
	struct table *t = model_table(m, &display_crtcs);

	for (__u32 i = 0; t && i < DISPLAY_MAX_CRTCS; i++) {
		struct cell *row;

		if (bpf_map_lookup_elem(fd, &i, p->crtc) || !p->crtc->vblanks)
			continue;
		row = table_row_add(t);
		if (!row)
			break;
		display_crtc_row(row, i, p->crtc_minor[i], p->crtc, &p->last_crtc[i], p->iv);
		p->last_crtc[i] = *p->crtc;
	}
}

static bool client_row(const void *key, const void *now, const void *before, void *state,
		       void *arg)
{
	struct display_priv *p = arg;
	const struct client_key *k = key;
	const struct client_stats *s = now;
	struct client_state *cs = state;
	const struct proc_entry *pe = proc_cache_get(&p->procs, s->pid);
	struct cell *row = p->t ? table_row_add(p->t) : NULL;

	if (!cs->id)
		cs->id = ++p->next_id;
	note_crtc_minor(p, k->crtc, s->minor);
	if (row)
		display_client_row(row, k, cs->id, pe ? pe->comm : "?", s, before, p->iv);
	return pe && pe->gone; /* shown once more, then forgotten */
}

static int display_read(struct collector *c, struct model *m)
{
	struct display_priv *p = c->priv;

	p->iv = model_interval_s(m);
	for (int i = 0; i < DISPLAY_MAX_CRTCS; i++)
		p->crtc_minor[i] = -1;
	p->t = model_table(m, &display_clients);
	/* first: the CRTCs' devices come from their clients */
	map_delta_read(&p->clients, bpf_map__fd(p->skel->maps.clients), client_row, p);
	if (p->sink)
		capture_rb_drain(&p->capture);
	proc_cache_tick(&p->procs);
	read_crtcs(p, m);
	collector_set_drops(c, drop_names, p->skel->bss->drops, DISPLAY_DROP_MAX);
	tp_progs_report(c, p->tps, NTPS, m);
	return 0;
}

static void display_close(struct collector *c)
{
	struct display_priv *p = c->priv;

	if (!p)
		return;
	tp_progs_detach(p->tps, NTPS);
	capture_rb_free(&p->capture);
	display_bpf__destroy(p->skel);
	map_delta_free(&p->clients);
	proc_cache_free(&p->procs);
	free(p->crtc);
	free(p);
}

static const struct collector_ops display_collector = {
	.name = "display", /* id */
	.order = 40,
	.description = "vblanks per CRTC (refresh, jitter, gaps) and per client (events, latency, missed frames)",
	.modules = (const char *const[]){ "drm", NULL },
	.modules_fix = "load your display driver (amdgpu, i915, xe, nouveau ...; vkms for a virtual display)",
	.probe = display_probe, /* drm vblank tracepoints */
	.open = display_open,
	.attach = display_attach,
	.read = display_read, /* maps -> display.crtcs, display.clients */
	.close = display_close,
};
COLLECTOR_REGISTER(display_collector);
