// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * GPU time on NVIDIA from the CUPTI companion library (docs/gpu-time.md): uprobes on its probe
 * functions in every libgputop-cupti.so file found (collectors/kit/cupti_libs.c), the records' with the
 * library's semaphore, which wakes the library in each process that maps it. Per process, CUDA
 * device, kind and kernel: count, GPU time, mean, p50, p99, max, the same of queue times
 * (nvidia.gpu_time); per process
 * and device: GPU time, busy time and shares (nvidia.gpu_busy, gpu_busy.c). A process
 * gone is shown once more (its last records come with its exit), then its rows go; its drop counts
 * stay in the collector's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collectors/collector.h"
#include "collectors/gpu_time/gpu_busy.h"
#include "collectors/gpu_time/gpu_time_tables.h"
#include "collectors/gpu_time/gt_capture.h"
#include "collectors/kit/cupti_libs.h"
#include "collectors/kit/map_walk.h"
#include "collectors/kit/name_cache.h"
#include "collectors/kit/proc_info.h"
#include "cupti.skel.h"

#define RESCAN_TICKS 4 /* processes started with the library since: found this often */
#define GONE_MAX 256 /* processes gone shown once more at one read; past that their rows go at once */
#define NAME_CACHE 256 /* kernel names demangled, kept by (process, name id): 1 MiB at most */

static const char *const drop_names[CUPTI_DROP_MAX] = {
	[CUPTI_DROP_KERNELS_FULL] = "gpu_time_rows_full",    [CUPTI_DROP_NAMES_FULL] = "gpu_time_names_full",
	[CUPTI_DROP_PROCS_FULL] = "gpu_time_processes_full", [CUPTI_DROP_READ] = "gpu_time_unreadable",
	[CUPTI_DROP_BUSY_FULL] = "gpu_time_busy_full",	     [CUPTI_DROP_HISTS_FULL] = "gpu_time_histograms_full",
	[CUPTI_DROP_CAPTURE_FULL] = "gpu_time_capture_full",
};

struct gpu_time_priv {
	struct cupti_bpf *skel;
	struct cupti_libs libs;
	unsigned int ticks;
	/* the library's counts of processes gone, and of those running at this read */
	uint64_t gone[3], now[3]; /* CUPTI's drops, the library's, records this program missed */
	struct table *t;
	struct gpu_busy busy; /* nvidia.gpu_busy */
	struct gt_capture capture; /* --trace: kernels and copies, while a capture runs */
	struct cupti_hist_val hist; /* a row's histograms, read (too large for the stack) */
	/* processes seen gone at the last read (their rows go now), and at this one (shown once more) */
	__u32 gone_last[GONE_MAX], gone_next[GONE_MAX];
	size_t n_gone_last, n_gone_next;
	struct name_cache names; /* NAME_CACHE demangled, by (process, name id); id 0 (no name) never kept */
};

enum proc_state { PROC_ALIVE, PROC_GONE_NOW, PROC_GONE_BEFORE };

/* Gone now: noted for the next read, shown this once (unless GONE_MAX are already). */
static enum proc_state proc_state(struct gpu_time_priv *p, __u32 pid)
{
	size_t i;

	if (!proc_gone(pid))
		return PROC_ALIVE;
	for (i = 0; i < p->n_gone_last; i++)
		if (p->gone_last[i] == pid)
			return PROC_GONE_BEFORE;
	for (i = 0; i < p->n_gone_next; i++)
		if (p->gone_next[i] == pid)
			return PROC_GONE_NOW;
	if (p->n_gone_next == GONE_MAX)
		return PROC_GONE_BEFORE;
	p->gone_next[p->n_gone_next++] = pid;
	return PROC_GONE_NOW;
}

/* Whether pid's rows go now: it was seen gone at the read before. */
static bool gone_before(void *arg, uint32_t pid)
{
	return proc_state(arg, pid) == PROC_GONE_BEFORE;
}

static void gpu_time_probe(struct collector *c)
{
	struct gpu_time_priv *p = calloc(1, sizeof(struct gpu_time_priv));

	if (p &&
	    (gpu_busy_init(&p->busy, gone_before, p) || name_cache_init(&p->names, NAME_CACHE, TABLE_LONG_STR_MAX))) {
		gpu_busy_free(&p->busy);
		free(p);
		p = NULL;
	}
	c->priv = p;
	if (!p)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

static void rescan(struct collector *c)
{
	struct gpu_time_priv *p = c->priv;

	cupti_libs_scan(&p->libs);
	snprintf(c->status.detail, sizeof(c->status.detail), "%zu %s file%s probed%s", p->libs.n, CUPTI_LIB_NAME,
		 p->libs.n == 1 ? "" : "s", p->libs.failed ? ", some could not be" : "");
}

/* The name and status probes first, the records' last with the semaphore: the library wakes then. */
static int attach_lib(struct cupti_lib *lib, const uint64_t *off, void *arg)
{
	struct cupti_bpf *skel = arg;

	lib->links[0] = cupti_lib_uprobe(lib, skel->progs.cupti_name, off[CUPTI_OFF_NAME], 0);
	lib->links[1] = cupti_lib_uprobe(lib, skel->progs.cupti_status, off[CUPTI_OFF_STATUS], 0);
	if (lib->links[0] && lib->links[1])
		lib->links[2] = cupti_lib_uprobe(lib, skel->progs.cupti_records, off[CUPTI_OFF_RECORDS],
						 off[CUPTI_OFF_SEMAPHORE]);
	if (lib->links[2])
		return 0;
	for (int i = 0; i < 2; i++) {
		bpf_link__destroy(lib->links[i]);
		lib->links[i] = NULL;
	}
	return -1;
}

static int gpu_time_open(struct collector *c)
{
	struct gpu_time_priv *p = c->priv;
	int err;

	p->skel = cupti_bpf__open();
	if (!p->skel) {
		collector_load_failed(c, -ENOMEM);
		return -1;
	}
	capture_rb_size(p->skel->maps.capture_rb, c->config && c->config->job_sink);
	err = cupti_bpf__load(p->skel);
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	gt_capture_open(&p->capture, c->config ? c->config->job_sink : NULL, bpf_map__fd(p->skel->maps.capture_rb),
			&p->skel->bss->capture_on, &p->skel->bss->drops[CUPTI_DROP_CAPTURE_FULL],
			bpf_map__fd(p->skel->maps.cupti_names));
	cupti_libs_init(&p->libs, attach_lib, p->skel);
	return 0;
}

static int gpu_time_attach(struct collector *c)
{
	rescan(c);
	return 0;
}

/* A process's entry: its counts kept; deleted the read after it is gone (they join p->gone). */
static bool proc_entry(const void *key, void *value, void *arg)
{
	const struct cupti_proc_val *v = value;
	struct gpu_time_priv *p = arg;
	uint64_t *to = proc_state(p, *(const __u32 *)key) == PROC_GONE_BEFORE ? p->gone : p->now;

	to[0] += v->cupti_dropped;
	to[1] += v->library_dropped;
	to[2] += v->missed;
	return to == p->gone;
}

/* A name of a process gone: deleted, and from the cache (its pid may come again). */
static bool name_entry(const void *key, void *value, void *arg)
{
	const struct cupti_name_key *nk = key;
	struct gpu_time_priv *p = arg;

	(void)value;
	if (proc_state(p, nk->tgid) != PROC_GONE_BEFORE)
		return false;
	name_cache_forget(&p->names, nk->tgid, nk->id);
	return true;
}

/* The name of the key's kernel in its process (gpu_time_name), demangled, into buf; from the cache where it is. */
static void name_of(struct gpu_time_priv *p, const struct cupti_kernel_key *k, char *buf, size_t size)
{
	gpu_time_kernel_name(bpf_map__fd(p->skel->maps.cupti_names), &p->names, k, buf, size);
}

static bool kernel_entry(const void *key, void *value, void *arg)
{
	const struct cupti_kernel_key *k = key;
	struct gpu_time_priv *p = arg;
	char comm[64], name[TABLE_LONG_STR_MAX]; /* demangled: longer than CUPTI's name, whole in the cell */
	struct cell *row;

	if (proc_state(p, k->tgid) == PROC_GONE_BEFORE) {
		bpf_map_delete_elem(bpf_map__fd(p->skel->maps.cupti_hists), k);
		return true;
	}
	row = p->t ? table_row_add(p->t) : NULL;
	if (!row)
		return false;
	proc_comm(k->tgid, comm, sizeof(comm));
	name_of(p, k, name, sizeof(name));
	gpu_time_row(row, k, value,
		     bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.cupti_hists), k, &p->hist) ? NULL : &p->hist, comm,
		     name);
	return false;
}

static int gpu_time_read(struct collector *c, struct model *m)
{
	struct gpu_time_priv *p = c->priv;

	if (++p->ticks % RESCAN_TICKS == 0)
		rescan(c);
	gt_capture_drain(&p->capture); /* before the names of processes gone are deleted */
	p->t = model_table(m, &nvidia_gpu_time);
	memset(p->now, 0, sizeof(p->now));
	map_walk(bpf_map__fd(p->skel->maps.cupti_kernels), sizeof(struct cupti_kernel_key),
		 sizeof(struct cupti_kernel_val), kernel_entry, p);
	gpu_busy_read(&p->busy, bpf_map__fd(p->skel->maps.cupti_busy), m);
	map_walk(bpf_map__fd(p->skel->maps.cupti_procs), sizeof(__u32), sizeof(struct cupti_proc_val), proc_entry, p);
	map_walk(bpf_map__fd(p->skel->maps.cupti_names), sizeof(struct cupti_name_key), sizeof(struct cupti_name_val),
		 name_entry, p);
	memcpy(p->gone_last, p->gone_next, p->n_gone_next * sizeof(p->gone_next[0]));
	p->n_gone_last = p->n_gone_next;
	p->n_gone_next = 0;
	collector_set_drops(c, drop_names, p->skel->bss->drops, CUPTI_DROP_MAX);
	collector_set_drop(c, "gpu_time_cupti_dropped", p->gone[0] + p->now[0]);
	collector_set_drop(c, "gpu_time_library_dropped", p->gone[1] + p->now[1]);
	collector_set_drop(c, "gpu_time_missed", p->gone[2] + p->now[2]);
	collector_set_drop(c, "gpu_time_capture_unplaced", __atomic_load_n(&p->capture.unplaced, __ATOMIC_RELAXED));
	return 0;
}

static void gpu_time_close(struct collector *c)
{
	struct gpu_time_priv *p = c->priv;

	if (!p)
		return;
	cupti_libs_detach(&p->libs);
	gt_capture_close(&p->capture); /* after the probes: the records their last calls wrote */
	cupti_bpf__destroy(p->skel);
	gpu_busy_free(&p->busy);
	name_cache_free(&p->names);
	free(p);
}

static const struct collector_ops gpu_time_collector = {
	.name = "gpu_time", /* id */
	.order = 25,
	.description = "GPU time per CUDA kernel, from CUPTI through libgputop-cupti.so",
	.attaches_later = true, /* uprobes on library files found later */
	.probe = gpu_time_probe,
	.open = gpu_time_open,
	.attach = gpu_time_attach, /* the installed libraries, those processes map */
	.read = gpu_time_read, /* rows; processes gone swept; rescans */
	.close = gpu_time_close,
};
COLLECTOR_REGISTER(gpu_time_collector);
