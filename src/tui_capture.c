// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core/privileges.h"
#include "src/tui_capture.h"

/* A new file named by the time (-2 ... -9 after it when taken), opened as the user; never over one. */
static FILE *new_file(struct tui_capturer *t)
{
	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;
	FILE *f = NULL;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (int i = 1; i < 10 && !f; i++) {
		snprintf(t->path, sizeof(t->path), "gputop-bpf-%s%s%.0d.pftrace", stamp, i > 1 ? "-" : "",
			 i > 1 ? i : 0);
		f = privileges_fopen_as_user(t->path, "wbx");
		if (!f && errno != EEXIST)
			break;
	}
	return f;
}

static bool start(void *impl, char *msg, size_t len)
{
	struct tui_capturer *t = impl;
	FILE *f;
	int err;

	if (t->cap) {
		snprintf(msg, len, "a capture runs already");
		return false;
	}
	f = new_file(t);
	if (!f) {
		snprintf(msg, len, "cannot create %s: %s", t->path, strerror(errno));
		return false;
	}
	t->cap = capture_open(f, t->limit_bytes, &err);
	if (!t->cap) {
		snprintf(msg, len, "cannot start a capture: %s", strerror(-err));
		fclose(f);
		return false;
	}
	capture_route(t->cap);
	t->start_s = -1;
	t->ending = false;
	snprintf(msg, len, "capturing %.0f s of %s to %s", TUI_CAPTURE_SECONDS, t->what, t->path);
	return true;
}

/* The capture closed: what it wrote, or that it failed, in msg. */
static void finish(struct tui_capturer *t, char *msg, size_t len, bool *failed)
{
	struct capture_stats st;
	int err;

	capture_route(NULL);
	err = capture_close(t->cap, &st);
	t->cap = NULL;
	*failed = err != 0 || !st.bytes;
	if (err) {
		snprintf(msg, len, "writing the capture %s failed: %s", t->path, strerror(-err));
	} else if (!st.bytes) { /* an empty file is no trace */
		privileges_unlink_as_user(t->path);
		snprintf(
			msg, len,
			"capture: nothing to record in %.0f s (no counters, jobs, display events or GPU calls): no file written",
			TUI_CAPTURE_SECONDS);
	} else {
		uint64_t lost = st.jobs_lost + st.marks_lost + st.calls_lost + st.cuda_lost;
		int n = snprintf(msg, len,
				 "capture written: %s: %llu samples, %llu jobs, %llu display events, %llu bytes",
				 t->path, (unsigned long long)st.samples, (unsigned long long)st.jobs,
				 (unsigned long long)(st.vblanks + st.deliveries), (unsigned long long)st.bytes);

		if (lost && n > 0 && (size_t)n < len)
			n += snprintf(msg + n, len - (size_t)n, "; %llu events lost (full buffers)",
				      (unsigned long long)lost);
		if (st.over_limit && n > 0 && (size_t)n < len)
			snprintf(msg + n, len - (size_t)n, "; %llu events over the size limit",
				 (unsigned long long)st.over_limit);
	}
}

static bool add(void *impl, const struct snapshot *s, char *msg, size_t len, bool *failed)
{
	struct tui_capturer *t = impl;
	struct capture_stats st;
	double took;

	if (!t->cap)
		return false;
	if (t->ending) { /* this tick's drains took what came up to the end */
		finish(t, msg, len, failed);
		return false;
	}
	if (t->start_s < 0)
		t->start_s = s->uptime_s - s->interval_s;
	took = s->uptime_s - t->start_s;
	if (!capture_add(t->cap, s)) {
		finish(t, msg, len, failed);
		return false;
	}
	if (took >= TUI_CAPTURE_SECONDS - 1e-9) {
		capture_end(t->cap, s);
		t->ending = true;
	}
	capture_progress(t->cap, &st);
	snprintf(msg, len, "capturing to %s: %.1f of %.0f s, %llu samples, %llu jobs, %llu display events",
		 t->path, took, TUI_CAPTURE_SECONDS, (unsigned long long)st.samples,
		 (unsigned long long)st.jobs, (unsigned long long)(st.vblanks + st.deliveries));
	return true;
}

void tui_capturer_init(struct tui_capturer *t, uint64_t limit_bytes, bool replay, bool jobs)
{
	memset(t, 0, sizeof(*t));
	t->ops = (struct tui_capture){ .start = start, .add = add, .impl = t };
	t->limit_bytes = limit_bytes;
	t->what = replay ? "the recording's counters" :
		  jobs	 ? "counters, display events, GPU calls and jobs" :
			   "counters, display events and GPU calls (jobs: --sched-design stream)";
}

void tui_capturer_end(struct tui_capturer *t)
{
	char msg[320];
	bool failed;

	if (!t->cap)
		return;
	finish(t, msg, sizeof(msg), &failed);
	fprintf(stderr, "gputop-bpf: %s\n", msg);
}
