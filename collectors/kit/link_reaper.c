// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "collectors/kit/link_reaper.h"

#define CHILD_NAME "gputop-bpf-exit"

struct kept {
	struct bpf_link **links;
	size_t n, cap;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct kept here, files; /* closed by this process; may be closed by a child (no module held) */

static void keep(struct kept *k, struct bpf_link *link)
{
	if (!link)
		return;
	pthread_mutex_lock(&lock);
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 64;
		struct bpf_link **grown = realloc(k->links, cap * sizeof(*grown));

		if (!grown) {
			pthread_mutex_unlock(&lock);
			bpf_link__destroy(link);
			return;
		}
		k->links = grown;
		k->cap = cap;
	}
	k->links[k->n++] = link;
	pthread_mutex_unlock(&lock);
}

void link_reaper_defer(struct bpf_link *link)
{
	keep(&here, link);
}

void link_reaper_defer_no_module(struct bpf_link **links, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		keep(&files, links[i]);
		links[i] = NULL;
	}
}

static int fd_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Closes every descriptor but the n sorted in keep (system calls only: this runs after fork). */
static void close_all_but(const int *kept, size_t n)
{
	struct rlimit rl;
	long max = !getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY ? (long)rl.rlim_cur : 1 << 20;
	long from = 0;

	for (size_t i = 0; i <= n; i++) {
		long to = i < n ? kept[i] - 1 : max - 1;

		if (to >= from && syscall(SYS_close_range, (unsigned int)from, (unsigned int)to, 0))
			for (long fd = from; fd <= to; fd++) /* before Linux 5.9 */
				close((int)fd);
		from = i < n ? kept[i] + 1 : max;
	}
}

/*
 * A child that holds the links of no module and ends, closing them, once this process has closed
 * its own copies: it waits for the end of a pipe whose writing end is *done's. Whichever closes a
 * link last waits for the kernel's release (seconds for uprobes): the child must be last. It
 * was not always: a child that ended at once left the release to this process, 5 to 10 s of a
 * quit on the H200 one time in three. -1 in *done where no child was made.
 */
static void leave_to_child(struct kept *k, int *done)
{
	int *fds = calloc(k->n + 1, sizeof(*fds)), p[2];
	sigset_t all;
	char c;
	pid_t pid;

	*done = -1;
	if (!fds || pipe2(p, O_CLOEXEC)) {
		free(fds);
		return;
	}
	for (size_t i = 0; i < k->n; i++)
		fds[i] = bpf_link__fd(k->links[i]);
	fds[k->n] = p[0];
	qsort(fds, k->n + 1, sizeof(*fds), fd_cmp);
	pid = fork();
	if (pid == 0) {
		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL); /* no Ctrl-C of the terminal's, no SIGPIPE */
		setsid();
		prctl(PR_SET_NAME, CHILD_NAME);
		close_all_but(fds, k->n + 1);
		while (read(p[0], &c, 1) < 0 && errno == EINTR) /* the end: our parent closed its copies */
			;
		_exit(0); /* the kernel releases the links as this exits */
	}
	free(fds);
	close(p[0]);
	if (pid > 0)
		*done = p[1];
	else
		close(p[1]);
}

pid_t link_reaper_earlier(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = 0;

	while (d && !found && (de = readdir(d))) {
		char path[64], comm[32] = "";
		FILE *f;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/comm", de->d_name);
		f = fopen(path, "re");
		if (f && fgets(comm, sizeof(comm), f) && !strcmp(comm, CHILD_NAME "\n"))
			found = (pid_t)atoi(de->d_name);
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

void link_reaper_flush(bool last)
{
	struct kept h, f;
	int done = -1;

	pthread_mutex_lock(&lock);
	h = here;
	f = files;
	here = files = (struct kept){ 0 };
	pthread_mutex_unlock(&lock);
	/* a module's links first, here and before any fork: no child may hold one and close it last */
	for (size_t i = 0; i < h.n; i++)
		bpf_link__destroy(h.links[i]);
	if (last && f.n)
		leave_to_child(&f,
			       &done); /* whether or not: our own copies go below, at once where a child holds them */
	for (size_t i = 0; i < f.n; i++)
		bpf_link__destroy(f.links[i]);
	if (done >= 0)
		close(done); /* the child may end: it holds the last of them */
	free(f.links);
	free(h.links);
}
