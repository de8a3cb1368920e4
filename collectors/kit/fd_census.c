// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "core/array.h"
#include "collectors/kit/fd_census.h"
#include <linux/types.h>
#include "bpf/fd_iter.h"
#include "fd_iter.skel.h"

struct fd_census {
	unsigned int majors[FD_ITER_MAJORS];
	size_t nmajors;
	struct fd_iter_bpf *skel;
	struct bpf_link *link;
	char how[160];
};

void fd_census_set_majors(struct fd_census *c, const unsigned int *majors, size_t n)
{
	memset(c->majors, 0, sizeof(c->majors));
	c->nmajors = n < FD_ITER_MAJORS ? n : FD_ITER_MAJORS;
	memcpy(c->majors, majors, c->nmajors * sizeof(*majors));
	if (c->skel)
		for (size_t i = 0; i < FD_ITER_MAJORS; i++)
			c->skel->bss->target_majors[i] = c->majors[i];
}

struct fd_census *fd_census_open(const unsigned int *majors, size_t n, bool walk_only)
{
	struct fd_census *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return NULL;
	fd_census_set_majors(c, majors, n);
	snprintf(c->how, sizeof(c->how), "/proc walk");
	if (walk_only)
		return c;
	c->skel = fd_iter_bpf__open();
	if (!c->skel) {
		snprintf(c->how, sizeof(c->how), "/proc walk (the iterator did not open)");
		return c;
	}
	err = fd_iter_bpf__load(c->skel);
	if (!err) {
		c->link = bpf_program__attach_iter(c->skel->progs.char_files, NULL);
		err = c->link ? 0 : -errno;
	}
	if (err) {
		snprintf(c->how, sizeof(c->how), "/proc walk (the task-file iterator: %s)", strerror(-err));
		fd_iter_bpf__destroy(c->skel);
		c->skel = NULL;
		return c;
	}
	fd_census_set_majors(c, majors, n);
	snprintf(c->how, sizeof(c->how), "BPF task-file iterator");
	return c;
}

const char *fd_census_how(const struct fd_census *c)
{
	return c->how;
}

static int by_pid_fd(const void *a, const void *b)
{
	const struct fd_ref *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->fd < y->fd ? -1 : x->fd > y->fd;
}

static int take_iter(struct fd_census *c, struct fd_ref **out, size_t *n, size_t *cap)
{
	int fd = bpf_iter_create(bpf_link__fd(c->link));
	struct fd_iter_rec rec[256];
	ssize_t got;

	if (fd < 0)
		return -1;
	while ((got = read(fd, rec, sizeof(rec))) > 0 || (got < 0 && errno == EINTR))
		for (size_t i = 0; got > 0 && i < (size_t)got / sizeof(rec[0]); i++) {
			struct fd_ref *r = array_push(out, n, cap, sizeof(*r));

			if (!r)
				break;
			r->pid = rec[i].tgid;
			r->fd = rec[i].fd;
		}
	close(fd);
	return got < 0 ? -1 : 0;
}

static bool wanted(const struct fd_census *c, unsigned int major)
{
	for (size_t i = 0; i < c->nmajors; i++)
		if (c->majors[i] == major)
			return true;
	return false;
}

static void walk_one(struct fd_census *c, const char *pid_s, struct fd_ref **out, size_t *n,
		     size_t *cap)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%.16s/fd", pid_s);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		struct stat st;
		struct fd_ref *r;

		if (!isdigit((unsigned char)de->d_name[0]) || fstatat(dirfd(d), de->d_name, &st, 0) ||
		    !S_ISCHR(st.st_mode) || !wanted(c, major(st.st_rdev)))
			continue;
		r = array_push(out, n, cap, sizeof(*r));
		if (!r)
			break;
		r->pid = (uint32_t)strtoul(pid_s, NULL, 10);
		r->fd = (uint32_t)strtoul(de->d_name, NULL, 10);
	}
	if (d)
		closedir(d);
}

int fd_census_take(struct fd_census *c, struct fd_ref **out, size_t *n, size_t *cap)
{
	struct dirent *de;
	DIR *d;

	*n = 0;
	if (c->link) {
		if (take_iter(c, out, n, cap))
			return -1;
	} else {
		d = opendir("/proc");
		if (!d)
			return -1;
		while ((de = readdir(d)))
			if (isdigit((unsigned char)de->d_name[0]))
				walk_one(c, de->d_name, out, n, cap);
		closedir(d);
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), by_pid_fd);
	return 0;
}

void fd_census_close(struct fd_census *c)
{
	if (!c)
		return;
	bpf_link__destroy(c->link);
	fd_iter_bpf__destroy(c->skel);
	free(c);
}
