// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stddef.h>
#include "collectors/amdgpu/amdgpu_tables.h"
#include "collectors/kit/cells.h"
#include "core/counter.h"
#include <linux/types.h>
#include "bpf/amdgpu.h"

static const struct col_desc ring_cols[AR_COLS] = {
	[AR_RING] = { "ring", "RING", "amdgpu ring (struct amdgpu_ring's name; rings of the same name on several GPUs are summed)",
		      COL_STR, UNIT_NONE, 14, COL_KEY | COL_ASCENDING },
	[AR_SUBS_PER_S] = { "submissions_per_s", "SUBMIT/S", "command submissions (amdgpu_cs_ioctl) per second",
			    COL_F64, UNIT_PER_S, 8, COL_HISTORY | COL_SPARK },
	[AR_SUBS] = { "submissions_total", "SUBMITS", "command submissions since the start", COL_U64,
		      UNIT_COUNT, 8, 0 },
	[AR_IBS_PER_SUB] = { "ibs_per_submission", "IB/SUB", "indirect buffers per submission over the interval",
			     COL_F64, UNIT_NONE, 6, 0 },
	[AR_RUNS] = { "runs_total", "RUNS", "jobs handed to the ring (amdgpu_sched_run_job) since the start",
		      COL_U64, UNIT_COUNT, 8, COL_WIDE },
	[AR_KERNEL_RUNS] = { "kernel_runs_total", "KERNEL", "of those, jobs no submission was seen for: the kernel's own (page tables, moves, clears) or submitted before the start",
			     COL_U64, UNIT_COUNT, 7, COL_WIDE },
	[AR_LAT_P50] = { "latency_p50_ns", "LAT p50", "submission to run, median over the interval",
			 COL_F64, UNIT_NS, 8, 0 },
	[AR_LAT_P99] = { "latency_p99_ns", "LAT p99", "submission to run, 99th percentile over the interval",
			 COL_F64, UNIT_NS, 8, 0 },
	[AR_FLUSH_PER_S] = { "vm_flushes_per_s", "FLUSH/S", "VM flushes (amdgpu_vm_flush) per second",
			     COL_F64, UNIT_PER_S, 7, COL_WIDE },
	[AR_FLUSHES] = { "vm_flushes_total", "FLUSHES", "VM flushes since the start", COL_U64,
			 UNIT_COUNT, 8, COL_DETAIL },
};

const struct table_desc amdgpu_rings = {
	.name = "amdgpu.rings",
	.title = "amdgpu rings",
	.empty = "No amdgpu submission or job since the start.",
	.cols = ring_cols,
	.ncols = AR_COLS,
	.sort_col = AR_SUBS_PER_S,
};
TABLE_REGISTER(amdgpu_rings);

static const struct col_desc move_cols[AM_COLS] = {
	[AM_FROM] = { "from", "FROM", "memory type the buffer left", COL_STR, UNIT_NONE, 10,
		      COL_KEY | COL_ASCENDING },
	[AM_TO] = { "to", "TO", "memory type it went to", COL_STR, UNIT_NONE, 10,
		    COL_KEY | COL_ASCENDING },
	[AM_PER_S] = { "moves_per_s", "MOVES/S", "buffer moves per second (amdgpu_bo_move): VRAM to GTT repeatedly is thrashing",
		       COL_F64, UNIT_PER_S, 8, COL_HISTORY },
	[AM_BYTES_PER_S] = { "bytes_per_s", "BYTES/S", "bytes moved per second", COL_F64, UNIT_BYTES_PER_S,
			     10, COL_HISTORY | COL_SPARK },
	[AM_COUNT] = { "moves_total", "MOVES", "moves since the start", COL_U64, UNIT_COUNT, 8, 0 },
	[AM_BYTES] = { "bytes_total", "BYTES", "bytes moved since the start", COL_U64, UNIT_BYTES, 8,
		       0 },
};

const struct table_desc amdgpu_migrations = {
	.name = "amdgpu.migrations",
	.title = "Buffer migrations",
	.empty = "No buffer has moved between VRAM, GTT and system memory since the start.",
	.cols = move_cols,
	.ncols = AM_COLS,
	.sort_col = AM_BYTES_PER_S,
};
TABLE_REGISTER(amdgpu_migrations);

static const struct col_desc proc_cols[AP_COLS] = {
	[AP_PID] = { "pid", "PID", "process that created buffers or mapped them", COL_U64, UNIT_NONE, 7,
		     COL_KEY | COL_ASCENDING },
	[AP_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[AP_BO_PER_S] = { "bos_per_s", "BO/S", "buffer objects created per second", COL_F64,
			  UNIT_PER_S, 7, COL_HISTORY },
	[AP_BYTES_PER_S] = { "created_bytes_per_s", "BYTES/S", "bytes of buffer objects created per second",
			     COL_F64, UNIT_BYTES_PER_S, 10, COL_HISTORY | COL_SPARK },
	[AP_VRAM_BYTES] = { "vram_created_bytes_total", "VRAM", "bytes created in VRAM since the start",
			    COL_U64, UNIT_BYTES, 8, 0 },
	[AP_GTT_BYTES] = { "gtt_created_bytes_total", "GTT", "bytes created in GTT since the start",
			   COL_U64, UNIT_BYTES, 8, 0 },
	[AP_CPU_BYTES] = { "cpu_created_bytes_total", "CPU", "bytes created in system memory since the start",
			   COL_U64, UNIT_BYTES, 8, COL_WIDE },
	[AP_OTHER_BYTES] = { "other_created_bytes_total", "OTHER", "bytes created in other types (GDS, GWS, OA, doorbell ...)",
			     COL_U64, UNIT_BYTES, 8, COL_DETAIL },
	[AP_BOS] = { "bos_total", "BOS", "buffer objects created since the start", COL_U64,
		     UNIT_COUNT, 7, COL_WIDE },
	[AP_MAPS_PER_S] = { "maps_per_s", "MAP/S", "GPU VM mappings (amdgpu_vm_bo_map) per second",
			    COL_F64, UNIT_PER_S, 6, 0 },
	[AP_UNMAPS_PER_S] = { "unmaps_per_s", "UNMAP/S", "GPU VM unmappings per second", COL_F64,
			      UNIT_PER_S, 7, COL_WIDE },
	[AP_MAPS] = { "maps_total", "MAPS", "mappings since the start", COL_U64, UNIT_COUNT, 7,
		      COL_DETAIL },
	[AP_UNMAPS] = { "unmaps_total", "UNMAPS", "unmappings since the start", COL_U64, UNIT_COUNT,
			7, COL_DETAIL },
	[AP_MAPPED_BYTES] = { "mapped_bytes_total", "MAPPED", "bytes of GPU address space mapped since the start",
			      COL_U64, UNIT_BYTES, 8, COL_DETAIL },
};

const struct table_desc amdgpu_processes = {
	.name = "amdgpu.processes",
	.title = "amdgpu buffers per process",
	.empty = "No process has created an amdgpu buffer object or mapping since the start.",
	.cols = proc_cols,
	.ncols = AP_COLS,
	.sort_col = AP_BYTES_PER_S,
};
TABLE_REGISTER(amdgpu_processes);

static const struct col_desc submitter_cols[AS_COLS] = {
	[AS_PID] = { "pid", "PID", "process that submitted", COL_U64, UNIT_NONE, 7,
		     COL_KEY | COL_ASCENDING },
	[AS_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[AS_RING] = { "ring", "RING", "the ring", COL_STR, UNIT_NONE, 14, COL_KEY | COL_ASCENDING },
	[AS_SUBS_PER_S] = { "submissions_per_s", "SUBMIT/S", "its submissions to the ring per second",
			    COL_F64, UNIT_PER_S, 8, COL_HISTORY },
	[AS_SUBS] = { "submissions_total", "SUBMITS", "since the start", COL_U64, UNIT_COUNT, 8, 0 },
	[AS_IBS] = { "ibs_total", "IBS", "indirect buffers in them", COL_U64, UNIT_COUNT, 8, 0 },
};

const struct table_desc amdgpu_submitters = {
	.name = "amdgpu.submitters",
	.title = "amdgpu submissions per process and ring",
	.empty = "No process has submitted to an amdgpu ring since the start.",
	.cols = submitter_cols,
	.ncols = AS_COLS,
	.sort_col = AS_SUBS_PER_S,
};
TABLE_REGISTER(amdgpu_submitters);

static const struct col_desc iv_cols[AI_COLS] = {
	[AI_CLIENT] = { "client_id", "CL", "interrupt-handler client id (0 on pre-SOC15 GPUs: legacy)",
			COL_U64, UNIT_NONE, 3, COL_KEY | COL_ASCENDING },
	[AI_SRC] = { "src_id", "SRC", "source id within the client", COL_U64, UNIT_NONE, 4,
		     COL_KEY | COL_ASCENDING },
	[AI_PASID] = { "pasid", "PASID", "process address-space id the vector names (0: none)",
		       COL_U64, UNIT_NONE, 6, COL_KEY | COL_ASCENDING },
	[AI_CLIENT_NAME] = { "client", "CLIENT", "the client's name", COL_STR, UNIT_NONE, 9,
			     COL_ASCENDING },
	[AI_SRC_NAME] = { "source", "SOURCE", "the source's name where known", COL_STR, UNIT_NONE,
			  20, COL_ASCENDING },
	[AI_PID] = { "pid", "PID", "process that opened the device with this PASID (amdgpu_pasid_allocated seen)",
		     COL_U64, UNIT_NONE, 7, COL_WIDE },
	[AI_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_WIDE },
	[AI_PER_S] = { "per_s", "IV/S", "interrupt vectors per second", COL_F64, UNIT_PER_S, 8,
		       COL_HISTORY | COL_SPARK },
	[AI_TOTAL] = { "total", "TOTAL", "since the start", COL_U64, UNIT_COUNT, 9, 0 },
	[AI_VMID] = { "vmid", "VMID", "VMID of the last one", COL_U64, UNIT_NONE, 4, COL_WIDE },
	[AI_RING_ID] = { "ring_id", "RINGID", "ring id of the last one", COL_U64, UNIT_NONE, 6,
			 COL_DETAIL },
};

const struct table_desc amdgpu_interrupts = {
	.name = "amdgpu.interrupts",
	.title = "amdgpu interrupt vectors",
	.empty = "No amdgpu interrupt vector (amdgpu_iv) since the start.",
	.cols = iv_cols,
	.ncols = AI_COLS,
	.sort_col = AI_PER_S,
};
TABLE_REGISTER(amdgpu_interrupts);

const char *amdgpu_domain_name(unsigned int type)
{
	static const char *const names[AMD_DOMAINS] = { "CPU", "GTT", "VRAM", "GDS", "GWS",
							 "OA", "PREEMPT", "DOORBELL", "MMIO_REMAP",
							 "other" };

	return names[type < AMD_DOMAINS ? type : AMD_DOMAINS - 1];
}

/* SOC15 interrupt-handler clients (soc15_ih_clientid.h). */
const char *amdgpu_iv_client_name(unsigned int client)
{
	static const char *const names[] = {
		"IH",	 "ACP",	  "ATHUB",  "BIF",    "DCE",	  "ISP",	"PCIE0", "RLC",
		"SDMA0", "SDMA1", "SE0SH",  "SE1SH",  "SE2SH",	  "SE3SH",	"UVD1",	 "THM",
		"UVD",	 "VCE0",  "VMC",    "XDMA",   "GRBM_CP",  "ATS",	"ROM_SMUIO", "DF",
		"VCE1",	 "PWR",	  NULL,	    "UTCL2",  "EA",	  "UTCL2LOG",	"MP0",	 "MP1",
	};

	return client < sizeof(names) / sizeof(names[0]) ? names[client] : NULL;
}

/* The sources every GPU raises (gfx v9+ and the legacy VI ids agree on these numbers). */
const char *amdgpu_iv_source_name(unsigned int client, unsigned int src)
{
	switch (src) {
	case 181:
		return client == 0 || client == 20 ? "CP end of pipe" : NULL;
	case 184:
		return client == 0 || client == 20 ? "CP privileged reg" : NULL;
	case 185:
		return client == 0 || client == 20 ? "CP privileged instr" : NULL;
	case 224:
		return client == 0 || client == 8 || client == 9 ? "SDMA trap" : NULL;
	case 146:
	case 147:
		return client == 0 ? "VM protection fault" : NULL;
	case 0:
		return client == 18 || client == 27 || client == 6 ? "VM page fault" : NULL;
	default:
		return NULL;
	}
}

void amdgpu_ring_row(struct cell *row, const char *ring, const struct amd_ring *now,
		     const struct amd_ring *before, double interval_s)
{
	uint64_t subs = counter_delta(now->submissions, before->submissions);

	cell_set_str(row, AR_RING, ring);
	cell_set_rate(row, AR_SUBS_PER_S, now->submissions, before->submissions, interval_s);
	cell_set_u64(row, AR_SUBS, now->submissions);
	if (subs)
		cell_set_f64(row, AR_IBS_PER_SUB,
			     (double)counter_delta(now->ibs, before->ibs) / (double)subs);
	cell_set_u64(row, AR_RUNS, now->runs);
	cell_set_u64(row, AR_KERNEL_RUNS, now->kernel_runs);
	cells_set_quantiles(row, AR_LAT_P50, AR_LAT_P99, now->latency_hist, before->latency_hist,
			    now->latency_ns, before->latency_ns, 0, NULL);
	cell_set_rate(row, AR_FLUSH_PER_S, now->flushes, before->flushes, interval_s);
	cell_set_u64(row, AR_FLUSHES, now->flushes);
}

void amdgpu_move_row(struct cell *row, unsigned int from, unsigned int to,
		     const struct amd_move *now, const struct amd_move *before, double interval_s)
{
	cell_set_str(row, AM_FROM, amdgpu_domain_name(from));
	cell_set_str(row, AM_TO, amdgpu_domain_name(to));
	cell_set_rate(row, AM_PER_S, now->count, before->count, interval_s);
	cell_set_rate(row, AM_BYTES_PER_S, now->bytes, before->bytes, interval_s);
	cell_set_u64(row, AM_COUNT, now->count);
	cell_set_u64(row, AM_BYTES, now->bytes);
}

void amdgpu_submitter_row(struct cell *row, const struct amd_submitter_key *k, const char *comm,
			  const char *ring, const struct amd_submitter *now,
			  const struct amd_submitter *before, double interval_s)
{
	cell_set_u64(row, AS_PID, k->tgid);
	cell_set_str(row, AS_COMM, comm);
	cell_set_str(row, AS_RING, ring);
	cell_set_rate(row, AS_SUBS_PER_S, now->submissions, before->submissions, interval_s);
	cell_set_u64(row, AS_SUBS, now->submissions);
	cell_set_u64(row, AS_IBS, now->ibs);
}

void amdgpu_proc_row(struct cell *row, uint32_t pid, const char *comm, const struct amd_proc *now,
		     const struct amd_proc *before, double interval_s)
{
	uint64_t bos = 0, bos_before = 0, bytes = 0, bytes_before = 0, other = 0;

	for (int d = 0; d < AMD_DOMAINS; d++) {
		bos += now->created[d];
		bos_before += before->created[d];
		bytes += now->created_bytes[d];
		bytes_before += before->created_bytes[d];
		if (d > 2)
			other += now->created_bytes[d];
	}
	cell_set_u64(row, AP_PID, pid);
	cell_set_str(row, AP_COMM, comm);
	cell_set_rate(row, AP_BO_PER_S, bos, bos_before, interval_s);
	cell_set_rate(row, AP_BYTES_PER_S, bytes, bytes_before, interval_s);
	cell_set_u64(row, AP_VRAM_BYTES, now->created_bytes[2]);
	cell_set_u64(row, AP_GTT_BYTES, now->created_bytes[1]);
	cell_set_u64(row, AP_CPU_BYTES, now->created_bytes[0]);
	cell_set_u64(row, AP_OTHER_BYTES, other);
	cell_set_u64(row, AP_BOS, bos);
	cell_set_rate(row, AP_MAPS_PER_S, now->maps, before->maps, interval_s);
	cell_set_rate(row, AP_UNMAPS_PER_S, now->unmaps, before->unmaps, interval_s);
	cell_set_u64(row, AP_MAPS, now->maps);
	cell_set_u64(row, AP_UNMAPS, now->unmaps);
	cell_set_u64(row, AP_MAPPED_BYTES, now->mapped_bytes);
}

void amdgpu_iv_row(struct cell *row, const struct amd_iv_key *k, uint32_t pid, const char *comm,
		   const struct amd_iv *now, const struct amd_iv *before, double interval_s)
{
	const char *client = amdgpu_iv_client_name(k->client_id);
	const char *src = amdgpu_iv_source_name(k->client_id, k->src_id);

	cell_set_u64(row, AI_CLIENT, k->client_id);
	cell_set_u64(row, AI_SRC, k->src_id);
	cell_set_u64(row, AI_PASID, k->pasid);
	cell_set_str(row, AI_CLIENT_NAME, client ? client : "?");
	if (src)
		cell_set_str(row, AI_SRC_NAME, src);
	if (pid) {
		cell_set_u64(row, AI_PID, pid);
		cell_set_str(row, AI_COMM, comm);
	}
	cell_set_rate(row, AI_PER_S, now->count, before->count, interval_s);
	cell_set_u64(row, AI_TOTAL, now->count);
	cell_set_u64(row, AI_VMID, now->vmid);
	cell_set_u64(row, AI_RING_ID, now->ring_id);
}
