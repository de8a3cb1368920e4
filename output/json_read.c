// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "json_read.h"
#include "json_tables.h"

static json_object *field(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double num(json_object *o, const char *key)
{
	json_object *v = field(o, key);

	return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) ?
		       json_object_get_double(v) :
		       0;
}

/* A count: 0 when missing, negative, not finite or out of range (the cast would be undefined). */
static uint64_t u64(json_object *o, const char *key)
{
	json_object *v = field(o, key);
	double d;

	if (v && json_object_is_type(v, json_type_int))
		return json_object_get_int64(v) < 0 ? 0 : json_object_get_uint64(v);
	d = num(o, key);
	return isfinite(d) && d >= 0 && d < 1.8e19 ? (uint64_t)d : 0;
}

/* A duration in seconds: 0 when missing, negative or not finite. */
static double seconds(json_object *o, const char *key)
{
	double d = num(o, key);

	return isfinite(d) && d > 0 ? d : 0;
}

/*
 * JSON values in the line (commas, objects, arrays), so that a line of tiny
 * values ("[1,1,1...]", "{},{}...") is refused before the parser spends tens of
 * bytes on each: a snapshot holds far fewer than one value per 4 bytes.
 */
static bool too_dense(const char *line, size_t len)
{
	size_t values = 0;
	bool in_string = false;

	for (size_t i = 0; i < len; i++) {
		char c = line[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == ',' || c == '{' || c == '[') {
			values++;
		}
	}
	return values > len / 4 + 64;
}

static void str(json_object *o, const char *key, char *dst, size_t size)
{
	json_object *v = field(o, key);

	snprintf(dst, size, "%s", v && json_object_is_type(v, json_type_string) ?
					  json_object_get_string(v) : "");
}

/* The array at key, or NULL; *n its length. */
static json_object *array(json_object *o, const char *key, size_t *n)
{
	json_object *v = field(o, key);

	if (!v || !json_object_is_type(v, json_type_array)) {
		*n = 0;
		return NULL;
	}
	*n = json_object_array_length(v);
	return v;
}

struct pid_row {
	double pid;
	size_t row;
};

static int by_pid_then_row(const void *a, const void *b)
{
	const struct pid_row *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Each process's ring_names, joined from its process_rings rows (sorted by pid once: linear-log). */
static void old_ring_names(struct snapshot *s)
{
	struct table *procs = NULL;
	const struct table *pr = snapshot_table(s, "drm_sched.process_rings");
	struct pid_row *by_pid;
	int col;

	for (size_t i = 0; i < s->ntables; i++)
		if (!strcmp(s->tables[i]->desc->name, "drm_sched.processes"))
			procs = s->tables[i];
	col = procs ? table_col(procs->desc, "ring_names") : -1;
	if (col < 0 || !pr || !pr->nrows)
		return;
	by_pid = calloc(pr->nrows, sizeof(*by_pid));
	if (!by_pid)
		return;
	for (size_t k = 0; k < pr->nrows; k++)
		by_pid[k] = (struct pid_row){ table_num(pr, k, "pid"), k };
	qsort(by_pid, pr->nrows, sizeof(*by_pid), by_pid_then_row);
	for (size_t i = 0; i < procs->nrows; i++) {
		double pid = table_num(procs, i, "pid");
		size_t lo = 0, hi = pr->nrows;
		char names[256] = "";

		if (table_cell(procs, i, (unsigned int)col)->known)
			continue;
		while (lo < hi) { /* the first row of pid */
			size_t mid = lo + (hi - lo) / 2;

			if (by_pid[mid].pid < pid)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k < pr->nrows && by_pid[k].pid == pid; k++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? "," : "", table_str(pr, by_pid[k].row, "name"));
		cell_set_str(table_row(procs, i), (unsigned int)col, names);
	}
	free(by_pid);
}

/* Formats 1 and 2 had each process's rings as an array of its own: they become process_rings rows. */
static int old_process_rings(json_object *procs, struct snapshot *s)
{
	size_t n = procs && json_object_is_type(procs, json_type_array) ?
			   json_object_array_length(procs) : 0;
	json_object *rows = json_object_new_array();
	int rc;

	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(procs, i), *pid, *rings;
		size_t nr;

		pid = field(p, "pid");
		rings = pid ? array(p, "rings", &nr) : NULL;
		for (size_t j = 0; rings && j < nr; j++) {
			json_object *r = json_object_array_get_idx(rings, j);

			if (!json_object_is_type(r, json_type_object))
				continue;
			json_object_object_add(r, "pid", json_object_get(pid));
			json_object_array_add(rows, json_object_get(r));
		}
	}
	rc = table_from_json_rows("drm_sched.process_rings", rows, s);
	json_object_put(rows);
	if (!rc)
		old_ring_names(s);
	return rc;
}

/* One collector: its info (owned by the snapshot) and this tick's detail and drops. */
static int collector_from(json_object *o, struct collector_info *info, struct collector_status *c)
{
	static const char *const states[] = { "attached", "unavailable", "failed" };
	static const char *const tp_states[] = { "attached", "available", "missing", "failed" };
	json_object *tps, *drops;
	char state[32];
	size_t n;

	c->info = info;
	str(o, "name", info->name, sizeof(info->name));
	str(o, "description", info->description, sizeof(info->description));
	str(o, "reason", info->reason, sizeof(info->reason));
	str(o, "fix", info->fix, sizeof(info->fix));
	str(o, "detail", c->detail, sizeof(c->detail));
	str(o, "state", state, sizeof(state));
	info->state = COLLECTOR_FAILED;
	for (unsigned int i = 0; i < 3; i++)
		if (!strcmp(state, states[i]))
			info->state = (enum collector_state)i;
	tps = array(o, "tracepoints", &n);
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(tps, i);
		struct tracepoint_status *tp = collector_info_add_tracepoint(info);

		if (!tp)
			return -1;

		str(t, "group", tp->group, sizeof(tp->group));
		str(t, "event", tp->event, sizeof(tp->event));
		str(t, "note", tp->note, sizeof(tp->note));
		str(t, "state", state, sizeof(state));
		tp->state = TRACEPOINT_FAILED;
		for (unsigned int k = 0; k < 4; k++)
			if (!strcmp(state, tp_states[k]))
				tp->state = (enum tracepoint_state)k;
	}
	drops = field(o, "drops");
	if (drops && json_object_is_type(drops, json_type_object)) {
		json_object_object_foreach(drops, key, val)
		{
			if (collector_status_set_drop(c, key, json_object_get_uint64(val)))
				return -1;
		}
	}
	return 0;
}

static int collectors_from(json_object *root, struct snapshot *s)
{
	size_t n;
	json_object *arr = array(root, "collectors", &n);

	s->infos = calloc(n ? n : 1, sizeof(*s->infos));
	s->collectors = calloc(n ? n : 1, sizeof(*s->collectors));
	if (!s->infos || !s->collectors)
		return -1;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(o, json_type_object))
			continue;
		s->ninfos++;
		s->ncollectors++;
		if (collector_from(o, &s->infos[s->ninfos - 1], &s->collectors[s->ncollectors - 1]))
			return -1;
	}
	return 0;
}

#define ARRAY_FROM(root, key, out, count, fill)                                  \
	do {                                                                     \
		size_t n_;                                                       \
		json_object *arr_ = array(root, key, &n_);                       \
		(out) = calloc(n_ ? n_ : 1, sizeof(*(out)));                     \
		if (!(out))                                                      \
			goto oom;                                                \
		for (size_t i_ = 0; i_ < n_; i_++) {                             \
			json_object *o_ = json_object_array_get_idx(arr_, i_);   \
			if (!json_object_is_type(o_, json_type_object))          \
				continue;                                        \
			if (fill(o_, &(out)[(count)++]))                         \
				goto oom;                                        \
		}                                                                \
	} while (0)

static int device_from(json_object *o, struct device_snap *d)
{
	str(o, "name", d->name, sizeof(d->name));
	str(o, "driver", d->driver, sizeof(d->driver));
	str(o, "bus_id", d->bus_id, sizeof(d->bus_id));
	return 0;
}

struct snapshot *snapshot_from_json(const char *line, char *err, size_t errlen)
{
	enum json_tokener_error jerr;
	size_t len = strlen(line);
	json_object *root, *host;
	struct snapshot *s;
	double ts;
	int rc;

	if (too_dense(line, len)) {
		snprintf(err, errlen, "more values than a line of %zu bytes holds in a snapshot", len);
		return NULL;
	}
	root = json_tokener_parse_verbose(line, &jerr);
	if (!root) {
		snprintf(err, errlen, "not JSON: %s", json_tokener_error_desc(jerr));
		return NULL;
	}
	if (!json_object_is_type(root, json_type_object) || !field(root, "seq") ||
	    (!field(root, "tables") && !field(root, "rings"))) {
		snprintf(err, errlen, "%s", field(root, "error") ?
					   "an error record, not a snapshot" :
					   "not a gputop-bpf snapshot (no \"seq\" or \"tables\")");
		json_object_put(root);
		return NULL;
	}
	if (u64(root, "format") > RECORDING_FORMAT) {
		json_object *v = field(root, "version");

		snprintf(err, errlen,
			 "recording format %llu, made by gputop-bpf %s; this build reads formats 1 to %d: "
			 "replay it with that version or newer",
			 (unsigned long long)u64(root, "format"),
			 v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) :
									 "(unknown)",
			 RECORDING_FORMAT);
		json_object_put(root);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto oom;
	/* what its tables may allocate: 8 bytes per byte of the line, at most */
	s->read_budget = len / 2 + 4096;
	s->seq = u64(root, "seq");
	s->interval_s = seconds(root, "interval_s");
	s->uptime_s = seconds(root, "uptime_s");
	ts = num(root, "timestamp");
	if (isfinite(ts) && ts >= 0 && ts < 1e15) { /* to the millisecond, as written */
		long long ms = llround(ts * 1e3);

		s->wall.tv_sec = (time_t)(ms / 1000);
		s->wall.tv_nsec = (long)(ms % 1000) * 1000000L;
	}
	host = field(root, "host");
	if (host) {
		str(host, "hostname", s->hostname, sizeof(s->hostname));
		str(host, "kernel", s->kernel, sizeof(s->kernel));
	}
	if (collectors_from(root, s))
		goto oom;
	ARRAY_FROM(root, "devices", s->devices, s->ndevices, device_from);
	rc = tables_from_json(field(root, "tables"), s);
	/* Older formats kept some tables in arrays of their own, with the same keys. */
	if (!rc && u64(root, "format") < 2)
		rc = table_from_json_rows("irq.lines", field(root, "interrupts"), s);
	if (!rc && u64(root, "format") < 3)
		rc = table_from_json_rows("drm_sched.rings", field(root, "rings"), s);
	if (!rc && u64(root, "format") < 3)
		rc = table_from_json_rows("drm_sched.processes", field(root, "processes"), s);
	if (!rc && u64(root, "format") < 3)
		rc = old_process_rings(field(root, "processes"), s);
	if (rc == -2) {
		snprintf(err, errlen, "more rows than a line of %zu bytes holds: not a snapshot gputop-bpf wrote", len);
		snapshot_free(s);
		json_object_put(root);
		return NULL;
	}
	if (rc)
		goto oom;
	json_object_put(root);
	return s;
oom:
	snprintf(err, errlen, "out of memory");
	snapshot_free(s);
	json_object_put(root);
	return NULL;
}
