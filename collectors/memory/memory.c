// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory collector: per DRM client (an open DRM file, however many fds and
 * processes share it) the memory and engine use its fdinfo reports, summed per
 * device and region; per device the used / total memory the driver exports in
 * sysfs (gpu_sysfs.c). The DRM files (character major 226) come from a BPF task-file iterator
 * where it loads, else from a walk of /proc/<pid>/fd (fd_census.c); only their
 * fdinfo is read. Tables: memory_tables.c.
 */
#include <limits.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/sysroot.h"
#include "core/array.h"
#include "collectors/collector.h"
#include "collectors/kit/fd_census.h"
#include "collectors/memory/fdinfo.h"
#include "collectors/memory/gpu_sysfs.h"
#include "collectors/memory/memory_tables.h"
#include "collectors/kit/proc_info.h"

#define DRM_MAJOR 226
#define FDINFO_MAX 16384 /* bytes of one fdinfo read; a DRM file's is a few hundred */

struct client {
	char dev[FDINFO_NAME];
	uint64_t id;
	struct drm_fdinfo info; /* this tick's */
	uint32_t pid; /* lowest holder */
	uint32_t last_pid; /* the holder counted last (the files come sorted by pid) */
	unsigned int holders;
	char comm[16], cgroup[96];
	uint32_t comm_pid; /* whose comm and cgroup those are */
	struct engine_reading last[FDINFO_ENGINES];
	char last_names[FDINFO_ENGINES][FDINFO_NAME];
	uint64_t last_total[FDINFO_REGIONS];
	char last_regions[FDINFO_REGIONS][FDINFO_NAME];
	bool seen, had_last;
	/* this tick's sums over its regions and engines, for memory.processes */
	uint64_t sum[MEM_KINDS];
	unsigned int sum_known; /* 1 << enum mem_kind */
	double busy[EC_COUNT]; /* < 0: unknown */
};

/* One process's (or cgroup's) sums: a row of memory.processes or memory.containers. */
struct holder_sum {
	uint32_t pid;
	const char *comm, *cgroup;
	unsigned int clients, procs;
	uint64_t sum[MEM_KINDS];
	unsigned int sum_known;
	double busy[EC_COUNT];
};

struct proc_last {
	uint32_t pid;
	uint64_t total;
	bool known;
};

struct memory_priv {
	struct fd_census *census;
	struct fd_ref *files;
	size_t nfiles, files_cap;
	struct client *clients;
	size_t n, cap;
	char *buf; /* one fdinfo */
	struct holder_sum *sums; /* scratch: processes, then cgroups */
	size_t nsums, sums_cap;
	struct proc_last *last, *next; /* each process's total at the last tick, by pid */
	size_t nlast, last_cap, nnext, next_cap;
	uint64_t dropped; /* fdinfo fields that would not parse, regions or engines past the limits */
};

static void memory_probe(struct collector *c)
{
	char drm[PATH_MAX / 2], why[PATH_MAX / 2 + 64];

	sys_path(drm, sizeof(drm), "class/drm");
	if (access(drm, F_OK) && access("/dev/dri", F_OK)) {
		snprintf(why, sizeof(why), "no DRM device (%s and /dev/dri are missing)", drm);
		collector_set_state(c, COLLECTOR_UNAVAILABLE, why,
				    "load your GPU's DRM driver (amdgpu, i915, xe, msm, panfrost ...)");
		return;
	}
	c->priv = calloc(1, sizeof(struct memory_priv));
	if (c->priv)
		((struct memory_priv *)c->priv)->buf = malloc(FDINFO_MAX);
	if (!c->priv || !((struct memory_priv *)c->priv)->buf)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

static int memory_open(struct collector *c)
{
	struct memory_priv *p = c->priv;

	p->census = fd_census_open(&(unsigned int){ DRM_MAJOR }, 1, false);
	if (!p->census) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return -1;
	}
	return 0;
}

static int memory_attach(struct collector *c)
{
	struct memory_priv *p = c->priv;

	snprintf(c->status.detail, sizeof(c->status.detail), "DRM files by %.60s",
		 fd_census_how(p->census));
	return 0;
}

static int client_cmp(const struct client *c, const char *dev, uint64_t id)
{
	int d = strcmp(c->dev, dev);

	return d ? d : c->id < id ? -1 : c->id > id;
}

/* The client (dev, id), added where it sorts: p->clients stays sorted, found by bisection. */
static struct client *client_get(struct memory_priv *p, const struct drm_fdinfo *f)
{
	const char *dev = f->pdev[0] ? f->pdev : f->driver;
	size_t lo = 0, hi = p->n;
	struct client *cl;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = client_cmp(&p->clients[mid], dev, f->client_id);

		if (!d)
			return &p->clients[mid];
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!array_push(&p->clients, &p->n, &p->cap, sizeof(*cl)))
		return NULL;
	cl = &p->clients[lo];
	memmove(cl + 1, cl, (p->n - 1 - lo) * sizeof(*cl));
	memset(cl, 0, sizeof(*cl));
	snprintf(cl->dev, sizeof(cl->dev), "%s", dev);
	cl->id = f->client_id;
	return cl;
}

/* The fdinfo of the DRM file /proc/<pid>/fd/<fd>, when it names a client; false otherwise. */
static bool read_drm_fdinfo(struct memory_priv *p, uint32_t pid, uint32_t fd, struct drm_fdinfo *f)
{
	char path[64];
	ssize_t n;
	int in;

	snprintf(path, sizeof(path), "/proc/%u/fdinfo/%u", pid, fd);
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return false;
	n = read(in, p->buf, FDINFO_MAX - 1);
	close(in);
	if (n <= 0)
		return false;
	p->buf[n] = '\0';
	if (drm_fdinfo_parse(p->buf, f) || !f->has_client_id)
		return false;
	p->dropped += f->dropped;
	return true;
}

/* One DRM file of process pid: its client, held once more (the files come sorted by pid). */
static void add_file(struct memory_priv *p, uint32_t pid, uint32_t fd)
{
	struct drm_fdinfo f;
	struct client *cl;

	if (!read_drm_fdinfo(p, pid, fd, &f) || !(cl = client_get(p, &f)))
		return;
	if (cl->seen && cl->last_pid == pid)
		return; /* another descriptor of it in the same process (dup) */
	if (!cl->seen) {
		cl->info = f;
		cl->pid = pid;
		cl->holders = 0;
		cl->seen = true;
	}
	cl->last_pid = pid;
	cl->holders++;
}

/* The class of an engine by the name its driver gives it (amdgpu, i915, xe, panfrost, msm, v3d ...). */
static enum engine_class engine_class(const char *name)
{
	static const struct {
		const char *prefix;
		enum engine_class class;
	} names[] = {
		{ "gfx", EC_RENDER },	     { "render", EC_RENDER }, { "rcs", EC_RENDER },
		{ "fragment", EC_RENDER },  { "vertex", EC_RENDER }, { "gpu", EC_RENDER },
		{ "bin", EC_RENDER },	     { "gp", EC_RENDER },     { "pp", EC_RENDER },
		{ "panthor", EC_RENDER },   { "compute", EC_COMPUTE }, { "ccs", EC_COMPUTE },
		{ "csd", EC_COMPUTE },	     { "dma", EC_COPY },      { "copy", EC_COPY },
		{ "bcs", EC_COPY },	     { "sdma", EC_COPY },     { "tfu", EC_COPY },
		{ "dec", EC_VIDEO },	     { "enc", EC_VIDEO },     { "jpeg", EC_VIDEO },
		{ "video", EC_VIDEO },	     { "vcs", EC_VIDEO },     { "vecs", EC_VIDEO },
		{ "vcn", EC_VIDEO },	     { "uvd", EC_VIDEO },     { "vce", EC_VIDEO },
		{ "vpe", EC_VIDEO },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(name, names[i].prefix, strlen(names[i].prefix)))
			return names[i].class;
	return EC_OTHER;
}

static void add_busy(double *to, double busy)
{
	if (busy >= 0)
		*to = *to >= 0 ? *to + busy : busy;
}

/* The busy % of a client's engine in slot (its order in the fdinfo); -1 unknown. */
static double engine_busy(struct client *cl, const struct fdinfo_engine *e, double iv, size_t slot)
{
	struct engine_reading *l = &cl->last[slot];
	double busy = !strcmp(cl->last_names[slot], e->name) ? memory_engine_busy(e, l, iv) : -1;

	*l = (struct engine_reading){ e->ns, e->cycles, e->total_cycles, true };
	snprintf(cl->last_names[slot], sizeof(cl->last_names[slot]), "%s", e->name);
	return busy;
}

/* Region i's memory.regions row of the client, with its growth since the last read where it is the same region. */
static void region_row(struct table *tr, struct client *cl, const struct fdinfo_region *r, size_t i, double iv)
{
	struct cell *row;

	if (!tr || !(row = table_row_add(tr)))
		return;
	cell_set_str(row, MR_DEV, cl->dev);
	cell_set_u64(row, MR_CLIENT, cl->id);
	cell_set_str(row, MR_REGION, r->name);
	cell_set_u64(row, MR_PID, cl->pid);
	cell_set_str(row, MR_COMM, cl->comm);
	for (int k = 0; k < MEM_KINDS; k++)
		if (r->known & (1u << k))
			cell_set_u64(row, MR_TOTAL + (unsigned int)k, r->bytes[k]);
	if ((r->known & (1u << MEM_TOTAL)) && cl->had_last && i < FDINFO_REGIONS &&
	    !strcmp(cl->last_regions[i], r->name))
		cell_set_f64(row, MR_TOTAL_PER_S, ((double)r->bytes[MEM_TOTAL] - (double)cl->last_total[i]) / iv);
	cl->last_total[i] = r->bytes[MEM_TOTAL];
	snprintf(cl->last_regions[i], sizeof(cl->last_regions[i]), "%s", r->name);
}

/* The client's memory.engines rows, its busy % per engine class; the busiest engine's %, -1 unknown. */
static double engine_rows(struct table *te, struct client *cl, double iv)
{
	double max_busy = -1;
	struct cell *row;

	for (size_t i = 0; i < cl->info.nengines; i++) {
		const struct fdinfo_engine *e = &cl->info.engines[i];
		double busy = engine_busy(cl, e, iv, i);

		if (busy > max_busy)
			max_busy = busy;
		add_busy(&cl->busy[engine_class(e->name)], busy);
		if (!te || !(row = table_row_add(te)))
			continue;
		cell_set_str(row, ME_DEV, cl->dev);
		cell_set_u64(row, ME_CLIENT, cl->id);
		cell_set_str(row, ME_ENGINE, e->name);
		cell_set_u64(row, ME_PID, cl->pid);
		cell_set_str(row, ME_COMM, cl->comm);
		if (busy >= 0)
			cell_set_f64(row, ME_BUSY, busy);
		cell_set_u64(row, ME_CAPACITY, e->capacity);
	}
	return max_busy;
}

static void client_rows(struct client *cl, struct model *m, double iv)
{
	struct table *tc = model_table(m, &memory_clients), *tr = model_table(m, &memory_regions);
	struct table *te = model_table(m, &memory_engines);
	uint64_t total = 0, resident = 0;
	bool any_total = false, any_resident = false;
	double max_busy;
	char regions[128] = "";
	struct cell *row;

	cl->sum_known = 0;
	memset(cl->sum, 0, sizeof(cl->sum));
	for (int k = 0; k < EC_COUNT; k++)
		cl->busy[k] = -1;

	if (cl->comm_pid != cl->pid) {
		proc_comm(cl->pid, cl->comm, sizeof(cl->comm));
		proc_cgroup(cl->pid, cl->cgroup, sizeof(cl->cgroup));
		cl->comm_pid = cl->pid;
	}
	for (size_t i = 0; i < cl->info.nregions; i++) {
		const struct fdinfo_region *r = &cl->info.regions[i];
		size_t len = strlen(regions);

		snprintf(regions + len, sizeof(regions) - len, "%s%s", len ? "," : "", r->name);
		if (r->known & (1u << MEM_TOTAL))
			total += r->bytes[MEM_TOTAL], any_total = true;
		if (r->known & (1u << MEM_RESIDENT))
			resident += r->bytes[MEM_RESIDENT], any_resident = true;
		for (int k = 0; k < MEM_KINDS; k++)
			if (r->known & (1u << k))
				cl->sum[k] += r->bytes[k], cl->sum_known |= 1u << k;
		region_row(tr, cl, r, i, iv);
	}
	max_busy = engine_rows(te, cl, iv);
	cl->had_last = true;
	if (!tc || !(row = table_row_add(tc)))
		return;
	cell_set_str(row, MC_DEV, cl->dev);
	cell_set_u64(row, MC_CLIENT, cl->id);
	cell_set_str(row, MC_DRIVER, cl->info.driver);
	cell_set_u64(row, MC_PID, cl->pid);
	cell_set_str(row, MC_COMM, cl->comm);
	if (cl->cgroup[0])
		cell_set_str(row, MC_CGROUP, cl->cgroup);
	cell_set_u64(row, MC_HOLDERS, cl->holders);
	if (any_total)
		cell_set_u64(row, MC_TOTAL, total);
	if (any_resident)
		cell_set_u64(row, MC_RESIDENT, resident);
	cell_set_str(row, MC_REGIONS, regions);
	if (max_busy >= 0)
		cell_set_f64(row, MC_BUSY, max_busy);
}

/* One memory.devices row per device and region: the clients' sums. */
static struct cell *device_row(struct table *t, const char *dev, const char *region,
			       const char *driver)
{
	long r;
	char key[128];
	struct cell *row;

	snprintf(key, sizeof(key), "%s/%s", dev, region);
	r = table_find_row(t, key);
	if (r >= 0)
		return table_row(t, (size_t)r);
	row = table_row_add(t);
	if (!row)
		return NULL;
	cell_set_str(row, MD_DEV, dev);
	cell_set_str(row, MD_REGION, region);
	if (driver && driver[0])
		cell_set_str(row, MD_DRIVER, driver);
	return row;
}

static void add_u64(struct cell *row, unsigned int col, uint64_t v)
{
	if (row[col].known)
		row[col].u += v;
	else
		cell_set_u64(row, col, v);
}

static void device_sums(struct memory_priv *p, struct table *t)
{
	for (size_t i = 0; t && i < p->n; i++) {
		const struct client *cl = &p->clients[i];

		for (size_t k = 0; k < cl->info.nregions; k++) {
			const struct fdinfo_region *r = &cl->info.regions[k];
			struct cell *row = device_row(t, cl->dev, r->name, cl->info.driver);

			if (!row)
				return;
			add_u64(row, MD_CLIENTS, 1);
			if (r->known & (1u << MEM_TOTAL))
				add_u64(row, MD_TOTAL, r->bytes[MEM_TOTAL]);
			if (r->known & (1u << MEM_RESIDENT))
				add_u64(row, MD_RESIDENT, r->bytes[MEM_RESIDENT]);
		}
	}
}

/* Used / size of each device's regions that the driver exports in sysfs (gpu_sysfs.c). */
static void sysfs_totals(struct table *t)
{
	struct gpu_mem_total tot[32];
	size_t n = gpu_sysfs_memory(tot, sizeof(tot) / sizeof(tot[0]));

	for (size_t i = 0; t && i < n; i++) {
		struct cell *row = device_row(t, tot[i].dev, tot[i].region, tot[i].driver);

		if (!row)
			return;
		cell_set_u64(row, MD_SIZE, tot[i].size);
		if (tot[i].has_used) {
			cell_set_u64(row, MD_USED, tot[i].used);
			if (tot[i].size)
				cell_set_f64(row, MD_USED_PCT,
					     100.0 * (double)tot[i].used / (double)tot[i].size);
		}
	}
}

static void sum_into(struct holder_sum *h, const uint64_t *sum, unsigned int known, const double *busy)
{
	for (int k = 0; k < MEM_KINDS; k++)
		if (known & (1u << k))
			h->sum[k] += sum[k];
	h->sum_known |= known;
	for (int k = 0; k < EC_COUNT; k++)
		add_busy(&h->busy[k], busy[k]);
}

static void sum_cells(struct cell *row, const struct holder_sum *h, unsigned int total,
		      unsigned int resident, unsigned int shared, unsigned int busy)
{
	if (h->sum_known & (1u << MEM_TOTAL))
		cell_set_u64(row, total, h->sum[MEM_TOTAL]);
	if (h->sum_known & (1u << MEM_RESIDENT))
		cell_set_u64(row, resident, h->sum[MEM_RESIDENT]);
	if (h->sum_known & (1u << MEM_SHARED))
		cell_set_u64(row, shared, h->sum[MEM_SHARED]);
	for (int k = 0; k < EC_COUNT; k++)
		if (h->busy[k] >= 0)
			cell_set_f64(row, busy + (unsigned int)k, h->busy[k]);
}

static int by_pid(const void *a, const void *b)
{
	const struct client *x = *(const struct client *const *)a, *y = *(const struct client *const *)b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_cgroup(const void *a, const void *b)
{
	return strcmp(((const struct holder_sum *)a)->cgroup, ((const struct holder_sum *)b)->cgroup);
}

static struct holder_sum *sum_push(struct memory_priv *p)
{
	struct holder_sum *h = array_push(&p->sums, &p->nsums, &p->sums_cap, sizeof(*h));

	if (h) {
		memset(h, 0, sizeof(*h));
		for (int k = 0; k < EC_COUNT; k++)
			h->busy[k] = -1;
	}
	return h;
}

/* Each process's total at the last tick (p->last, by pid); it is remembered for the next. */
static bool last_total(struct memory_priv *p, size_t *cursor, const struct holder_sum *h,
		       uint64_t *was)
{
	struct proc_last *n = array_push(&p->next, &p->nnext, &p->next_cap, sizeof(*n));
	bool found = false;

	while (*cursor < p->nlast && p->last[*cursor].pid < h->pid)
		(*cursor)++;
	if (*cursor < p->nlast && p->last[*cursor].pid == h->pid && p->last[*cursor].known) {
		*was = p->last[*cursor].total;
		found = true;
	}
	if (n)
		*n = (struct proc_last){ h->pid, h->sum[MEM_TOTAL], !!(h->sum_known & (1u << MEM_TOTAL)) };
	return found;
}

/* The processes' sums, each client counted for its lowest holder (so that they add up to the devices'). */
static void sum_processes(struct memory_priv *p)
{
	struct client **order = p->n ? malloc(p->n * sizeof(*order)) : NULL;

	p->nsums = 0;
	if (!order)
		return;
	for (size_t i = 0; i < p->n; i++)
		order[i] = &p->clients[i];
	qsort(order, p->n, sizeof(*order), by_pid);
	for (size_t i = 0; i < p->n; i++) {
		struct holder_sum *h = p->nsums ? &p->sums[p->nsums - 1] : NULL;

		if (!h || h->pid != order[i]->pid) {
			if (!(h = sum_push(p)))
				break;
			h->pid = order[i]->pid;
			h->comm = order[i]->comm;
			h->cgroup = order[i]->cgroup[0] ? order[i]->cgroup : "-";
			h->procs = 1;
		}
		h->clients++;
		sum_into(h, order[i]->sum, order[i]->sum_known, order[i]->busy);
	}
	free(order);
}

static void process_rows(struct memory_priv *p, struct table *t, double iv)
{
	size_t cursor = 0;
	struct proc_last *swap;
	size_t cap;

	p->nnext = 0;
	for (size_t i = 0; i < p->nsums; i++) {
		const struct holder_sum *h = &p->sums[i];
		bool had = false;
		uint64_t was = 0;
		struct cell *row;

		had = last_total(p, &cursor, h, &was);
		if (!t || !(row = table_row_add(t)))
			continue;
		cell_set_u64(row, MP_PID, h->pid);
		cell_set_str(row, MP_COMM, h->comm);
		cell_set_str(row, MP_CGROUP, h->cgroup);
		cell_set_u64(row, MP_CLIENTS, h->clients);
		sum_cells(row, h, MP_TOTAL, MP_RESIDENT, MP_SHARED, MP_BUSY);
		if (had && (h->sum_known & (1u << MEM_TOTAL)))
			cell_set_f64(row, MP_TOTAL_PER_S, ((double)h->sum[MEM_TOTAL] - (double)was) / iv);
	}
	swap = p->last, p->last = p->next, p->next = swap;
	cap = p->last_cap, p->last_cap = p->next_cap, p->next_cap = cap;
	p->nlast = p->nnext;
}

/* memory.containers: the process sums folded by cgroup (sorted by it first). */
static void container_rows(struct memory_priv *p, struct table *t)
{
	size_t n = p->nsums;

	if (n > 1) /* qsort's array may not be NULL, even empty */
		qsort(p->sums, n, sizeof(*p->sums), by_cgroup);
	for (size_t i = 0; t && i < n;) {
		struct holder_sum k = { .cgroup = p->sums[i].cgroup };
		struct cell *row;

		for (int e = 0; e < EC_COUNT; e++)
			k.busy[e] = -1;
		for (; i < n && !strcmp(p->sums[i].cgroup, k.cgroup); i++) {
			k.procs++;
			k.clients += p->sums[i].clients;
			sum_into(&k, p->sums[i].sum, p->sums[i].sum_known, p->sums[i].busy);
		}
		if (!(row = table_row_add(t)))
			return;
		cell_set_str(row, MK_CGROUP, k.cgroup);
		cell_set_u64(row, MK_PROCS, k.procs);
		cell_set_u64(row, MK_CLIENTS, k.clients);
		sum_cells(row, &k, MK_TOTAL, MK_RESIDENT, MK_SHARED, MK_BUSY);
	}
}

/* memory.device_engines: per device and engine class, the clients' busy summed (at most 100). */
static void device_engine_rows(struct memory_priv *p, struct table *t)
{
	for (size_t i = 0; t && i < p->n; i++) {
		const struct client *cl = &p->clients[i];

		for (int k = 0; k < EC_COUNT; k++) {
			char key[FDINFO_NAME + 16];
			struct cell *row;
			long r;

			if (cl->busy[k] < 0)
				continue;
			snprintf(key, sizeof(key), "%s/%s", cl->dev, engine_class_name((enum engine_class)k));
			r = table_find_row(t, key);
			row = r >= 0 ? table_row(t, (size_t)r) : table_row_add(t);
			if (!row)
				return;
			if (r < 0) {
				cell_set_str(row, MDE_DEV, cl->dev);
				cell_set_str(row, MDE_CLASS, engine_class_name((enum engine_class)k));
				cell_set_u64(row, MDE_CLIENTS, 0);
				cell_set_f64(row, MDE_BUSY, 0);
			}
			row[MDE_CLIENTS].u++;
			row[MDE_BUSY].f = fmin(100.0, row[MDE_BUSY].f + cl->busy[k]);
		}
	}
}

static int memory_read(struct collector *c, struct model *m)
{
	struct memory_priv *p = c->priv;
	double iv = model_interval_s(m);
	size_t w = 0;

	for (size_t i = 0; i < p->n; i++)
		p->clients[i].seen = false;
	if (!fd_census_take(p->census, &p->files, &p->nfiles, &p->files_cap))
		for (size_t i = 0; i < p->nfiles; i++) /* by pid: the first holder is the lowest */
			add_file(p, p->files[i].pid, p->files[i].fd);
	for (size_t i = 0; i < p->n; i++) /* clients closed since the last tick are forgotten */
		if (p->clients[i].seen)
			p->clients[w++] = p->clients[i];
	p->n = w;
	/* the tables exist (empty) when there is no client */
	model_table(m, &memory_clients);
	model_table(m, &memory_regions);
	model_table(m, &memory_engines);
	for (size_t i = 0; i < p->n; i++)
		client_rows(&p->clients[i], m, iv);
	sum_processes(p);
	process_rows(p, model_table(m, &memory_processes), iv);
	container_rows(p, model_table(m, &memory_containers));
	device_engine_rows(p, model_table(m, &memory_device_engines));
	device_sums(p, model_table(m, &memory_devices));
	sysfs_totals(model_table(m, &memory_devices));
	collector_set_drop(c, "fdinfo_fields_unparsed", p->dropped);
	return 0;
}

static void memory_close(struct collector *c)
{
	struct memory_priv *p = c->priv;

	if (!p)
		return;
	fd_census_close(p->census);
	free(p->files);
	free(p->clients);
	free(p->sums);
	free(p->last);
	free(p->next);
	free(p->buf);
	free(p);
}

static const struct collector_ops memory_collector = {
	.name = "memory", /* id */
	.order = 45,
	.unprivileged = true,
	.description = "GPU memory and engine use per DRM client, device and region (fdinfo, sysfs)",
	.probe = memory_probe, /* /sys/class/drm or /dev/dri */
	.open = memory_open,
	.attach = memory_attach,
	.read = memory_read, /* /proc/<pid>/fdinfo -> memory.clients, .regions, .engines, .devices,
			      * .processes, .containers */
	.close = memory_close,
};
COLLECTOR_REGISTER(memory_collector);
