/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The Overview fitted to the machine: a pane whose source this machine does not
 * have (no DRM scheduler, no display driver, no GPU memory source, no GPU
 * interrupt that ever fired) gives its rows up, and one line names them all.
 * A source missing for lack of privilege is not absent: its pane says why.
 */
#ifndef GPUTOP_OVERVIEW_FIT_H
#define GPUTOP_OVERVIEW_FIT_H

#include <stdbool.h>
#include "tui/config.h"

struct view;
struct rect;

#define OVERVIEW_ABSENT_MAX 4

struct overview_fit {
	bool absent[PANE_COUNT];
	int n; /* items in what[] */
	const char *what[OVERVIEW_ABSENT_MAX]; /* "DRM scheduler rings", ...: static or in buf */
	char buf[64];
	int nroom; /* side panes shown but given no rows by the layout: no_room[] */
	const char *no_room[3];
};

struct layout;

void overview_fit(const struct view *v, struct overview_fit *f);
/* The side panes shown (panes[]) that layout l gave no rows, into f; how many. */
int overview_fit_no_room(struct overview_fit *f, const bool *panes, const struct layout *l);
/* The one line: "Not on this machine: A, B, C (why: gputop-bpf --list)", whole items, "+N" for the rest. */
void overview_fit_draw(const struct view *v, const struct overview_fit *f, struct rect r);
/* Whether the MEMORY side pane shows NVML's memory (no DRM memory source, NVML's GPUs known). */
bool overview_nvml_memory(const struct view *v);

#endif
