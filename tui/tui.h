/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The interactive curses interface: the only code that includes curses. */
#ifndef GPUTOP_TUI_H
#define GPUTOP_TUI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/feed.h"

/*
 * A capture the interface starts (key T), given by src/: start begins one of
 * the next seconds into a new file (msg: which, or why not: false); add takes
 * each snapshot the interface takes while one runs (msg: its progress, or once
 * it is over what it wrote, or that writing failed (*failed): false then, it is
 * closed).
 */
struct tui_capture {
	bool (*start)(void *impl, char *msg, size_t len);
	bool (*add)(void *impl, const struct snapshot *s, char *msg, size_t len, bool *failed);
	void *impl;
};

/*
 * Stacks started live (key c), given by src/: start opens the stack capture
 * (msg: what was started and what was not, and why; false: nothing was).
 */
struct tui_stacks_key {
	bool (*start)(void *impl, char *msg, size_t len);
	void *impl;
};

struct tui_settings {
	double delay_s;
	bool delay_given; /* -d given: it wins over the config file */
	const char *theme; /* --theme, or NULL: the config file's, else default */
	bool no_color; /* -C or NO_COLOR */
	uint32_t pid; /* -p: only this process's rows (0: all), for the empty tables to say so */
	const char *notice; /* NULL, or a line for the status line at the start (-p of a PID not running) */
	volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM */
	const struct tui_capture *capture; /* NULL: none here (the key says so) */
	const struct tui_stacks_key *stacks_key; /* c: NULL: none here (the key says so) */
	const char *record; /* --record's file, or NULL: the header says it records */
};

/* Runs until q, F10 or a stop signal; restores the terminal. 0, or -1 if curses failed. */
int tui_run(const struct feed *feed, const struct tui_settings *ts);

#endif
