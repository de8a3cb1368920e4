/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The display collector's tables: columns described once (model/table.h). */
#ifndef GPUTOP_DISPLAY_TABLES_H
#define GPUTOP_DISPLAY_TABLES_H

#include <stdint.h>
#include "bpf/display.h"
#include "model/table.h"

enum crtc_col {
	CRTC_ID, CRTC_DEV, CRTC_HZ, CRTC_VBL_PER_S, CRTC_INT_MEAN, CRTC_INT_P50, CRTC_INT_P99, CRTC_INT_MAX,
	CRTC_JITTER, CRTC_GAPS, CRTC_GAPS_PER_S, CRTC_VBLANKS, CRTC_RESTARTS, CRTC_COLS,
};

enum client_col {
	CLIENT_PID, CLIENT_COMM, CLIENT_DEV, CLIENT_CRTC, CLIENT_ID, CLIENT_PER_S, CLIENT_MISSED,
	CLIENT_MISSED_PER_S, CLIENT_INT_P50, CLIENT_INT_P99, CLIENT_LAT_P50, CLIENT_LAT_P99,
	CLIENT_WAIT_P50, CLIENT_WAIT_P99, CLIENT_DELIVERED, CLIENT_QUEUED, CLIENT_COLS,
};

extern const struct table_desc display_crtcs;
extern const struct table_desc display_clients;

/* A DRM minor's node name: card0, renderD128, minor200; "-" when unknown (< 0). */
void display_dev_name(int minor, char *buf, size_t size);
/* A display.crtcs row; minor: the device its clients name (< 0: unknown or several). */
void display_crtc_row(struct cell *row, unsigned int crtc, int minor, const struct crtc_stats *now,
		      const struct crtc_stats *before, double interval_s);
/* A display.clients row; id numbers the clients in the order they appeared. */
void display_client_row(struct cell *row, const struct client_key *k, uint64_t id, const char *comm,
			const struct client_stats *now, const struct client_stats *before,
			double interval_s);

#endif
