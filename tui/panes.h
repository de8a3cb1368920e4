/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Pane declarations: which collector tables a screen shows, in which order,
 * and what the main screen's side pane summarises. A collector's pane is one
 * declaration in a file of its own (pane_display.c); the screens, the table
 * widget and the keys are shared by all.
 */
#ifndef GPUTOP_PANES_H
#define GPUTOP_PANES_H

#include <stdbool.h>

#define PANE_MAX_TABLES 7
#define PANE_MAX_SUMMARY 5

struct view;
struct rect;
struct table;

/*
 * A table's own drill-down, drawn over the screen while it is open: row is the
 * opened row in the current snapshot, or -1 when it is no longer there.
 */
typedef void (*pane_drill_fn)(struct view *v, const struct table *t, long row, struct rect area);

enum side_pane { SIDE_MEMORY, SIDE_INTERRUPTS, SIDE_DISPLAY, SIDE_COUNT, SIDE_NONE = -1 };

struct pane_decl {
	const char *collector; /* whose state the pane shows */
	/*
	 * Its place among the screens (keys 1 to 9 and Tab in this order; the
	 * overview's is 0), or -1: a side pane only. Places need not be consecutive.
	 */
	int screen;
	const char *title; /* the screen's name in the pane line and its title */
	const char *what; /* what it shows, for when its collector is not available */
	const char *tables[PANE_MAX_TABLES]; /* table names, top to bottom; NULL ends */
	const char *grouped[PANE_MAX_TABLES]; /* shown instead while grouped ('g'), or NULL */
	pane_drill_fn drill[PANE_MAX_TABLES]; /* Enter on a row: this, or NULL for the row view */
	int side; /* enum side_pane it fills on the main screen, or SIDE_NONE */
	const char *summary_table; /* the table the side pane lists */
	const char *summary_cols[PANE_MAX_SUMMARY]; /* its columns (keys), NULL ends */
	/*
	 * Shown instead of tables[] while the pane's collector is not attached and instead[0] has rows (the
	 * Memory screen: NVML's memory per GPU and per process where no DRM memory source is); the screen's
	 * first line then says what is absent: "<instead_absent>: <the collector's reason>".
	 */
	const char *instead[PANE_MAX_TABLES];
	const char *instead_absent;
	/* rows 0 in this column (NULL: none) are counted, not listed: "+N <summary_quiet_text>" */
	const char *summary_quiet_col, *summary_quiet_text;
};

#define PANE_REGISTER(decl)                                                                 \
	static const struct pane_decl *const pane_reg_##decl                               \
		__attribute__((used, section("gputop_panes"), aligned(sizeof(void *)))) = &decl

#define SCREEN_MAIN 0 /* the overview */
#define SCREEN_MAX 10 /* screens at most: keys 1 to 9, and room */

/* The pane of screen index i (0: the overview, 1 ...: by their declared places), or NULL. */
const struct pane_decl *pane_for_screen(int i);
/* How many screens there are. */
int pane_screen_count(void);
/* The screen index of pane p, or -1 (a side pane only). */
int pane_screen_index(const struct pane_decl *p);
const struct pane_decl *pane_for_side(int side);
/* A side pane's box title: "MEMORY", "INTERRUPTS", "DISPLAY" (enum side_pane). */
const char *side_title(int side);
/* The name of the pane's i-th table (its grouped alternative while grouped), NULL past the last. */
const char *pane_table_name(const struct pane_decl *p, int i, bool grouped);
/* Whether any table of the pane has a grouped alternative. */
bool pane_can_group(const struct pane_decl *p);

#endif
