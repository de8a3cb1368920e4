/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The Intel collector's tables: i915 engines and devices, processes (i915 and xe), xe queues and moves. */
#ifndef GPUTOP_INTEL_TABLES_H
#define GPUTOP_INTEL_TABLES_H

#include <stdbool.h>
#include <stdint.h>
#include "bpf/intel.h"
#include "model/table.h"

enum intel_engine_col {
	IE_DEV,
	IE_ENGINE,
	IE_ADDED_PER_S,
	IE_ADDED,
	IE_RETIRED,
	IE_IN_FLIGHT,
	IE_WAITS_PER_S,
	IE_WAIT_PCT,
	IE_EXEC_PCT,
	IE_EXEC_P50,
	IE_EXEC_P99,
	IE_COLS
};

enum intel_proc_col {
	IP_PID,
	IP_COMM,
	IP_REQ_PER_S,
	IP_XE_JOBS_PER_S,
	IP_WAIT_PCT,
	IP_WAIT_P50,
	IP_WAIT_P99,
	IP_OBJ_PER_S,
	IP_OBJ_BYTES_PER_S,
	IP_OBJ_BYTES,
	IP_BINDS_PER_S,
	IP_UNBINDS_PER_S,
	IP_FAULTS_PER_S,
	IP_FAULTS_GTT_R,
	IP_FAULTS_GTT_W,
	IP_FAULTS_CPU_R,
	IP_FAULTS_CPU_W,
	IP_PREAD_BYTES,
	IP_PWRITE_BYTES,
	IP_REQUESTS,
	IP_XE_JOBS,
	IP_WAITS,
	IP_COLS
};

enum intel_dev_col {
	ID_DEV,
	ID_SHRINKS_PER_S,
	ID_SHRINK_BYTES_PER_S,
	ID_SHRINKS,
	ID_SHRINK_BYTES,
	ID_EVICTIONS_PER_S,
	ID_EVICTIONS,
	ID_COLS
};

enum xe_queue_col {
	XQ_GT,
	XQ_GUC_ID,
	XQ_CLASS,
	XQ_JOBS_PER_S,
	XQ_CREATED,
	XQ_PUSHED,
	XQ_RAN,
	XQ_FREED,
	XQ_TIMEDOUT,
	XQ_ERRORS,
	XQ_LAT_P50,
	XQ_LAT_P99,
	XQ_COLS
};

enum xe_move_col { XM_FROM, XM_TO, XM_PER_S, XM_BYTES_PER_S, XM_COUNT, XM_BYTES, XM_COLS };

extern const struct table_desc intel_engines, intel_processes, intel_devices, xe_queues, xe_moves;

/* "rcs0", "bcs1" ... for an i915 uabi engine class and instance. */
void intel_engine_name(unsigned int cls, unsigned int instance, char *buf, size_t size);
/* "render", "copy" ... for enum xe_engine_class; "?" when unknown. */
const char *xe_class_name(int cls);

/* Rows from the BPF maps' cumulative counters, now and at the last read, over interval_s. */
/* low_level: the kernel has i915's request in/out tracepoints (time on the hardware). */
void intel_engine_row(struct cell *row, const struct intel_engine_key *k,
		      const struct intel_engine *now, const struct intel_engine *before,
		      bool low_level, double interval_s);
void intel_dev_row(struct cell *row, uint32_t dev, const struct intel_dev *now,
		   const struct intel_dev *before, double interval_s);
void intel_proc_row(struct cell *row, uint32_t pid, const char *comm, const struct intel_proc *now,
		    const struct intel_proc *before, double interval_s);
void xe_queue_row(struct cell *row, const struct xe_queue_key *k, const struct xe_queue *now,
		  const struct xe_queue *before, double interval_s);
void xe_move_row(struct cell *row, const struct xe_move_key *k, const struct xe_move *now,
		 const struct xe_move *before, double interval_s);

#endif
