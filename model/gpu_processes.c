// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The merge, per process and GPU: GPU use from the best source that has it
 * (the scheduler's execution time, else NVML's SM share, else fdinfo's busiest
 * engine time), memory as the largest a source reports on that GPU (fdinfo,
 * NVML and the KFD may each count the same buffers: never added), then both
 * summed over the process's GPUs, as top sums a process's CPUs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/key_index.h"
#include "core/pci.h"
#include "core/text_copy.h"
#include "model/gpu_processes.h"
#include "model/row_index.h"

enum {
	GP_PID,
	GP_COMM,
	GP_GPUS,
	GP_GPU,
	GP_MEM,
	GP_JOBS,
	GP_WAIT,
	GP_LAUNCH,
	GP_RENDER,
	GP_COMPUTE,
	GP_COPY,
	GP_VIDEO,
	GP_SYNC,
	GP_QUEUES,
	GP_CGROUP,
	GP_SOURCES,
	GP_COLS
};

static const struct col_desc gp_cols[GP_COLS] = {
	[GP_PID] = { "pid", "PID", "the process (thread group)", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[GP_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[GP_GPUS] = { "gpus", "GPUS", "the GPUs it uses, by device name (card0, nvidia0)", COL_STR, UNIT_NONE, 13,
		      COL_ASCENDING },
	[GP_GPU] = { "gpu_pct", "GPU%",
		     "per GPU the scheduler's execution time, else NVML's SM%, else fdinfo's busiest engine (each "
		     "at most 100), summed over its GPUs",
		     COL_F64, UNIT_PCT, 6, COL_HISTORY | COL_SPARK },
	[GP_MEM] = { "mem_bytes", "GPU MEM",
		     "per GPU the largest of fdinfo's resident, NVML's and the KFD's VRAM (they may count the same "
		     "buffers), summed over its GPUs; where none reports it, CUDA's tracked allocations, at most what "
		     "NVML says the GPUs hold",
		     COL_U64, UNIT_BYTES, 9, COL_HISTORY },
	[GP_JOBS] = { "jobs_per_s", "SUBM/S", "DRM scheduler jobs submitted per second", COL_F64, UNIT_PER_S, 7,
		      COL_IF_KNOWN },
	[GP_WAIT] = { "wait_mean_ns", "WAIT avg", "mean queue wait of its scheduler jobs", COL_F64, UNIT_NS, 9,
		      COL_IF_KNOWN },
	[GP_LAUNCH] = { "launches_per_s", "LAUNCH/S", "CUDA kernel launches per second (uprobes)", COL_F64, UNIT_PER_S,
			9, COL_IF_KNOWN },
	[GP_RENDER] = { "render_pct", "3D%", "busy on render / graphics engines (fdinfo)", COL_F64, UNIT_PCT, 5,
			COL_IF_KNOWN },
	[GP_COMPUTE] = { "compute_pct", "COMP%", "busy on compute engines (fdinfo)", COL_F64, UNIT_PCT, 6,
			 COL_IF_KNOWN },
	[GP_COPY] = { "copy_pct", "COPY%", "busy on copy engines (fdinfo)", COL_F64, UNIT_PCT, 6,
		      COL_IF_KNOWN | COL_WIDE },
	[GP_VIDEO] = { "video_pct", "VIDEO%", "busy on video engines (fdinfo)", COL_F64, UNIT_PCT, 7,
		       COL_IF_KNOWN | COL_WIDE },
	[GP_SYNC] = { "sync_pct", "SYNC%", "share of the interval it spent blocked in CUDA synchronisation", COL_F64,
		      UNIT_PCT, 6, COL_IF_KNOWN | COL_WIDE },
	[GP_QUEUES] = { "queues", "QUEUES", "its ROCm user-mode queues (KFD)", COL_U64, UNIT_COUNT, 6,
			COL_IF_KNOWN | COL_WIDE },
	[GP_CGROUP] = { "cgroup", "CONTAINER", "its cgroup, or runtime:id of its container", COL_STR, UNIT_NONE, 20,
			COL_IF_KNOWN | COL_WIDE | COL_ASCENDING | COL_SHORT_IDS },
	[GP_SOURCES] = { "sources", "FROM", "the collectors that see it: sched, fdinfo, nvml, cuda, kfd", COL_STR,
			 UNIT_NONE, 17, COL_WIDE | COL_ASCENDING },
};

const struct table_desc gpu_processes_table = {
	.name = "gpu.processes",
	.title = "Processes",
	.empty = "No process uses a GPU that a collector sees.",
	.cols = gp_cols,
	.ncols = GP_COLS,
	.sort_col = GP_GPU,
	.derived = true,
};
TABLE_REGISTER(gpu_processes_table);

enum source { SRC_SCHED, SRC_FDINFO, SRC_NVML, SRC_CUDA, SRC_KFD, SRC_COUNT };
static const char *const source_names[SRC_COUNT] = { "sched", "fdinfo", "nvml", "cuda", "kfd" };

#define PROC_GPUS 16 /* GPUs told apart per process; more share the last slot */

/* What the sources say of one process on one GPU (NAN: that source does not say). */
struct on_gpu {
	char dev[NAME_LEN]; /* the device's name where the snapshot lists it, else the source's spelling */
	size_t order; /* its place in the snapshot's devices; ndevices where it is not listed */
	uint32_t next; /* the process's next GPU in the merge's */
	double sched_pct, nvml_pct, fdinfo_pct;
	double fdinfo_mem, nvml_mem, kfd_mem;
};

/* A process: small (a host may run a great many), its texts its rows' (they outlive the merge), its GPUs a list. */
struct proc {
	uint64_t pid;
	const char *comm, *cgroup;
	uint32_t first_gpu, last_gpu; /* in the merge's gpus */
	int ngpus;
	double jobs, wait, launches, sync, cuda_mem, queues, engine[4];
	unsigned int sources;
};

/* A source's spelling of a device (a string of a row of the snapshot's) and the device it names. */
struct spelling {
	const char *dev;
	size_t order; /* in the snapshot's devices; ndevices: none */
};

struct merge {
	const struct snapshot *s;
	double nvidia_used; /* device memory NVML says is used on all NVIDIA GPUs; NAN: unknown */
	struct proc *procs;
	size_t n, cap;
	struct on_gpu *gpus; /* the processes' GPUs, each process's a list */
	size_t ngpus, gpus_cap;
	struct key_index by_pid; /* pid -> procs */
	struct key_index nvidia_gpus; /* NVML's GPU index -> its row of nvidia.gpus */
	struct spelling *spellings; /* each spelling resolved once */
	size_t nspellings, spellings_cap;
	struct key_index by_spelling; /* the spelling's hash -> spellings */
	const struct table *cols_of; /* the table whose columns these are, found once for all its rows */
	int pid_col, comm_col, cgroup_col;
	bool failed;
};

/* A command name a collector knew ("?": the process was gone when it looked). */
static bool known_name(const char *comm)
{
	return comm[0] && strcmp(comm, "?");
}

/* Process p's GPUs, each as g. */
#define EACH_GPU(m, p, g)                                                          \
	for (struct on_gpu *g = (p)->ngpus ? &(m)->gpus[(p)->first_gpu] : NULL; g; \
	     g = g == &(m)->gpus[(p)->last_gpu] ? NULL : &(m)->gpus[g->next])

/* The process of pid (through the index, never a walk), a new one where it has none; NULL out of memory. */
static struct proc *find_proc(struct merge *m, uint64_t pid)
{
	struct proc *p;
	uint32_t i;

	if (key_index_get(&m->by_pid, pid, &i))
		return &m->procs[i];
	if (m->n >= KEY_INDEX_EMPTY || key_index_put(&m->by_pid, pid, (uint32_t)m->n) ||
	    !(p = array_push(&m->procs, &m->n, &m->cap, sizeof(*p)))) {
		key_index_del(&m->by_pid, pid);
		m->failed = true;
		return NULL;
	}
	*p = (struct proc){ .pid = pid,
			    .comm = "",
			    .cgroup = "",
			    .jobs = NAN,
			    .wait = NAN,
			    .launches = NAN,
			    .sync = NAN,
			    .cuda_mem = NAN,
			    .queues = NAN,
			    .engine = { NAN, NAN, NAN, NAN } };
	return p;
}

static struct proc *proc_of(struct merge *m, const struct table *t, size_t row, enum source src)
{
	struct proc *p;
	double pid;

	if (m->cols_of != t) {
		m->cols_of = t;
		m->pid_col = table_col(t->desc, "pid");
		m->comm_col = table_col(t->desc, "comm");
		m->cgroup_col = table_col(t->desc, "cgroup");
	}
	pid = table_num_at(t, row, m->pid_col);
	if (isnan(pid) || !(p = find_proc(m, (uint64_t)pid)))
		return NULL;
	if (!known_name(p->comm))
		p->comm = table_str_at(t, row, m->comm_col);
	if (!p->cgroup[0])
		p->cgroup = table_str_at(t, row, m->cgroup_col);
	p->sources |= 1u << src;
	return p;
}

/* The device a source's bus (PCI or platform), card or driver name (a device without a bus) spells: its place. */
static size_t device_order(const struct snapshot *s, const char *dev)
{
	for (size_t i = 0; i < s->ndevices; i++)
		if (!strcmp(s->devices[i].name, dev) ||
		    (s->devices[i].bus_id[0] ?
			     !strcmp(s->devices[i].bus_id, dev) || pci_same(s->devices[i].bus_id, dev) :
			     !strcmp(s->devices[i].driver, dev)))
			return i;
	return s->ndevices;
}

static uint64_t spelling_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* device_order of dev, each spelling looked for among the devices once (its rows' strings outlive the merge). */
static size_t spelled_order(struct merge *m, const char *dev)
{
	uint64_t h = spelling_hash(dev);
	struct spelling *sp;
	uint32_t i;

	if (key_index_get(&m->by_spelling, h, &i))
		return strcmp(m->spellings[i].dev, dev) ? device_order(m->s, dev) : m->spellings[i].order;
	if (m->nspellings < KEY_INDEX_EMPTY &&
	    (sp = array_push(&m->spellings, &m->nspellings, &m->spellings_cap, sizeof(*sp)))) {
		*sp = (struct spelling){ dev, device_order(m->s, dev) };
		if (!key_index_put(&m->by_spelling, h, (uint32_t)(m->nspellings - 1)))
			return sp->order;
		m->nspellings--; /* not indexed: looked for again next time */
	}
	return device_order(m->s, dev);
}

/* What the sources say of p on dev (valid until the next call); NULL out of memory. */
static struct on_gpu *gpu_of(struct merge *m, struct proc *p, const char *dev)
{
	const struct snapshot *s = m->s;
	size_t order = spelled_order(m, dev);
	char name[NAME_LEN];
	struct on_gpu *g;

	text_copy(name, sizeof(name), order < s->ndevices ? s->devices[order].name : dev[0] ? dev : "?");
	EACH_GPU(m, p, on)
	if (!strcmp(on->dev, name))
		return on;
	if (p->ngpus == PROC_GPUS)
		return &m->gpus[p->last_gpu];
	if (m->ngpus >= UINT32_MAX || !(g = array_push(&m->gpus, &m->ngpus, &m->gpus_cap, sizeof(*g)))) {
		m->failed = true;
		return NULL;
	}
	*g = (struct on_gpu){ .order = order,
			      .sched_pct = NAN,
			      .nvml_pct = NAN,
			      .fdinfo_pct = NAN,
			      .fdinfo_mem = NAN,
			      .nvml_mem = NAN,
			      .kfd_mem = NAN };
	text_copy(g->dev, sizeof(g->dev), name);
	if (p->ngpus++)
		m->gpus[p->last_gpu].next = (uint32_t)(m->ngpus - 1);
	else
		p->first_gpu = (uint32_t)(m->ngpus - 1);
	p->last_gpu = (uint32_t)(m->ngpus - 1);
	return g;
}

#define EACH_ROW(m, name, t, r)                                                                     \
	for (const struct table *t = snapshot_table((m)->s, name); t; t = NULL)                     \
		for (size_t r = 0; r < t->nrows; r++)

static void from_sched(struct merge *m)
{
	EACH_ROW(m, "drm_sched.processes", t, r) {
		struct proc *p = proc_of(m, t, r, SRC_SCHED);

		if (p) {
			p->jobs = table_num(t, r, "jobs_per_s");
			p->wait = table_num(t, r, "wait_mean_ns");
		}
	}
	EACH_ROW(m, "drm_sched.process_rings", t, r) {
		struct proc *p = proc_of(m, t, r, SRC_SCHED);
		struct on_gpu *g = p ? gpu_of(m, p, table_str(t, r, "dev")) : NULL;

		if (g)
			g->sched_pct = num_add_known(g->sched_pct, table_num(t, r, "gpu_pct"));
	}
}

static void from_fdinfo(struct merge *m)
{
	static const char *const classes[4] = { "render_pct", "compute_pct", "copy_pct", "video_pct" };

	EACH_ROW(m, "memory.clients", t, r) {
		struct proc *p = proc_of(m, t, r, SRC_FDINFO);
		struct on_gpu *g = p ? gpu_of(m, p, table_str(t, r, "dev")) : NULL;
		double mem = table_num(t, r, "resident_bytes");

		if (!g)
			continue;
		g->fdinfo_mem = num_add_known(g->fdinfo_mem, isnan(mem) ? table_num(t, r, "total_bytes") : mem);
		g->fdinfo_pct = num_add_known(g->fdinfo_pct, table_num(t, r, "busy_pct"));
	}
	EACH_ROW(m, "memory.processes", t, r) {
		struct proc *p = proc_of(m, t, r, SRC_FDINFO);

		for (int c = 0; p && c < 4; c++)
			p->engine[c] = table_num(t, r, classes[c]);
	}
}

/* NVML names a GPU by its index: its PCI address is in nvidia.gpus. */
static const char *nvml_bus(const struct merge *m, double gpu)
{
	size_t row;

	return row_index_find(&m->nvidia_gpus, gpu, 0, &row) ?
		       table_str(snapshot_table(m->s, "nvidia.gpus"), row, "bus_id") :
		       "";
}

static void from_nvidia(struct merge *m)
{
	if (row_index_build(&m->nvidia_gpus, snapshot_table(m->s, "nvidia.gpus"), "gpu", NULL)) {
		m->failed = true;
		return;
	}
	EACH_ROW(m, "nvidia.gpu_processes", t, r) {
		struct proc *p = proc_of(m, t, r, SRC_NVML);
		struct on_gpu *g = p ? gpu_of(m, p, nvml_bus(m, table_num(t, r, "gpu"))) : NULL;

		if (g) {
			g->nvml_mem = num_add_known(g->nvml_mem, table_num(t, r, "mem_bytes"));
			g->nvml_pct = num_add_known(g->nvml_pct, table_num(t, r, "sm_pct"));
		}
	}
	EACH_ROW(m, "nvidia.gpus", t, r)
		m->nvidia_used = num_add_known(m->nvidia_used, table_num(t, r, "mem_used_bytes"));
	EACH_ROW(m, "nvidia.processes", t, r) {
		struct proc *p = proc_of(m, t, r, SRC_CUDA);

		if (p) {
			p->launches = table_num(t, r, "launches_per_s");
			p->sync = table_num(t, r, "sync_pct");
			p->cuda_mem = table_num(t, r, "mem_bytes");
		}
	}
	/* the GPUs its CUDA calls went to, where their bus is known: among its GPUs, with no value of their own */
	EACH_ROW(m, "nvidia.process_gpus", t, r) {
		struct proc *p = table_str(t, r, "bus_id")[0] ? proc_of(m, t, r, SRC_CUDA) : NULL;

		if (p)
			gpu_of(m, p, table_str(t, r, "bus_id"));
	}
}

/*
 * The names the sources did not know, from the calls collector's rows (named
 * in BPF at the call, so known after the process is gone); not a source.
 */
static void names_from_calls(struct merge *m)
{
	static const char *const tables[] = { "calls.ioctls", "calls.fence_waits" };
	size_t unnamed = 0;

	for (size_t i = 0; i < m->n; i++)
		unnamed += !known_name(m->procs[i].comm);
	/* each row once, its process found through the index; no walk when all are named */
	for (size_t k = 0; unnamed && k < sizeof(tables) / sizeof(tables[0]); k++)
		EACH_ROW(m, tables[k], t, r) {
			double pid = table_num(t, r, "pid");
			const char *comm = table_str(t, r, "comm");
			uint32_t i;

			if (isnan(pid) || !known_name(comm) || !key_index_get(&m->by_pid, (uint64_t)pid, &i) ||
			    known_name(m->procs[i].comm))
				continue;
			m->procs[i].comm = comm;
			if (!--unnamed)
				break;
		}
}

static void from_kfd(struct merge *m)
{
	EACH_ROW(m, "kfd.processes", t, r) {
		struct proc *p = proc_of(m, t, r, SRC_KFD);
		struct on_gpu *g = p ? gpu_of(m, p, table_str(t, r, "dev")) : NULL;

		if (g) {
			g->kfd_mem = num_add_known(g->kfd_mem, table_num(t, r, "vram_bytes"));
			p->queues = num_add_known(p->queues, table_num(t, r, "queues"));
		}
	}
}

static double first_known(double a, double b, double c)
{
	return !isnan(a) ? a : !isnan(b) ? b : c;
}

static double max_known(double a, double b, double c)
{
	double v = NAN;

	v = isnan(a) ? v : a;
	v = isnan(b) || (!isnan(v) && v >= b) ? v : b;
	return isnan(c) || (!isnan(v) && v >= c) ? v : c;
}

static void set_f64(struct cell *row, unsigned int col, double v)
{
	if (!isnan(v))
		cell_set_f64(row, col, v);
}

/* Its GPUs' names, in the snapshot's order of devices, then those it does not list (in the order seen). */
static void gpu_names(const struct merge *m, const struct proc *p, char *out, size_t size)
{
	const struct on_gpu *by_order[PROC_GPUS];
	size_t len = 0;
	int n = 0;

	EACH_GPU(m, p, g)
	{ /* an insertion sort, stable: at most PROC_GPUS */
		int k = n++;

		for (; k > 0 && by_order[k - 1]->order > g->order; k--)
			by_order[k] = by_order[k - 1];
		by_order[k] = g;
	}
	*out = '\0';
	for (int i = 0; i < n && len + 1 < size; i++) {
		if (len)
			out[len++] = ',';
		len += text_copy(out + len, size - len, by_order[i]->dev);
	}
}

static void write_row(const struct merge *m, struct table *t, const struct proc *p)
{
	struct cell *row = table_row_add(t);
	char gpus[TABLE_STR_MAX], sources[64] = "", comm[COMM_LEN];
	double gpu = NAN, mem = NAN;

	if (!row)
		return;
	EACH_GPU(m, p, g)
	{
		double pct = first_known(g->sched_pct, g->nvml_pct, g->fdinfo_pct);

		gpu = num_add_known(gpu, isnan(pct) ? NAN : fmin(pct, 100));
		mem = num_add_known(mem, max_known(g->fdinfo_mem, g->nvml_mem, g->kfd_mem));
	}
	gpu_names(m, p, gpus, sizeof(gpus));
	/* else what its calls allocated and kept, at most what the GPUs hold (a context's end frees it) */
	if (isnan(mem) && !isnan(p->cuda_mem))
		mem = isnan(m->nvidia_used) ? p->cuda_mem : fmin(p->cuda_mem, m->nvidia_used);
	for (size_t k = 0, n = 0; k < SRC_COUNT; k++)
		if (p->sources & (1u << k) && n + 1 < sizeof(sources)) {
			if (n)
				sources[n++] = ',';
			n += text_copy(sources + n, sizeof(sources) - n, source_names[k]);
		}
	cell_set_u64(row, GP_PID, p->pid);
	text_copy(comm, sizeof(comm), p->comm);
	cell_set_str(row, GP_COMM, comm);
	if (gpus[0])
		cell_set_str(row, GP_GPUS, gpus);
	set_f64(row, GP_GPU, gpu);
	if (!isnan(mem))
		cell_set_u64(row, GP_MEM, (uint64_t)fmax(0, mem));
	set_f64(row, GP_JOBS, p->jobs);
	set_f64(row, GP_WAIT, p->wait);
	set_f64(row, GP_LAUNCH, p->launches);
	for (int c = 0; c < 4; c++)
		set_f64(row, GP_RENDER + (unsigned int)c, p->engine[c]);
	set_f64(row, GP_SYNC, p->sync);
	if (!isnan(p->queues))
		cell_set_u64(row, GP_QUEUES, (uint64_t)p->queues);
	if (p->cgroup[0])
		cell_set_str(row, GP_CGROUP, p->cgroup);
	cell_set_str(row, GP_SOURCES, sources);
}

/* Drops a gpu.processes s already has (one read from a recording): the merge is rebuilt, never trusted. */
static void drop_old(struct snapshot *s)
{
	for (size_t i = 0; i < s->ntables; i++)
		if (!strcmp(s->tables[i]->desc->name, gpu_processes_table.name)) {
			table_free(s->tables[i]);
			memmove(&s->tables[i], &s->tables[i + 1], (s->ntables - i - 1) * sizeof(s->tables[0]));
			s->ntables--;
			return;
		}
}

int gpu_processes_derive(struct snapshot *s)
{
	struct merge m = { .s = s, .nvidia_used = NAN };
	struct table *t, **grown;

	drop_old(s);
	from_sched(&m);
	from_fdinfo(&m);
	from_nvidia(&m);
	from_kfd(&m);
	names_from_calls(&m);
	t = m.failed ? NULL : table_new(&gpu_processes_table);
	grown = t ? realloc(s->tables, (s->ntables + 1) * sizeof(*grown)) : NULL;
	if (grown) {
		s->tables = grown;
		s->tables[s->ntables++] = t;
		if (table_reserve(t, m.n) == 0)
			for (size_t i = 0; i < m.n; i++)
				write_row(&m, t, &m.procs[i]);
	} else {
		table_free(t);
	}
	key_index_free(&m.by_pid);
	key_index_free(&m.nvidia_gpus);
	key_index_free(&m.by_spelling);
	free(m.spellings);
	free(m.gpus);
	free(m.procs);
	return grown ? 0 : -1;
}
