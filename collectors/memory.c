// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory collector: per DRM client (an open DRM file, however many fds and
 * processes share it) the memory and engine use its fdinfo reports, summed per
 * device and region; per device the used / total memory the driver exports in
 * sysfs. The DRM files (character major 226) come from a BPF task-file iterator
 * where it loads, else from a walk of /proc/<pid>/fd (fd_census.c); only their
 * fdinfo is read. Tables: memory_tables.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "../model/array.h"
#include "collector.h"
#include "fd_census.h"
#include "fdinfo.h"
#include "memory_tables.h"
#include "proc_info.h"

#define DRM_MAJOR 226
#define FDINFO_MAX 16384 /* bytes of one fdinfo read; a DRM file's is a few hundred */

struct engine_last {
	uint64_t ns, cycles, total_cycles;
	bool known;
};

struct client {
	char dev[FDINFO_NAME];
	uint64_t id;
	struct drm_fdinfo info; /* this tick's */
	uint32_t pid; /* lowest holder */
	uint32_t last_pid; /* the holder counted last (the files come sorted by pid) */
	unsigned int holders;
	char comm[16], cgroup[96];
	uint32_t comm_pid; /* whose comm and cgroup those are */
	struct engine_last last[FDINFO_ENGINES];
	char last_names[FDINFO_ENGINES][FDINFO_NAME];
	uint64_t last_total[FDINFO_REGIONS];
	char last_regions[FDINFO_REGIONS][FDINFO_NAME];
	bool seen, had_last;
};

struct memory_priv {
	struct fd_census *census;
	struct fd_ref *files;
	size_t nfiles, files_cap;
	struct client *clients;
	size_t n, cap;
	char *buf; /* one fdinfo */
	uint64_t dropped; /* fdinfo fields that would not parse, regions or engines past the limits */
};

static void memory_probe(struct collector *c)
{
	if (access("/sys/class/drm", F_OK) && access("/dev/dri", F_OK)) {
		collector_set_state(c, COLLECTOR_UNAVAILABLE,
				    "no DRM device (/sys/class/drm and /dev/dri are missing)",
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

	p->census = fd_census_open(DRM_MAJOR, false);
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

static struct client *client_get(struct memory_priv *p, const struct drm_fdinfo *f)
{
	const char *dev = f->pdev[0] ? f->pdev : f->driver;
	struct client *cl;

	for (size_t i = 0; i < p->n; i++)
		if (p->clients[i].id == f->client_id && !strcmp(p->clients[i].dev, dev))
			return &p->clients[i];
	cl = array_push(&p->clients, &p->n, &p->cap, sizeof(*cl));
	if (!cl)
		return NULL;
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

static double engine_busy(struct client *cl, const struct fdinfo_engine *e, double iv, size_t slot)
{
	struct engine_last *l = &cl->last[slot];
	double busy = -1;

	if (l->known && !strcmp(cl->last_names[slot], e->name)) {
		if (e->has_ns && e->ns >= l->ns)
			busy = (double)(e->ns - l->ns) / (iv * 1e9) * 100.0;
		else if (e->has_cycles && e->has_total_cycles && e->total_cycles > l->total_cycles &&
			 e->cycles >= l->cycles)
			busy = (double)(e->cycles - l->cycles) /
			       (double)(e->total_cycles - l->total_cycles) * 100.0;
		/* a counter that went backwards (a reset): unknown this interval */
		if (busy >= 0)
			busy /= e->capacity ? e->capacity : 1;
	}
	*l = (struct engine_last){ e->ns, e->cycles, e->total_cycles, true };
	snprintf(cl->last_names[slot], sizeof(cl->last_names[slot]), "%s", e->name);
	return busy;
}

static void client_rows(struct client *cl, struct model *m, double iv)
{
	struct table *tc = model_table(m, &memory_clients), *tr = model_table(m, &memory_regions);
	struct table *te = model_table(m, &memory_engines);
	uint64_t total = 0, resident = 0;
	bool any_total = false, any_resident = false;
	double max_busy = -1;
	char regions[128] = "";
	struct cell *row;

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
		if (!tr || !(row = table_row_add(tr)))
			continue;
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
			cell_set_f64(row, MR_TOTAL_PER_S,
				     ((double)r->bytes[MEM_TOTAL] - (double)cl->last_total[i]) / iv);
		cl->last_total[i] = r->bytes[MEM_TOTAL];
		snprintf(cl->last_regions[i], sizeof(cl->last_regions[i]), "%s", r->name);
	}
	for (size_t i = 0; i < cl->info.nengines; i++) {
		const struct fdinfo_engine *e = &cl->info.engines[i];
		double busy = engine_busy(cl, e, iv, i);

		if (busy > max_busy)
			max_busy = busy;
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

static bool read_u64_file(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "re");
	unsigned long long n;
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%llu", &n) == 1;
	fclose(f);
	if (ok)
		*v = n;
	return ok;
}

/* amdgpu: /sys/class/drm/cardN/device/mem_info_{vram,vis_vram,gtt}_{used,total}. */
static void sysfs_totals(struct table *t)
{
	static const char *const regions[][2] = { { "vram", "vram" }, { "vis_vram", "vis_vram" },
						  { "gtt", "gtt" } };
	DIR *d = opendir("/sys/class/drm");
	struct dirent *de;

	while (t && d && (de = readdir(d))) {
		char path[128], bus[64] = "", link[256];
		ssize_t n;

		if (strncmp(de->d_name, "card", 4) || strchr(de->d_name, '-'))
			continue;
		snprintf(path, sizeof(path), "/sys/class/drm/%.32s/device", de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			snprintf(bus, sizeof(bus), "%.63s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
		}
		for (size_t r = 0; r < sizeof(regions) / sizeof(regions[0]); r++) {
			uint64_t used, total;
			struct cell *row;
			char p2[512];

			snprintf(p2, sizeof(p2), "%s/mem_info_%s_used", path, regions[r][0]);
			if (!read_u64_file(p2, &used))
				continue;
			snprintf(p2, sizeof(p2), "%s/mem_info_%s_total", path, regions[r][0]);
			if (!read_u64_file(p2, &total) || !bus[0])
				continue;
			row = device_row(t, bus, regions[r][1], "amdgpu");
			if (!row)
				break;
			cell_set_u64(row, MD_USED, used);
			cell_set_u64(row, MD_SIZE, total);
			if (total)
				cell_set_f64(row, MD_USED_PCT, 100.0 * (double)used / (double)total);
		}
	}
	if (d)
		closedir(d);
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
	free(p->buf);
	free(p);
}

static const struct collector_ops memory_collector = {
	.name = "memory", /* id */
	.order = 45,
	.description = "GPU memory and engine use per DRM client, device and region (fdinfo, sysfs)",
	.probe = memory_probe, /* /sys/class/drm or /dev/dri */
	.open = memory_open,
	.attach = memory_attach,
	.read = memory_read, /* /proc/<pid>/fdinfo -> memory.clients, .regions, .engines, .devices */
	.close = memory_close,
};
COLLECTOR_REGISTER(memory_collector);
