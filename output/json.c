// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A snapshot as one JSON line, all of it through the one writer (json_writer.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/version.h"
#include "output/json.h"
#include "output/json_tables.h"
#include "output/json_writer.h"

static void collector_json(struct jsonw *w, const struct collector_status *c)
{
	const struct collector_info *info = c->info;

	jsonw_object_begin(w);
	jsonw_str_member(w, "name", info->name);
	jsonw_str_member(w, "state", collector_state_name(info->state));
	jsonw_str_member(w, "description", info->description);
	jsonw_str_member(w, "reason", info->reason);
	jsonw_str_member(w, "fix", info->fix);
	jsonw_str_member(w, "detail", c->detail);
	jsonw_key(w, "tracepoints", strlen("tracepoints"));
	jsonw_array_begin(w);
	for (size_t i = 0; i < info->ntracepoints; i++) {
		const struct tracepoint_status *t = &info->tracepoints[i];

		jsonw_object_begin(w);
		jsonw_str_member(w, "group", t->group);
		jsonw_str_member(w, "event", t->event);
		jsonw_str_member(w, "state", tracepoint_state_name(t->state));
		jsonw_str_member(w, "note", t->note);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_key(w, "drops", strlen("drops"));
	jsonw_object_begin(w);
	for (unsigned int i = 0; i < c->ndrops; i++)
		jsonw_u64_member(w, c->drops[i].name, c->drops[i].count);
	jsonw_object_end(w);
	jsonw_object_end(w);
}

static void device_json(struct jsonw *w, const struct device_snap *d)
{
	jsonw_object_begin(w);
	jsonw_str_member(w, "name", d->name);
	jsonw_str_member(w, "driver", d->driver);
	jsonw_str_member(w, "bus_id", d->bus_id);
	jsonw_object_end(w);
}

/* "time" (ISO 8601, UTC) and "timestamp" (seconds): the same millisecond. */
static void put_time(struct jsonw *w, struct timespec wall)
{
	time_t sec = wall.tv_sec;
	long ms = (wall.tv_nsec + 500000) / 1000000;
	char when[64];
	struct tm tm;

	if (ms >= 1000) {
		sec++;
		ms -= 1000;
	}
	if (gmtime_r(&sec, &tm) && strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(when + strlen(when), sizeof(when) - strlen(when), ".%03ldZ", ms);
	else
		snprintf(when, sizeof(when), "-"); /* out of range: never an unset struct tm */
	jsonw_str_member(w, "time", when);
	jsonw_double_member(w, "timestamp", (double)sec + (double)ms / 1e3);
}

/* "empty": { table: its text } for each table without a row, as the batch text and the interface say it. */
static void empty_json(struct jsonw *w, const struct snapshot *s, const struct empty_context *empty)
{
	char text[600];

	jsonw_key(w, "empty", strlen("empty"));
	jsonw_object_begin(w);
	for (size_t i = 0; i < s->ntables; i++)
		if (!s->tables[i]->nrows)
			jsonw_str_member(w, s->tables[i]->desc->name,
					 table_empty_text(s->tables[i]->desc, s->tables[i], empty, text, sizeof(text)));
	jsonw_object_end(w);
}

char *snapshot_to_json(const struct snapshot *s)
{
	return snapshot_to_json_noted(s, NULL);
}

char *snapshot_to_json_noted(const struct snapshot *s, const struct empty_context *empty)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_object_begin(&w);
	jsonw_str_member(&w, "version", GPUTOP_VERSION);
	jsonw_u64_member(&w, "format", RECORDING_FORMAT);
	jsonw_u64_member(&w, "seq", s->seq);
	put_time(&w, s->wall);
	jsonw_double_member(&w, "interval_s", s->interval_s);
	jsonw_double_member(&w, "uptime_s", s->uptime_s);
	jsonw_key(&w, "host", strlen("host"));
	jsonw_object_begin(&w);
	jsonw_str_member(&w, "hostname", s->hostname);
	jsonw_str_member(&w, "kernel", s->kernel);
	jsonw_object_end(&w);
	jsonw_key(&w, "collectors", strlen("collectors"));
	jsonw_array_begin(&w);
	for (size_t i = 0; i < s->ncollectors; i++)
		collector_json(&w, &s->collectors[i]);
	jsonw_array_end(&w);
	jsonw_key(&w, "devices", strlen("devices"));
	jsonw_array_begin(&w);
	for (size_t i = 0; i < s->ndevices; i++)
		device_json(&w, &s->devices[i]);
	jsonw_array_end(&w);
	jsonw_key(&w, "tables", strlen("tables"));
	tables_write_json(&w, s);
	if (empty)
		empty_json(&w, s, empty);
	jsonw_object_end(&w);
	return jsonw_finish(&w);
}

char *collectors_list_json(const struct collector_status *cs, size_t n)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_object_begin(&w);
	jsonw_str_member(&w, "version", GPUTOP_VERSION);
	jsonw_key(&w, "collectors", strlen("collectors"));
	jsonw_array_begin(&w);
	for (size_t i = 0; i < n; i++)
		collector_json(&w, &cs[i]);
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	return jsonw_finish(&w);
}

char *json_error(const char *message)
{
	struct jsonw w;

	jsonw_init(&w);
	jsonw_object_begin(&w);
	jsonw_str_member(&w, "error", message);
	jsonw_object_end(&w);
	return jsonw_finish(&w);
}
