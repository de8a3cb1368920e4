// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "core/version.h"
#include "output/json.h"
#include "output/json_tables.h"

static void put_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

static void put_u64(json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static void put_dbl(json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, json_object_new_double(v));
}

static json_object *collector_json(const struct collector_status *c)
{
	json_object *o = json_object_new_object(), *tps = json_object_new_array(),
		    *drops = json_object_new_object();
	const struct collector_info *info = c->info;

	put_str(o, "name", info->name);
	put_str(o, "state", collector_state_name(info->state));
	put_str(o, "description", info->description);
	put_str(o, "reason", info->reason);
	put_str(o, "fix", info->fix);
	put_str(o, "detail", c->detail);
	for (size_t i = 0; i < info->ntracepoints; i++) {
		const struct tracepoint_status *t = &info->tracepoints[i];
		json_object *tp = json_object_new_object();

		put_str(tp, "group", t->group);
		put_str(tp, "event", t->event);
		put_str(tp, "state", tracepoint_state_name(t->state));
		put_str(tp, "note", t->note);
		json_object_array_add(tps, tp);
	}
	json_object_object_add(o, "tracepoints", tps);
	for (unsigned int i = 0; i < c->ndrops; i++)
		put_u64(drops, c->drops[i].name, c->drops[i].count);
	json_object_object_add(o, "drops", drops);
	return o;
}

static json_object *device_json(const struct device_snap *d)
{
	json_object *o = json_object_new_object();

	put_str(o, "name", d->name);
	put_str(o, "driver", d->driver);
	put_str(o, "bus_id", d->bus_id);
	return o;
}

#define ADD_ARRAY(root, key, items, n, fn)                                      \
	do {                                                                    \
		json_object *arr_ = json_object_new_array();                    \
		for (size_t i_ = 0; i_ < (n); i_++)                             \
			json_object_array_add(arr_, fn);                        \
		json_object_object_add(root, key, arr_);                        \
		(void)(items);                                                  \
	} while (0)

static char *to_line(json_object *root)
{
	const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
									JSON_C_TO_STRING_NOSLASHESCAPE);
	char *line = text ? strdup(text) : NULL;

	json_object_put(root);
	return line;
}

/* head (an object, "{...}") with "tables": tables as its last member; NULL if either is. Frees both. */
static char *with_tables(char *head, char *tables)
{
	size_t hlen = head ? strlen(head) : 0, tlen = tables ? strlen(tables) : 0;
	char *line = hlen > 2 && tables ? malloc(hlen + tlen + 12) : NULL;

	if (line) {
		memcpy(line, head, hlen - 1); /* without its closing brace */
		memcpy(line + hlen - 1, ",\"tables\":", 10);
		memcpy(line + hlen + 9, tables, tlen);
		memcpy(line + hlen + 9 + tlen, "}", 2);
	}
	free(head);
	free(tables);
	return line;
}

/* Shortest faithful doubles, not 17 digits of noise; set once, for every thread. */
static void set_double_format(void)
{
	json_c_set_serialization_double_format("%.15g", JSON_C_OPTION_GLOBAL);
}

char *snapshot_to_json(const struct snapshot *s)
{
	static pthread_once_t format_once = PTHREAD_ONCE_INIT;
	json_object *root = json_object_new_object(), *host = json_object_new_object();
	char when[64];
	struct tm tm;

	time_t sec = s->wall.tv_sec;
	long ms = (s->wall.tv_nsec + 500000) / 1000000; /* to the millisecond, both "time" and "timestamp" */

	pthread_once(&format_once, set_double_format);
	if (ms >= 1000) {
		sec++;
		ms -= 1000;
	}
	if (gmtime_r(&sec, &tm) && strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(when + strlen(when), sizeof(when) - strlen(when), ".%03ldZ", ms);
	else
		snprintf(when, sizeof(when), "-"); /* out of range: never an unset struct tm */
	put_str(root, "version", GPUTOP_VERSION);
	put_u64(root, "format", RECORDING_FORMAT);
	put_u64(root, "seq", s->seq);
	put_str(root, "time", when);
	put_dbl(root, "timestamp", (double)sec + (double)ms / 1e3); /* the same millisecond as "time" */
	put_dbl(root, "interval_s", s->interval_s);
	put_dbl(root, "uptime_s", s->uptime_s);
	put_str(host, "hostname", s->hostname);
	put_str(host, "kernel", s->kernel);
	json_object_object_add(root, "host", host);
	ADD_ARRAY(root, "collectors", s->collectors, s->ncollectors,
		  collector_json(&s->collectors[i_]));
	ADD_ARRAY(root, "devices", s->devices, s->ndevices, device_json(&s->devices[i_]));
	return with_tables(to_line(root), tables_to_json(s));
}

char *json_error(const char *message)
{
	json_object *root = json_object_new_object();

	put_str(root, "error", message);
	return to_line(root);
}
