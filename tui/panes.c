// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <pthread.h>
#include <stdlib.h>
#include <stddef.h>
#include "tui/panes.h"

extern const struct pane_decl *const __start_gputop_panes[] __attribute__((weak));
extern const struct pane_decl *const __stop_gputop_panes[] __attribute__((weak));

/* The panes that have a screen, in the order of their places. */
static const struct pane_decl *screens[SCREEN_MAX];
static int nscreens;

static int by_place(const void *a, const void *b)
{
	const struct pane_decl *x = *(const struct pane_decl *const *)a;
	const struct pane_decl *y = *(const struct pane_decl *const *)b;

	return (x->screen > y->screen) - (x->screen < y->screen);
}

static void collect_screens(void)
{
	for (const struct pane_decl *const *p = __start_gputop_panes;
	     __start_gputop_panes && p < __stop_gputop_panes && nscreens < SCREEN_MAX; p++)
		if ((*p)->screen >= 0)
			screens[nscreens++] = *p;
	qsort(screens, (size_t)nscreens, sizeof(screens[0]), by_place);
}

int pane_screen_count(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, collect_screens);
	return nscreens;
}

const struct pane_decl *pane_for_screen(int i)
{
	return i >= 0 && i < pane_screen_count() ? screens[i] : NULL;
}

int pane_screen_index(const struct pane_decl *p)
{
	for (int i = 0; i < pane_screen_count(); i++)
		if (screens[i] == p)
			return i;
	return -1;
}

const struct pane_decl *pane_for_side(int side)
{
	for (const struct pane_decl *const *p = __start_gputop_panes;
	     __start_gputop_panes && p < __stop_gputop_panes; p++)
		if (side >= 0 && (*p)->side == side)
			return *p;
	return NULL;
}

const char *side_title(int side)
{
	static const char *const titles[SIDE_COUNT] = { "MEMORY", "INTERRUPTS", "DISPLAY" };

	return side >= 0 && side < SIDE_COUNT ? titles[side] : "";
}

const char *pane_table_name(const struct pane_decl *p, int i, bool grouped)
{
	if (!p || i < 0 || i >= PANE_MAX_TABLES || !p->tables[i])
		return NULL;
	return grouped && p->grouped[i] ? p->grouped[i] : p->tables[i];
}

bool pane_can_group(const struct pane_decl *p)
{
	for (int i = 0; p && i < PANE_MAX_TABLES; i++)
		if (p->grouped[i])
			return true;
	return false;
}
