// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Keys that htop and nvtop users know and gputop-bpf does not have: each says
 * on the status line what to use instead, not "no such key". The keys that map
 * onto a feature here are bound to it (input.c: Z pauses, I reverses, \ filters,
 * F12 saves, N sorts by PID, F5 the tree).
 */
#include <curses.h>
#include <stddef.h>
#include "tui/view.h"

static const struct {
	int key;
	const char *hint;
} habits[] = {
	{ KEY_F(7), "F7 (htop: nice -): not in gputop-bpf; use renice -n N -p PID" },
	{ KEY_F(8), "F8 (htop: nice +): not in gputop-bpf; use renice -n N -p PID" },
	{ 'u', "u (htop: one user's processes): not in gputop-bpf; use / to filter by command, container or PID" },
	{ 'H', "H (htop: user threads): not in gputop-bpf, whose rows are processes; use htop for threads" },
	{ 'K',
	  "K (htop: kernel threads): not in gputop-bpf, which lists processes using a GPU; use k or F9 to signal one" },
	{ 'F', "F (htop: follow a process): not in gputop-bpf; use Enter: the process's pane follows it" },
	{ 'l', "l (htop: open files): not in gputop-bpf; use lsof -p PID" },
	{ 'a', "a (htop: CPU affinity): not in gputop-bpf; use taskset -p PID" },
	{ 'i', "i (htop: I/O priority): not in gputop-bpf; use ionice -p PID" },
};

const char *habit_hint(int key)
{
	for (size_t i = 0; i < sizeof(habits) / sizeof(habits[0]); i++)
		if (habits[i].key == key)
			return habits[i].hint;
	return NULL;
}
