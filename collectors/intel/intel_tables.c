// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include "collectors/intel/intel_tables.h"
#include "collectors/kit/cells.h"

static const struct col_desc engine_cols[IE_COLS] = {
	[IE_DEV] = { "dev", "DEV", "DRM minor of the i915 device (card<N>)", COL_U64, UNIT_NONE, 3,
		     COL_KEY | COL_ASCENDING },
	[IE_ENGINE] = { "engine", "ENGINE", "engine: rcs render, bcs copy, vcs video, vecs video enhance, ccs compute",
			COL_STR, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[IE_ADDED_PER_S] = { "requests_per_s", "REQ/S", "requests added (i915_request_add) per second",
			     COL_F64, UNIT_PER_S, 8, COL_HISTORY | COL_SPARK },
	[IE_ADDED] = { "requests_total", "REQS", "requests added since the start", COL_U64,
		       UNIT_COUNT, 8, 0 },
	[IE_RETIRED] = { "retired_total", "RETIRED", "requests retired since the start", COL_U64,
			 UNIT_COUNT, 8, COL_WIDE },
	[IE_IN_FLIGHT] = { "in_flight", "INFLIGHT", "added and not yet retired since the start (requests older than the start are not counted)",
			   COL_U64, UNIT_COUNT, 8, 0 },
	[IE_WAITS_PER_S] = { "waits_per_s", "WAIT/S", "client waits on its requests per second",
			     COL_F64, UNIT_PER_S, 7, COL_WIDE },
	[IE_WAIT_PCT] = { "wait_pct", "WAIT%", "time clients spent waiting on its requests, % of the interval (summed over threads)",
			  COL_F64, UNIT_PCT, 6, 0 },
	[IE_EXEC_PCT] = { "busy_pct", "BUSY%", "time requests spent on the hardware (i915_request_in -> _out), % of the interval; needs CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS",
			  COL_F64, UNIT_PCT, 6, COL_HISTORY },
	[IE_EXEC_P50] = { "exec_p50_ns", "EXEC p50", "time on the hardware per request, median (low-level tracepoints)",
			  COL_F64, UNIT_NS, 8, 0 },
	[IE_EXEC_P99] = { "exec_p99_ns", "EXEC p99", "time on the hardware per request, 99th percentile",
			  COL_F64, UNIT_NS, 8, COL_WIDE },
};

const struct table_desc intel_engines = {
	.name = "intel.engines",
	.title = "i915 engines",
	.empty = "No i915 request since the start.",
	.cols = engine_cols,
	.ncols = IE_COLS,
	.sort_col = IE_ADDED_PER_S,
};
TABLE_REGISTER(intel_engines);

static const struct col_desc proc_cols[IP_COLS] = {
	[IP_PID] = { "pid", "PID", "process", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[IP_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[IP_REQ_PER_S] = { "requests_per_s", "REQ/S", "i915 requests it added per second", COL_F64,
			   UNIT_PER_S, 7, COL_HISTORY },
	[IP_XE_JOBS_PER_S] = { "xe_jobs_per_s", "XEJOB/S", "xe jobs it pushed per second", COL_F64,
			       UNIT_PER_S, 7, COL_HISTORY },
	[IP_WAIT_PCT] = { "wait_pct", "WAIT%", "time its threads blocked on i915 requests, % of the interval",
			  COL_F64, UNIT_PCT, 6, COL_HISTORY | COL_SPARK },
	[IP_WAIT_P50] = { "wait_p50_ns", "WAIT p50", "time blocked per wait, median", COL_F64,
			  UNIT_NS, 8, 0 },
	[IP_WAIT_P99] = { "wait_p99_ns", "WAIT p99", "time blocked per wait, 99th percentile",
			  COL_F64, UNIT_NS, 8, COL_WIDE },
	[IP_OBJ_PER_S] = { "objects_per_s", "OBJ/S", "GEM objects (i915) and buffers (xe, 6.17+) created per second",
			   COL_F64, UNIT_PER_S, 6, 0 },
	[IP_OBJ_BYTES_PER_S] = { "object_bytes_per_s", "BYTES/S", "bytes of those per second",
				 COL_F64, UNIT_BYTES_PER_S, 10, 0 },
	[IP_OBJ_BYTES] = { "object_bytes_total", "CREATED", "bytes of objects created since the start",
			   COL_U64, UNIT_BYTES, 8, COL_WIDE },
	[IP_BINDS_PER_S] = { "binds_per_s", "BIND/S", "VMA binds per second (i915_vma_bind, xe_vma_bind)",
			     COL_F64, UNIT_PER_S, 6, 0 },
	[IP_UNBINDS_PER_S] = { "unbinds_per_s", "UNBIND/S", "VMA unbinds per second", COL_F64,
			       UNIT_PER_S, 8, COL_WIDE },
	[IP_FAULTS_PER_S] = { "faults_per_s", "FAULT/S", "GEM object faults per second (all kinds)",
			      COL_F64, UNIT_PER_S, 7, 0 },
	[IP_FAULTS_GTT_R] = { "faults_gtt_read_total", "GTT R", "faults through the GTT, read", COL_U64,
			      UNIT_COUNT, 6, COL_DETAIL },
	[IP_FAULTS_GTT_W] = { "faults_gtt_write_total", "GTT W", "faults through the GTT, write",
			      COL_U64, UNIT_COUNT, 6, COL_DETAIL },
	[IP_FAULTS_CPU_R] = { "faults_cpu_read_total", "CPU R", "CPU-mapped faults, read", COL_U64,
			      UNIT_COUNT, 6, COL_DETAIL },
	[IP_FAULTS_CPU_W] = { "faults_cpu_write_total", "CPU W", "CPU-mapped faults, write", COL_U64,
			      UNIT_COUNT, 6, COL_DETAIL },
	[IP_PREAD_BYTES] = { "pread_bytes_total", "PREAD", "bytes read with GEM pread since the start",
			     COL_U64, UNIT_BYTES, 8, COL_WIDE },
	[IP_PWRITE_BYTES] = { "pwrite_bytes_total", "PWRITE", "bytes written with GEM pwrite since the start",
			      COL_U64, UNIT_BYTES, 8, COL_WIDE },
	[IP_REQUESTS] = { "requests_total", "REQS", "i915 requests since the start", COL_U64,
			  UNIT_COUNT, 8, COL_DETAIL },
	[IP_XE_JOBS] = { "xe_jobs_total", "XE JOBS", "xe jobs since the start", COL_U64, UNIT_COUNT,
			 8, COL_DETAIL },
	[IP_WAITS] = { "waits_total", "WAITS", "request waits since the start", COL_U64, UNIT_COUNT,
		       8, COL_DETAIL },
};

const struct table_desc intel_processes = {
	.name = "intel.processes",
	.title = "Intel GPU work per process",
	.empty = "No process has used an i915 or xe device since the start.",
	.cols = proc_cols,
	.ncols = IP_COLS,
	.sort_col = IP_WAIT_PCT,
};
TABLE_REGISTER(intel_processes);

static const struct col_desc dev_cols[ID_COLS] = {
	[ID_DEV] = { "dev", "DEV", "DRM minor of the i915 device", COL_U64, UNIT_NONE, 3,
		     COL_KEY | COL_ASCENDING },
	[ID_SHRINKS_PER_S] = { "shrinks_per_s", "SHRINK/S", "shrinker calls (i915_gem_shrink) per second: memory pressure",
			       COL_F64, UNIT_PER_S, 8, COL_HISTORY | COL_SPARK },
	[ID_SHRINK_BYTES_PER_S] = { "shrink_target_bytes_per_s", "TARGET/S", "bytes the shrinker was asked to free per second",
				    COL_F64, UNIT_BYTES_PER_S, 10, 0 },
	[ID_SHRINKS] = { "shrinks_total", "SHRINKS", "shrinker calls since the start", COL_U64,
			 UNIT_COUNT, 8, 0 },
	[ID_SHRINK_BYTES] = { "shrink_target_bytes_total", "TARGET", "bytes asked of the shrinker since the start",
			      COL_U64, UNIT_BYTES, 8, 0 },
	[ID_EVICTIONS_PER_S] = { "evictions_per_s", "EVICT/S", "address-space evictions (i915_gem_evict) per second",
				 COL_F64, UNIT_PER_S, 7, 0 },
	[ID_EVICTIONS] = { "evictions_total", "EVICTS", "evictions since the start", COL_U64,
			   UNIT_COUNT, 7, 0 },
};

const struct table_desc intel_devices = {
	.name = "intel.devices",
	.title = "i915 memory pressure",
	.empty = "No i915 shrinker call or eviction since the start.",
	.cols = dev_cols,
	.ncols = ID_COLS,
	.sort_col = ID_SHRINKS_PER_S,
};
TABLE_REGISTER(intel_devices);

static const struct col_desc queue_cols[XQ_COLS] = {
	[XQ_GT] = { "gt", "GT", "the GT (6.17+; 0 before)", COL_U64, UNIT_NONE, 2,
		    COL_KEY | COL_ASCENDING },
	[XQ_GUC_ID] = { "guc_id", "GUC", "the exec queue's GuC id", COL_U64, UNIT_NONE, 5,
			COL_KEY | COL_ASCENDING },
	[XQ_CLASS] = { "class", "CLASS", "its engine class (from the exec-queue events; ? when created before the start)",
		       COL_STR, UNIT_NONE, 8, COL_ASCENDING },
	[XQ_JOBS_PER_S] = { "jobs_per_s", "PUSH/S", "jobs pushed per second", COL_F64, UNIT_PER_S, 7,
			    COL_HISTORY | COL_SPARK },
	[XQ_CREATED] = { "created_total", "CREATED", "jobs created since the start", COL_U64,
			 UNIT_COUNT, 8, COL_WIDE },
	[XQ_PUSHED] = { "pushed_total", "PUSHED", "jobs pushed to the scheduler", COL_U64,
			UNIT_COUNT, 8, 0 },
	[XQ_RAN] = { "ran_total", "RAN", "jobs handed to the GuC", COL_U64, UNIT_COUNT, 8, 0 },
	[XQ_FREED] = { "freed_total", "FREED", "jobs freed", COL_U64, UNIT_COUNT, 8, COL_WIDE },
	[XQ_TIMEDOUT] = { "timedout_total", "TIMEOUT", "jobs that timed out", COL_U64, UNIT_COUNT, 7,
			  0 },
	[XQ_ERRORS] = { "errors_total", "ERRORS", "jobs set in error", COL_U64, UNIT_COUNT, 6, 0 },
	[XQ_LAT_P50] = { "latency_p50_ns", "LAT p50", "push to run, median over the interval",
			 COL_F64, UNIT_NS, 8, 0 },
	[XQ_LAT_P99] = { "latency_p99_ns", "LAT p99", "push to run, 99th percentile", COL_F64,
			 UNIT_NS, 8, COL_WIDE },
};

const struct table_desc xe_queues = {
	.name = "xe.queues",
	.title = "xe exec queues",
	.empty = "No xe job since the start.",
	.cols = queue_cols,
	.ncols = XQ_COLS,
	.sort_col = XQ_JOBS_PER_S,
};
TABLE_REGISTER(xe_queues);

static const struct col_desc move_cols[XM_COLS] = {
	[XM_FROM] = { "from", "FROM", "placement the buffer left (6.8: its memory-type number, #N)",
		      COL_STR, UNIT_NONE, 8, COL_KEY | COL_ASCENDING },
	[XM_TO] = { "to", "TO", "placement it went to", COL_STR, UNIT_NONE, 8,
		    COL_KEY | COL_ASCENDING },
	[XM_PER_S] = { "moves_per_s", "MOVES/S", "buffer moves (xe_bo_move) per second", COL_F64,
		       UNIT_PER_S, 8, COL_HISTORY },
	[XM_BYTES_PER_S] = { "bytes_per_s", "BYTES/S", "bytes moved per second", COL_F64, UNIT_BYTES_PER_S,
			     10, COL_HISTORY | COL_SPARK },
	[XM_COUNT] = { "moves_total", "MOVES", "moves since the start", COL_U64, UNIT_COUNT, 8, 0 },
	[XM_BYTES] = { "bytes_total", "BYTES", "bytes moved since the start", COL_U64, UNIT_BYTES, 8,
		       0 },
};

const struct table_desc xe_moves = {
	.name = "xe.moves",
	.title = "xe buffer moves",
	.empty = "No xe buffer has moved since the start.",
	.cols = move_cols,
	.ncols = XM_COLS,
	.sort_col = XM_BYTES_PER_S,
};
TABLE_REGISTER(xe_moves);

void intel_engine_name(unsigned int cls, unsigned int instance, char *buf, size_t size)
{
	static const char *const names[] = { "rcs", "bcs", "vcs", "vecs", "ccs" };

	if (cls < sizeof(names) / sizeof(names[0]))
		snprintf(buf, size, "%s%u", names[cls], instance);
	else
		snprintf(buf, size, "%u:%u", cls, instance);
}

const char *xe_class_name(int cls)
{
	static const char *const names[] = { "render", "video", "enhance", "copy", "other", "compute" };

	return cls >= 0 && cls < (int)(sizeof(names) / sizeof(names[0])) ? names[cls] : "?";
}

void intel_engine_row(struct cell *row, const struct intel_engine_key *k,
		      const struct intel_engine *now, const struct intel_engine *before,
		      bool low_level, double interval_s)
{
	char name[16];

	intel_engine_name(k->class, k->instance, name, sizeof(name));
	cell_set_u64(row, IE_DEV, k->dev);
	cell_set_str(row, IE_ENGINE, name);
	cell_set_rate(row, IE_ADDED_PER_S, now->added, before->added, interval_s);
	cell_set_u64(row, IE_ADDED, now->added);
	cell_set_u64(row, IE_RETIRED, now->retired);
	cell_set_u64(row, IE_IN_FLIGHT, now->added > now->retired ? now->added - now->retired : 0);
	cell_set_rate(row, IE_WAITS_PER_S, now->waits, before->waits, interval_s);
	cell_set_pct(row, IE_WAIT_PCT, now->wait_ns, before->wait_ns, interval_s);
	if (!low_level)
		return;
	cell_set_pct(row, IE_EXEC_PCT, now->exec_ns, before->exec_ns, interval_s);
	cells_set_quantiles(row, IE_EXEC_P50, IE_EXEC_P99, now->exec_hist, before->exec_hist,
			    now->exec_ns, before->exec_ns, 0, NULL);
}

void intel_dev_row(struct cell *row, uint32_t dev, const struct intel_dev *now,
		   const struct intel_dev *before, double interval_s)
{
	cell_set_u64(row, ID_DEV, dev);
	cell_set_rate(row, ID_SHRINKS_PER_S, now->shrinks, before->shrinks, interval_s);
	cell_set_rate(row, ID_SHRINK_BYTES_PER_S, now->shrink_pages * 4096, before->shrink_pages * 4096,
		      interval_s);
	cell_set_u64(row, ID_SHRINKS, now->shrinks);
	cell_set_u64(row, ID_SHRINK_BYTES, now->shrink_pages * 4096);
	cell_set_rate(row, ID_EVICTIONS_PER_S, now->evictions, before->evictions, interval_s);
	cell_set_u64(row, ID_EVICTIONS, now->evictions);
}

void intel_proc_row(struct cell *row, uint32_t pid, const char *comm, const struct intel_proc *now,
		    const struct intel_proc *before, double interval_s)
{
	uint64_t faults = 0, faults_before = 0;

	for (int i = 0; i < 4; i++) {
		faults += now->faults[i];
		faults_before += before->faults[i];
	}
	cell_set_u64(row, IP_PID, pid);
	cell_set_str(row, IP_COMM, comm);
	cell_set_rate(row, IP_REQ_PER_S, now->requests, before->requests, interval_s);
	cell_set_rate(row, IP_XE_JOBS_PER_S, now->xe_jobs, before->xe_jobs, interval_s);
	cell_set_pct(row, IP_WAIT_PCT, now->wait_ns, before->wait_ns, interval_s);
	cells_set_quantiles(row, IP_WAIT_P50, IP_WAIT_P99, now->wait_hist, before->wait_hist,
			    now->wait_ns, before->wait_ns, 0, NULL);
	cell_set_rate(row, IP_OBJ_PER_S, now->objects, before->objects, interval_s);
	cell_set_rate(row, IP_OBJ_BYTES_PER_S, now->object_bytes, before->object_bytes, interval_s);
	cell_set_u64(row, IP_OBJ_BYTES, now->object_bytes);
	cell_set_rate(row, IP_BINDS_PER_S, now->binds, before->binds, interval_s);
	cell_set_rate(row, IP_UNBINDS_PER_S, now->unbinds, before->unbinds, interval_s);
	cell_set_rate(row, IP_FAULTS_PER_S, faults, faults_before, interval_s);
	cell_set_u64(row, IP_FAULTS_CPU_R, now->faults[0]);
	cell_set_u64(row, IP_FAULTS_CPU_W, now->faults[1]);
	cell_set_u64(row, IP_FAULTS_GTT_R, now->faults[2]);
	cell_set_u64(row, IP_FAULTS_GTT_W, now->faults[3]);
	cell_set_u64(row, IP_PREAD_BYTES, now->pread_bytes);
	cell_set_u64(row, IP_PWRITE_BYTES, now->pwrite_bytes);
	cell_set_u64(row, IP_REQUESTS, now->requests);
	cell_set_u64(row, IP_XE_JOBS, now->xe_jobs);
	cell_set_u64(row, IP_WAITS, now->waits);
}

void xe_queue_row(struct cell *row, const struct xe_queue_key *k, const struct xe_queue *now,
		  const struct xe_queue *before, double interval_s)
{
	cell_set_u64(row, XQ_GT, k->gt_id);
	cell_set_u64(row, XQ_GUC_ID, k->guc_id);
	cell_set_str(row, XQ_CLASS, xe_class_name((int)now->class1 - 1));
	cell_set_rate(row, XQ_JOBS_PER_S, now->pushed, before->pushed, interval_s);
	cell_set_u64(row, XQ_CREATED, now->created);
	cell_set_u64(row, XQ_PUSHED, now->pushed);
	cell_set_u64(row, XQ_RAN, now->ran);
	cell_set_u64(row, XQ_FREED, now->freed);
	cell_set_u64(row, XQ_TIMEDOUT, now->timedout);
	cell_set_u64(row, XQ_ERRORS, now->errors);
	cells_set_quantiles(row, XQ_LAT_P50, XQ_LAT_P99, now->latency_hist, before->latency_hist,
			    now->latency_ns, before->latency_ns, 0, NULL);
}

void xe_move_row(struct cell *row, const struct xe_move_key *k, const struct xe_move *now,
		 const struct xe_move *before, double interval_s)
{
	char from[XE_PLACEMENT_NAME + 1], to[XE_PLACEMENT_NAME + 1];

	memcpy(from, k->from, XE_PLACEMENT_NAME);
	memcpy(to, k->to, XE_PLACEMENT_NAME);
	from[XE_PLACEMENT_NAME] = to[XE_PLACEMENT_NAME] = '\0';
	cell_set_str(row, XM_FROM, from);
	cell_set_str(row, XM_TO, to);
	cell_set_rate(row, XM_PER_S, now->count, before->count, interval_s);
	cell_set_rate(row, XM_BYTES_PER_S, now->bytes, before->bytes, interval_s);
	cell_set_u64(row, XM_COUNT, now->count);
	cell_set_u64(row, XM_BYTES, now->bytes);
}
