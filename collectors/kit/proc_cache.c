// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "collectors/kit/proc_cache.h"
#include "collectors/kit/proc_info.h"

static struct proc_entry *lookup(struct proc_cache *c, uint32_t pid)
{
	size_t lo = 0, hi = c->n;
	struct proc_entry *e;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->e[mid].pid == pid) {
			e = &c->e[mid];
			if (e->tick != c->tick) {
				e->tick = c->tick;
				e->gone = proc_gone(pid);
			}
			return e;
		}
		if (c->e[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 64;
		struct proc_entry *p = realloc(c->e, ncap * sizeof(*p));

		if (!p)
			return NULL;
		c->e = p;
		c->cap = ncap;
	}
	memmove(&c->e[lo + 1], &c->e[lo], (c->n - lo) * sizeof(*c->e));
	c->n++;
	e = &c->e[lo];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->tick = c->tick;
	proc_comm(pid, e->comm, sizeof(e->comm));
	e->gone = proc_gone(pid);
	return e;
}

const struct proc_entry *proc_cache_get(struct proc_cache *c, uint32_t pid)
{
	return lookup(c, pid);
}

const struct proc_entry *proc_cache_get_cgroup(struct proc_cache *c, uint32_t pid)
{
	struct proc_entry *e = lookup(c, pid);

	if (e && !e->cgroup_read) {
		proc_cgroup(pid, e->cgroup, sizeof(e->cgroup));
		e->cgroup_read = true;
	}
	return e;
}

void proc_cache_tick(struct proc_cache *c)
{
	size_t w = 0;

	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].tick == c->tick)
			c->e[w++] = c->e[i];
	c->n = w;
	c->tick++;
}

void proc_cache_free(struct proc_cache *c)
{
	free(c->e);
	memset(c, 0, sizeof(*c));
}

const char *proc_name_or_kept(const char *comm, const char *kept, char *buf)
{
	if ((comm && strcmp(comm, "?")) || !kept[0])
		return comm ? comm : "?";
	memcpy(buf, kept, 16);
	buf[16] = '\0';
	return buf;
}
