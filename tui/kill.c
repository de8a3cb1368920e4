// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Signalling a process from the interface, as htop and nvitop do: F9 or K on
 * any row that names a process opens a menu of signals (TERM first); Enter
 * asks to confirm, naming the process and the signal; y sends it with the
 * monitor's own rights and says what came of it. Never in a replay: those
 * processes are not on this machine.
 */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tui/draw.h"

static const struct {
	int sig;
	const char *name, *what;
} signals[] = {
	{ SIGTERM, "TERM", "ask it to end (it may clean up)" },
	{ SIGKILL, "KILL", "end it at once" },
	{ SIGINT, "INT", "interrupt, as Ctrl-C does" },
	{ SIGHUP, "HUP", "hang up (many daemons reload)" },
	{ SIGSTOP, "STOP", "pause it" },
	{ SIGCONT, "CONT", "resume it after STOP" },
};
#define NSIGNALS (int)(sizeof(signals) / sizeof(signals[0]))

void kill_menu_open(struct view *v)
{
	const struct table *t;
	long row = view_selected_row(v, &t);
	double pid = row >= 0 ? table_num(t, (size_t)row, "pid") : NAN;

	if (v->feed->replay) {
		view_message(v, true, "no signals in a replay: its processes are not on this machine");
		return;
	}
	if (isnan(pid)) {
		view_message(v, true, "no process selected: F9 acts on a row with a PID (a process table)");
		return;
	}
	if (pid <= 1 || (pid_t)pid == getpid()) {
		view_message(v, true, "PID %.0f is %s: not signalled from here", pid,
			     pid <= 1 ? "init or none" : "gputop-bpf itself (q quits)");
		return;
	}
	v->kill.pid = (long)pid;
	snprintf(v->kill.comm, sizeof(v->kill.comm), "%s", table_str(t, (size_t)row, "comm"));
	v->kill.sel = 0;
	v->kill.confirm = false;
	v->overlay = OVERLAY_KILL;
}

static void send_signal(struct view *v)
{
	int sig = signals[v->kill.sel].sig;

	if (!kill((pid_t)v->kill.pid, sig)) {
		view_message(v, false, "SIG%s sent to %ld (%s)", signals[v->kill.sel].name, v->kill.pid, v->kill.comm);
		return;
	}
	if (errno == ESRCH)
		view_message(v, true, "%ld (%s) is gone: nothing sent", v->kill.pid, v->kill.comm);
	else if (errno == EPERM)
		view_message(v, true, "not allowed to signal %ld (%s): another user's process; run gputop-bpf as that user or root",
			     v->kill.pid, v->kill.comm);
	else
		view_message(v, true, "SIG%s to %ld failed: %s", signals[v->kill.sel].name, v->kill.pid, strerror(errno));
}

void kill_menu_key(struct view *v, int key)
{
	if (v->kill.confirm) { /* y sends; any other key cancels */
		v->overlay = OVERLAY_NONE;
		if (key == 'y' || key == 'Y')
			send_signal(v);
		else
			view_message(v, false, "nothing sent");
		return;
	}
	if (key == KEY_UP)
		v->kill.sel = v->kill.sel > 0 ? v->kill.sel - 1 : 0;
	else if (key == KEY_DOWN)
		v->kill.sel = v->kill.sel + 1 < NSIGNALS ? v->kill.sel + 1 : NSIGNALS - 1;
	else if (key == '\n' || key == KEY_ENTER)
		v->kill.confirm = true;
	else if (key == KEY_ESC || key == 'q' || key == KEY_F(9))
		v->overlay = OVERLAY_NONE;
}

void draw_kill_menu(struct view *v)
{
	struct rect in;
	char title[64];

	snprintf(title, sizeof(title), "Signal %ld", v->kill.pid);
	in = popup(NSIGNALS + 4, 56, title, v->utf8);
	putf(in.y, in.x + 1, in.w - 2, ROLE_VALUE, "%ld %s", v->kill.pid, v->kill.comm);
	for (int i = 0; i < NSIGNALS && i + 1 < in.h; i++)
		putf(in.y + 1 + i, in.x + 1, in.w - 2, i == v->kill.sel ? ROLE_SELECTED : ROLE_NORMAL, "%2d %-5s %s",
		     signals[i].sig, signals[i].name, signals[i].what);
	if (in.h <= NSIGNALS + 1)
		return;
	if (v->kill.confirm)
		putf(in.y + NSIGNALS + 1, in.x + 1, in.w - 2, ROLE_WARNING, "SIG%s to %ld? y sends, other keys cancel",
		     signals[v->kill.sel].name, v->kill.pid);
	else
		put(in.y + NSIGNALS + 1, in.x + 1, in.w - 2, ROLE_DIM, "Enter chooses, Esc cancels");
}
