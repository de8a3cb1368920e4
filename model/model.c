// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/array.h"
#include "model/model.h"

/* A growable array of fixed-size items. */
struct vec {
	void *items;
	size_t n, cap, size;
};

struct model {
	uint64_t start_ns, last_ns, now_ns;
	uint64_t seq;
	double interval_s;
	uint32_t pid_filter;
	char hostname[64], kernel[64];
	struct vec devices, collectors;
	struct table **tables; /* this tick's collector tables, moved into its snapshot */
	size_t ntables;
};

static void *vec_push(struct vec *v)
{
	return array_push(&v->items, &v->n, &v->cap, v->size);
}

static void *vec_at(const struct vec *v, size_t i)
{
	return (char *)v->items + i * v->size;
}

/* Copies the vector's items into a new array (NULL when empty or on failure). */
static void *vec_dup(const struct vec *v, size_t *n, bool *failed)
{
	void *p;

	*n = v->n;
	if (!v->n)
		return NULL;
	p = malloc(v->n * v->size);
	if (!p) {
		*failed = true;
		*n = 0;
		return NULL;
	}
	memcpy(p, v->items, v->n * v->size);
	return p;
}

struct model *model_new(uint64_t start_ns)
{
	struct model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->start_ns = m->last_ns = m->now_ns = start_ns;
	m->devices.size = sizeof(struct device_snap);
	m->collectors.size = sizeof(struct collector_status);
	return m;
}

static void drop_pending(struct model *m)
{
	for (size_t i = 0; i < m->collectors.n; i++)
		collector_status_clear(vec_at(&m->collectors, i));
	m->collectors.n = 0;
	for (size_t i = 0; i < m->ntables; i++)
		table_free(m->tables[i]);
	free(m->tables);
	m->tables = NULL;
	m->ntables = 0;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	drop_pending(m);
	free(m->devices.items);
	free(m->collectors.items);
	free(m);
}

void model_set_host(struct model *m, const char *hostname, const char *kernel)
{
	snprintf(m->hostname, sizeof(m->hostname), "%s", hostname);
	snprintf(m->kernel, sizeof(m->kernel), "%s", kernel);
}

void model_set_pid_filter(struct model *m, uint32_t pid)
{
	m->pid_filter = pid;
}

void model_tick_begin(struct model *m, uint64_t now_ns)
{
	m->now_ns = now_ns;
	m->interval_s = (double)(now_ns - m->last_ns) / 1e9;
	if (m->interval_s <= 0)
		m->interval_s = 1e-9;
	m->devices.n = 0;
	drop_pending(m);
}

int model_device_add(struct model *m, const struct device_snap *d)
{
	struct device_snap *slot = vec_push(&m->devices);

	if (!slot)
		return -1;
	*slot = *d;
	return 0;
}

int model_collector_status(struct model *m, const struct collector_status *st)
{
	struct collector_status *slot = vec_push(&m->collectors);

	if (!slot)
		return -1;
	if (collector_status_copy(slot, st)) {
		m->collectors.n--;
		return -1;
	}
	return 0;
}

struct table *model_table(struct model *m, const struct table_desc *d)
{
	struct table **grown;

	for (size_t i = 0; i < m->ntables; i++)
		if (m->tables[i]->desc == d)
			return m->tables[i];
	grown = reallocarray(m->tables, m->ntables + 1, sizeof(*grown));
	if (!grown)
		return NULL;
	m->tables = grown;
	grown[m->ntables] = table_new(d);
	if (!grown[m->ntables])
		return NULL;
	return grown[m->ntables++];
}

struct snapshot *model_tick_end(struct model *m)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	bool failed = false;

	if (!s)
		return NULL;
	s->seq = ++m->seq;
	s->interval_s = m->interval_s;
	s->uptime_s = (double)(m->now_ns - m->start_ns) / 1e9;
	clock_gettime(CLOCK_REALTIME, &s->wall);
	memcpy(s->hostname, m->hostname, sizeof(s->hostname));
	memcpy(s->kernel, m->kernel, sizeof(s->kernel));

	s->collectors = vec_dup(&m->collectors, &s->ncollectors, &failed);
	if (s->collectors)
		m->collectors.n = 0; /* their lists now belong to the snapshot */
	s->tables = m->tables;
	s->ntables = m->ntables;
	m->tables = NULL;
	m->ntables = 0;
	s->devices = vec_dup(&m->devices, &s->ndevices, &failed);
	if (!failed && snapshot_derive(s))
		failed = true;
	if (m->pid_filter)
		snapshot_filter_pid(s, m->pid_filter);
	m->last_ns = m->now_ns;
	if (failed) {
		snapshot_free(s);
		return NULL;
	}
	return s;
}

void model_tick_discard(struct model *m)
{
	uint64_t seq = m->seq;
	struct snapshot *s = model_tick_end(m);

	if (s)
		snapshot_free(s);
	m->seq = seq;
}

double model_interval_s(const struct model *m)
{
	return m->interval_s;
}
