/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The interface's settings file, $XDG_CONFIG_HOME/gputop-bpf/config (else
 * ~/.config/gputop-bpf/config): "key = value" lines, # comments. Saved with W.
 */
#ifndef GPUTOP_CONFIG_H
#define GPUTOP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

enum pane {
	PANE_DEVICES, PANE_RINGS, PANE_MEMORY, PANE_INTERRUPTS, PANE_DISPLAY, PANE_PROCESSES,
	PANE_COUNT,
};

struct tui_prefs {
	char theme[512]; /* a built-in theme's name or a file */
	double delay_s;
	char ring_sort[48]; /* a column key of drm_sched.rings */
	char proc_sort[48]; /* a column key of gpu.processes */
	bool reverse, proc_reverse; /* the rings, the processes in reverse order */
	bool vi_keys; /* j and k move (else k signals, as in htop) */
	bool panes[PANE_COUNT]; /* visible panes */
	char hidden_cols[1024]; /* columns the user hid (F2): "table.column,...", never a key column */
};

void prefs_defaults(struct tui_prefs *p);
/* The config file's path; false when neither XDG_CONFIG_HOME nor HOME is set, or it is too long. */
bool prefs_path(char *buf, size_t size);
/*
 * Reads settings from text over p. Bad lines are skipped; the first is described
 * in err as "FILE:LINE: ..."; returns how many were bad.
 */
int prefs_parse(const char *text, const char *filename, struct tui_prefs *p, char *err,
		size_t errlen);
/* Loads the file if it exists (0 when absent); as prefs_parse, or -1 if unreadable. */
int prefs_load(const char *path, struct tui_prefs *p, char *err, size_t errlen);
/* Writes p to path, creating its folder; 0 or -errno. */
int prefs_save(const char *path, const struct tui_prefs *p);
const char *pane_name(enum pane pane);
/* Whether "table.column" is in the hidden list. */
bool prefs_col_hidden(const struct tui_prefs *p, const char *table, const char *col);
/* Hides the column or shows it again; false when the list has no room or it is a key column. */
bool prefs_col_toggle(struct tui_prefs *p, const char *table, const char *col);

#endif
