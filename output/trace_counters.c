// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Snapshots' counters as Perfetto counter tracks (trace_counters.h). */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "output/trace_counters.h"

static const struct trace_series series[] = {
	{ "memory.devices", "dev", "region", "total_bytes", "bytes" },
	{ "memory.devices", "dev", "region", "used_bytes", "used bytes" },
	{ "sensors.gpus", "dev", NULL, "busy_pct", "busy %" },
	{ "sensors.gpus", "dev", NULL, "temp_c", "temperature °C" },
	{ "sensors.gpus", "dev", NULL, "temp_hotspot_c", "hotspot °C" },
	{ "sensors.gpus", "dev", NULL, "temp_mem_c", "memory temperature °C" },
	{ "sensors.gpus", "dev", NULL, "gfx_mhz", "gfx clock MHz" },
	{ "sensors.gpus", "dev", NULL, "mem_mhz", "memory clock MHz" },
	{ "sensors.gpus", "dev", NULL, "power_w", "power W" },
	{ "sensors.engines", "dev", "engine", "busy_pct", "busy %" },
	{ "memory.device_engines", "dev", "class", "busy_pct", "busy %" },
	{ "drm_sched.rings", "dev", "name", "queue_depth", "queue depth" },
	{ "drm_sched.rings", "dev", "name", "in_flight", "jobs in flight" },
	{ "drm_sched.rings", "dev", "name", "busy_pct", "busy %" },
	{ "nvidia.gpus", "bus_id", NULL, "mem_used_bytes", "memory used bytes" },
	{ "nvidia.gpus", "bus_id", NULL, "util_pct", "busy %" },
	{ "nvidia.gpus", "bus_id", NULL, "temp_c", "temperature °C" },
	{ "nvidia.gpus", "bus_id", NULL, "gfx_mhz", "gfx clock MHz" },
	{ "nvidia.gpus", "bus_id", NULL, "mem_mhz", "memory clock MHz" },
	{ "nvidia.gpus", "bus_id", NULL, "power_w", "power W" },
};

const struct trace_series *trace_series_list(size_t *n)
{
	*n = sizeof(series) / sizeof(series[0]);
	return series;
}

int trace_counters_init(struct trace_counters *tc, FILE *out, uint64_t limit_bytes)
{
	int err;

	memset(tc, 0, sizeof(*tc));
	err = perfetto_writer_init(&tc->w, out, limit_bytes);
	if (err)
		return err;
	if (perfetto_intern_init(&tc->described)) {
		perfetto_writer_finish(&tc->w);
		return -ENOMEM;
	}
	return 0;
}

uint64_t trace_key_uuid(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 0x100000001b3ULL;
	return h ? h : 1;
}

uint64_t trace_device_track(struct trace_counters *tc, const char *dev)
{
	char key[PERFETTO_STR_MAX], name[PERFETTO_STR_MAX];

	snprintf(key, sizeof(key), "gpu\x1f%s", dev);
	snprintf(name, sizeof(name), "GPU %s", dev);
	if (!trace_track_ready(tc, key, 0, name, PERFETTO_TRACK_PLAIN, PERFETTO_UNIT_NONE))
		return 0;
	return trace_key_uuid(key);
}

/* A cell's text: a name as it is, a number in decimal; "-" when unknown. */
static void cell_label(const struct table *t, size_t row, const char *col, char *buf, size_t size)
{
	double v = table_num(t, row, col);

	if (!isnan(v))
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%s", *table_str(t, row, col) ? table_str(t, row, col) : "-");
}

/* The track t (its uuid key's) described the first time; false when it could not be. */
static bool track_ready(struct trace_counters *tc, const char *key, const struct perfetto_track *t)
{
	if (perfetto_intern_find(&tc->described, key))
		return true;
	if (perfetto_intern_next(&tc->described, 0) == 0) {
		perfetto_count_dropped(&tc->w, 1); /* more tracks than it keeps */
		return false;
	}
	return !perfetto_track(&tc->w, t) && perfetto_intern_add(&tc->described, key);
}

bool trace_track_ready(struct trace_counters *tc, const char *key, uint64_t parent,
		       const char *name, enum perfetto_track_kind kind, enum perfetto_unit unit)
{
	struct perfetto_track t = {
		.uuid = trace_key_uuid(key),
		.parent_uuid = parent,
		.kind = kind,
		.name = name,
		.unit = unit,
	};

	return track_ready(tc, key, &t);
}

uint64_t trace_process_track(struct trace_counters *tc, uint32_t pid, const char *comm)
{
	char key[32];
	struct perfetto_track t = { .kind = PERFETTO_TRACK_PROCESS, .pid = (int32_t)pid };

	snprintf(key, sizeof(key), "proc\x1f%u", pid);
	t.uuid = trace_key_uuid(key);
	t.name = comm && *comm ? comm : NULL;
	return track_ready(tc, key, &t) ? t.uuid : 0;
}

uint64_t trace_thread_track(struct trace_counters *tc, uint32_t pid, uint32_t tid,
			    const char *comm, const char *thread)
{
	char key[48];
	struct perfetto_track t = { .kind = PERFETTO_TRACK_THREAD, .pid = (int32_t)pid,
				    .tid = (int32_t)tid };

	t.parent_uuid = trace_process_track(tc, pid, comm);
	if (!t.parent_uuid)
		return 0;
	snprintf(key, sizeof(key), "thread\x1f%u\x1f%u", pid, tid);
	t.uuid = trace_key_uuid(key);
	t.name = thread && *thread ? thread : NULL;
	return track_ready(tc, key, &t) ? t.uuid : 0;
}

/* One row's value of one series: the device's track, the series' track, the sample. */
static int row_sample(struct trace_counters *tc, const struct trace_series *se,
		      const struct table *t, size_t row, uint64_t ts_ns)
{
	int col = table_col(t->desc, se->col);
	double v = col < 0 ? NAN : cell_number(t->desc, table_row(t, row), (unsigned int)col);
	char group[PERFETTO_STR_MAX / 2], part[PERFETTO_STR_MAX / 2];
	char key[3 * PERFETTO_STR_MAX], name[PERFETTO_STR_MAX];
	enum perfetto_unit unit;
	uint64_t device;
	int err;

	if (isnan(v))
		return 0; /* unknown: no sample */
	cell_label(t, row, se->group, group, sizeof(group));
	device = trace_device_track(tc, group);
	if (!device)
		return 0;
	part[0] = '\0';
	if (se->part)
		cell_label(t, row, se->part, part, sizeof(part));
	snprintf(key, sizeof(key), "%s\x1f%s\x1f%s\x1f%s", se->table, group, part, se->col);
	snprintf(name, sizeof(name), "%s%s%s", part, *part ? " " : "", se->label);
	unit = t->desc->cols[col].unit == UNIT_BYTES || t->desc->cols[col].unit == UNIT_BYTES_PER_S ?
		       PERFETTO_UNIT_BYTES :
		       PERFETTO_UNIT_NONE;
	if (!trace_track_ready(tc, key, device, name, PERFETTO_TRACK_COUNTER, unit))
		return 0;
	if (t->desc->cols[col].type == COL_F64)
		err = perfetto_counter_double(&tc->w, ts_ns, trace_key_uuid(key), v);
	else
		err = perfetto_counter(&tc->w, ts_ns, trace_key_uuid(key),
				       (int64_t)table_row(t, row)[col].u);
	tc->samples += !err;
	return err == -EIO ? err : 0;
}

int trace_counters_add(struct trace_counters *tc, const struct snapshot *s)
{
	uint64_t ts_ns = (uint64_t)s->wall.tv_sec * 1000000000ULL + (uint64_t)s->wall.tv_nsec;

	for (size_t i = 0; i < sizeof(series) / sizeof(series[0]); i++) {
		const struct table *t = snapshot_table(s, series[i].table);

		for (size_t r = 0; t && r < t->nrows; r++)
			if (row_sample(tc, &series[i], t, r, ts_ns))
				return -EIO;
	}
	return 0;
}

int trace_counters_finish(struct trace_counters *tc)
{
	perfetto_intern_free(&tc->described);
	trace_stacks_free(&tc->stacks);
	return perfetto_writer_finish(&tc->w);
}
