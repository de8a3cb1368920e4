// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stddef.h>
#include "panes.h"

extern const struct pane_decl *const __start_gputop_panes[] __attribute__((weak));
extern const struct pane_decl *const __stop_gputop_panes[] __attribute__((weak));

static const struct pane_decl *find(int screen, int side)
{
	if (!__start_gputop_panes)
		return NULL;
	for (const struct pane_decl *const *p = __start_gputop_panes; p < __stop_gputop_panes; p++)
		if ((screen >= 0 && (*p)->screen == screen) || (side >= 0 && (*p)->side == side))
			return *p;
	return NULL;
}

const struct pane_decl *pane_for_screen(int screen)
{
	return find(screen, -1);
}

const struct pane_decl *pane_for_side(int side)
{
	return find(-1, side);
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
