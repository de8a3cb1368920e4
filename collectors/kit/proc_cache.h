/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The processes a collector's rows name, read from procfs once per process and
 * tick at most: command name and cgroup (read once, the cgroup when first
 * asked for), whether it is gone (each tick).
 */
#ifndef GPUTOP_PROC_CACHE_H
#define GPUTOP_PROC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct proc_entry {
	uint32_t pid;
	bool gone; /* at this tick */
	unsigned long tick; /* last looked up */
	bool cgroup_read;
	char comm[16];
	char cgroup[96]; /* proc_cgroup's: "" unread or unreadable */
};

struct proc_cache {
	struct proc_entry *e; /* sorted by pid */
	size_t n, cap;
	unsigned long tick;
};

/* The process pid at this tick; NULL when out of memory. */
const struct proc_entry *proc_cache_get(struct proc_cache *c, uint32_t pid);
/* The same, its cgroup read too. */
const struct proc_entry *proc_cache_get_cgroup(struct proc_cache *c, uint32_t pid);
/* Ends a tick: processes not looked up in it are forgotten. */
void proc_cache_tick(struct proc_cache *c);
void proc_cache_free(struct proc_cache *c);
/*
 * A row's process name: procfs's (comm, "?" when it was gone before the read),
 * else the one BPF kept at its first event (kept[16], the group leader's comm;
 * "" when none), copied into buf[17].
 */
const char *proc_name_or_kept(const char *comm, const char *kept, char *buf);

#endif
