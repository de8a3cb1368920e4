/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The amdgpu collector's tables: rings, migrations, processes, submitters, interrupt vectors. */
#ifndef GPUTOP_AMDGPU_TABLES_H
#define GPUTOP_AMDGPU_TABLES_H

#include <stdint.h>
#include "bpf/amdgpu.h"
#include "model/table.h"

enum amd_ring_col {
	AR_RING,
	AR_SUBS_PER_S,
	AR_SUBS,
	AR_IBS_PER_SUB,
	AR_RUNS,
	AR_KERNEL_RUNS,
	AR_LAT_P50,
	AR_LAT_P99,
	AR_FLUSH_PER_S,
	AR_FLUSHES,
	AR_COLS
};

enum amd_move_col {
	AM_FROM,
	AM_TO,
	AM_PER_S,
	AM_BYTES_PER_S,
	AM_COUNT,
	AM_BYTES,
	AM_COLS
};

enum amd_proc_col {
	AP_PID,
	AP_COMM,
	AP_BO_PER_S,
	AP_BYTES_PER_S,
	AP_VRAM_BYTES,
	AP_GTT_BYTES,
	AP_CPU_BYTES,
	AP_OTHER_BYTES,
	AP_BOS,
	AP_MAPS_PER_S,
	AP_UNMAPS_PER_S,
	AP_MAPS,
	AP_UNMAPS,
	AP_MAPPED_BYTES,
	AP_COLS
};

enum amd_submitter_col {
	AS_PID,
	AS_COMM,
	AS_RING,
	AS_SUBS_PER_S,
	AS_SUBS,
	AS_IBS,
	AS_COLS
};

enum amd_iv_col {
	AI_CLIENT,
	AI_SRC,
	AI_PASID,
	AI_CLIENT_NAME,
	AI_SRC_NAME,
	AI_PID,
	AI_COMM,
	AI_PER_S,
	AI_TOTAL,
	AI_VMID,
	AI_RING_ID,
	AI_COLS
};

extern const struct table_desc amdgpu_rings, amdgpu_migrations, amdgpu_processes,
	amdgpu_submitters, amdgpu_interrupts;

/* Names of TTM memory types (amdgpu_bo_create's type, amdgpu_bo_move's placements). */
const char *amdgpu_domain_name(unsigned int type);
/* Names of interrupt-handler clients and of the best-known sources; NULL when unknown. */
const char *amdgpu_iv_client_name(unsigned int client);
const char *amdgpu_iv_source_name(unsigned int client, unsigned int src);

/* Rows from the BPF maps' cumulative counters, now and at the last read, over interval_s. */
void amdgpu_ring_row(struct cell *row, const char *ring, const struct amd_ring *now,
		     const struct amd_ring *before, double interval_s);
void amdgpu_move_row(struct cell *row, unsigned int from, unsigned int to,
		     const struct amd_move *now, const struct amd_move *before, double interval_s);
void amdgpu_submitter_row(struct cell *row, const struct amd_submitter_key *k, const char *comm,
			  const char *ring, const struct amd_submitter *now,
			  const struct amd_submitter *before, double interval_s);
void amdgpu_proc_row(struct cell *row, uint32_t pid, const char *comm, const struct amd_proc *now,
		     const struct amd_proc *before, double interval_s);
/* pid 0: the vector's PASID names no known process (comm unused then). */
void amdgpu_iv_row(struct cell *row, const struct amd_iv_key *k, uint32_t pid, const char *comm,
		   const struct amd_iv *now, const struct amd_iv *before, double interval_s);

#endif
