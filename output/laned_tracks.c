// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Tracks of slices known whole, with lanes where they overlap (laned_tracks.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/laned_tracks.h"

void laned_tracks_init(struct laned_tracks *lt, size_t max)
{
	*lt = (struct laned_tracks){ .max = max };
}

void laned_tracks_free(struct laned_tracks *lt)
{
	for (size_t i = 0; i < lt->n; i++)
		free(lt->t[i]);
	free(lt->t);
	laned_tracks_init(lt, lt->max);
}

static struct laned_track *find(struct laned_tracks *lt, const char *key)
{
	if (lt->last < lt->n && !strncmp(lt->t[lt->last]->key, key, LANED_KEY_LEN - 1))
		return lt->t[lt->last];
	for (size_t i = 0; i < lt->n; i++)
		if (!strncmp(lt->t[i]->key, key, LANED_KEY_LEN - 1)) {
			lt->last = i;
			return lt->t[i];
		}
	return NULL;
}

struct laned_track *laned_track_get(struct laned_tracks *lt, struct trace_counters *tc, const char *dev,
				    const char *key, const char *name)
{
	struct laned_track *t = find(lt, key), **grown;
	uint64_t device;

	if (t)
		return t;
	if (lt->n >= lt->max)
		return NULL;
	t = calloc(1, sizeof(*t));
	grown = t ? realloc(lt->t, (lt->n + 1) * sizeof(*lt->t)) : NULL;
	if (!grown) {
		free(t);
		return NULL;
	}
	lt->t = grown;
	snprintf(t->key, sizeof(t->key), "%s", key);
	device = trace_device_track(tc, dev);
	if (!device || !trace_track_ready(tc, t->key, device, name, PERFETTO_TRACK_PLAIN, PERFETTO_UNIT_NONE)) {
		free(t);
		return NULL;
	}
	t->uuid = trace_key_uuid(t->key);
	span_lanes_init(&t->lanes);
	lt->last = lt->n;
	lt->t[lt->n++] = t;
	return t;
}

uint64_t laned_track_lane(struct trace_counters *tc, struct laned_track *t, uint64_t start, uint64_t end)
{
	int lane = span_lanes_fit(&t->lanes, start, end);

	if (lane < 0)
		return 0;
	if (!t->lanes.described[lane]) {
		if (perfetto_lane_track(&tc->w, t->uuid, lane))
			return 0;
		t->lanes.described[lane] = 1;
	}
	return perfetto_lane_uuid(t->uuid, lane);
}
