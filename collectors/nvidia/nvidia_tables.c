// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include "collectors/kit/cells.h"
#include "collectors/nvidia/nvidia_tables.h"

static const struct col_desc proc_cols[NVP_COLS] = {
	[NVP_PID] = { "pid", "PID", "process calling the CUDA driver or an NVIDIA device", COL_U64, UNIT_NONE, 7,
		      COL_KEY | COL_ASCENDING },
	[NVP_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[NVP_CGROUP] = { "cgroup", "CGROUP",
			 "its cgroup, or runtime:id of its container (docker, containerd, podman, cri-o)", COL_STR,
			 UNIT_NONE, 22, COL_ASCENDING | COL_WIDE },
	[NVP_LAUNCH_PER_S] = { "launches_per_s", "LAUNCH/S",
			       "kernel launches per second (cuLaunchKernel, Ex, Cooperative)", COL_F64, UNIT_PER_S, 8,
			       COL_HISTORY | COL_SPARK },
	[NVP_LAUNCHES] = { "launches_total", "LAUNCHES", "kernel launches since start", COL_U64, UNIT_COUNT, 9, 0 },
	[NVP_GRAPH_PER_S] = { "graph_launches_per_s", "GRAPH/S", "CUDA graph launches per second", COL_F64, UNIT_PER_S,
			      7, COL_DETAIL },
	[NVP_GRAPH_LAUNCHES] = { "graph_launches_total", "GRAPHS", "CUDA graph launches since start", COL_U64,
				 UNIT_COUNT, 7, COL_WIDE },
	[NVP_MEM] = { "mem_bytes", "DEVMEM",
		      "device memory it allocated since start (cuMemAlloc*, cuMemCreate) and has not freed by a call; what a "
		      "context's end frees is not seen here (NVML's GPU MEM is what it holds)",
		      COL_U64, UNIT_BYTES, 8, COL_HISTORY },
	[NVP_ALLOCS] = { "allocs_total", "ALLOCS", "successful device allocations since start", COL_U64, UNIT_COUNT, 7,
			 0 },
	[NVP_FREES] = { "frees_total", "FREES", "frees of allocations made since start", COL_U64, UNIT_COUNT, 7,
			COL_WIDE },
	[NVP_ALLOC_BYTES] = { "alloc_bytes_total", "ALLOC B", "bytes allocated since start", COL_U64, UNIT_BYTES, 8,
			      COL_DETAIL },
	[NVP_FREED_BYTES] = { "freed_bytes_total", "FREED B", "bytes freed of those", COL_U64, UNIT_BYTES, 8,
			      COL_DETAIL },
	[NVP_UNKNOWN_FREES] = { "unknown_frees_total", "UNK FREE",
				"frees of memory allocated before the monitor started (size unknown)", COL_U64,
				UNIT_COUNT, 8, COL_WIDE },
	[NVP_FAILED_ALLOCS] = { "failed_allocs_total", "FAILED", "allocation calls that failed", COL_U64, UNIT_COUNT, 6,
				COL_DETAIL },
	[NVP_SYNC_PCT] = { "sync_pct", "SYNC%",
			   "share of the interval its threads spent blocked in cu*Synchronize (summed over threads)",
			   COL_F64, UNIT_PCT, 6, COL_HISTORY },
	[NVP_SYNC_PER_S] = { "syncs_per_s", "SYNC/S", "synchronisation calls completed per second", COL_F64, UNIT_PER_S,
			     7, COL_DETAIL },
	[NVP_SYNC_P50] = { "sync_p50_ns", "SYNC p50", "time blocked per synchronisation, median", COL_F64, UNIT_NS, 8,
			   0 },
	[NVP_SYNC_P99] = { "sync_p99_ns", "SYNC p99", "time blocked per synchronisation, 99th percentile", COL_F64,
			   UNIT_NS, 8, COL_WIDE },
	[NVP_SYNCS] = { "syncs_total", "SYNCS", "synchronisation calls since start", COL_U64, UNIT_COUNT, 7,
			COL_DETAIL },
	[NVP_SYNC_NS] = { "sync_ns_total", "SYNC T",
			  "time its threads spent blocked in cu*Synchronize since start (summed over threads)", COL_U64,
			  UNIT_NS, 8, COL_DETAIL },
	[NVP_IOCTL_PER_S] = { "ioctls_per_s", "IOCTL/S", "ioctls on /dev/nvidia* per second", COL_F64, UNIT_PER_S, 7,
			      COL_HISTORY },
	[NVP_IOCTL_P50] = { "ioctl_p50_ns", "IOC p50", "ioctl latency, median", COL_F64, UNIT_NS, 8, COL_WIDE },
	[NVP_IOCTL_P99] = { "ioctl_p99_ns", "IOC p99", "ioctl latency, 99th percentile", COL_F64, UNIT_NS, 8,
			    COL_DETAIL },
	[NVP_IOCTLS] = { "ioctls_total", "IOCTLS", "ioctls on NVIDIA devices since start", COL_U64, UNIT_COUNT, 8,
			 COL_DETAIL },
	[NVP_UVM_IOCTLS] = { "uvm_ioctls_total", "UVM",
			     "of those ioctls, the ones on /dev/nvidia-uvm: CUDA's unified memory (managed "
			     "allocations, their page faults and migrations)",
			     COL_U64, UNIT_COUNT, 8, COL_DETAIL },
	[NVP_IOCTL_ERRORS] = { "ioctl_errors_total", "IOC ERR", "ioctls that returned an error", COL_U64, UNIT_COUNT, 7,
			       COL_DETAIL },
};

const struct table_desc nvidia_processes = {
	.name = "nvidia.processes",
	.title = "CUDA processes",
	.empty = "No process has called the CUDA driver or an NVIDIA device since the start.",
	.cols = proc_cols,
	.ncols = NVP_COLS,
	.sort_col = NVP_LAUNCH_PER_S,
};
TABLE_REGISTER(nvidia_processes);

static const struct col_desc gpu_cols[NVG_COLS] = {
	[NVG_INDEX] = { "gpu", "GPU", "NVML's index of the GPU", COL_U64, UNIT_NONE, 3, COL_KEY | COL_ASCENDING },
	[NVG_NAME] = { "name", "NAME", "product name", COL_STR, UNIT_NONE, 22, COL_ASCENDING },
	[NVG_BUS] = { "bus_id", "BUS", "PCI address (as Xid reports)", COL_STR, UNIT_NONE, 16,
		      COL_ASCENDING | COL_WIDE },
	/* a label (as gpu), not a gauge */
	[NVG_MINOR] = { "minor", "MINOR",
			"the driver's minor number: its device file is /dev/nvidia<minor> (the "
			"calls collector's device nvidia<minor>)",
			COL_U64, UNIT_NONE, 5, COL_ASCENDING | COL_DETAIL },
	[NVG_MEM_USED] = { "mem_used_bytes", "MEM USED", "device memory in use (all processes)", COL_U64, UNIT_BYTES, 8,
			   COL_HISTORY },
	[NVG_MEM_TOTAL] = { "mem_total_bytes", "MEM TOTAL", "device memory", COL_U64, UNIT_BYTES, 9, 0 },
	[NVG_MEM_PCT] = { "mem_used_pct", "MEM%", "used over total", COL_F64, UNIT_PCT, 5, 0 },
	[NVG_UTIL] = { "util_pct", "UTIL%",
		       "share of the interval (the last second where it is shorter) a kernel was running: the mean "
		       "of the driver's samples in it; its last sample period where it keeps none",
		       COL_F64, UNIT_PCT, 5, COL_HISTORY | COL_SPARK },
	[NVG_MEM_UTIL] = { "mem_util_pct", "MEMBW%", "share of that time device memory was read or written", COL_F64,
			   UNIT_PCT, 6, COL_WIDE | COL_HISTORY }, /* narrow, it gives way to POWER W */
	[NVG_TEMP] = { "temp_c", "TEMP C", "GPU temperature, degrees Celsius", COL_F64, UNIT_CELSIUS, 6, COL_HISTORY },
	[NVG_POWER] = { "power_w", "POWER W", "board power draw, watts", COL_F64, UNIT_WATTS, 7, COL_HISTORY },
	[NVG_POWER_CAP] = { "power_cap_w", "CAP W", "the power limit the driver enforces, watts", COL_F64, UNIT_WATTS,
			    6, COL_WIDE | COL_WITH_PREV },
	[NVG_GFX_MHZ] = { "gfx_mhz", "GFX MHz", "graphics clock", COL_F64, UNIT_MHZ, 7, COL_HISTORY },
	[NVG_SM_MHZ] = { "sm_mhz", "SM MHz", "streaming multiprocessor clock", COL_F64, UNIT_MHZ, 6, COL_WIDE },
	[NVG_MEM_MHZ] = { "mem_mhz", "MEM MHz", "memory clock", COL_F64, UNIT_MHZ, 7, COL_WIDE },
	[NVG_FAN] = { "fan_pct", "FAN%", "fan speed, of its maximum (none on passively cooled boards)", COL_F64,
		      UNIT_PCT, 5, COL_WIDE | COL_IF_KNOWN },
	[NVG_THROTTLE] = { "throttle", "CLOCKS HELD BY",
			   "why the clocks are below their maximum (NVML's clock event reasons), or none", COL_STR,
			   UNIT_NONE, 20, COL_WIDE },
	[NVG_PCIE_TX] = { "pcie_tx_bytes_per_s", "PCIe TX/s",
			  "PCIe bytes sent per second, over the driver's last 20 ms", COL_F64, UNIT_BYTES_PER_S, 10,
			  COL_DETAIL },
	[NVG_PCIE_RX] = { "pcie_rx_bytes_per_s", "PCIe RX/s",
			  "PCIe bytes received per second, over the driver's last 20 ms", COL_F64, UNIT_BYTES_PER_S, 10,
			  COL_DETAIL },
	[NVG_NVLINK_TX] = { "nvlink_tx_bytes_per_s", "NVLink TX/s",
			    "NVLink data bytes sent per second over all its links since the last read (NVML's "
			    "counters); unknown where it has no active NVLink",
			    COL_F64, UNIT_BYTES_PER_S, 11, COL_WIDE | COL_IF_KNOWN },
	[NVG_NVLINK_RX] = { "nvlink_rx_bytes_per_s", "NVLink RX/s",
			    "NVLink data bytes received per second over all its links since the last read", COL_F64,
			    UNIT_BYTES_PER_S, 11, COL_WIDE | COL_IF_KNOWN },
	[NVG_MIG] = { "mig_mode", "MIG", "MIG mode: enabled, disabled or unsupported (by this GPU)", COL_STR, UNIT_NONE,
		      11, COL_ASCENDING | COL_WIDE },
};

const struct table_desc nvidia_gpus = {
	.name = "nvidia.gpus",
	.title = "NVIDIA GPUs",
	.empty = "No GPU from NVML (libnvidia-ml.so.1 missing, or a static build: see --list).",
	.cols = gpu_cols,
	.ncols = NVG_COLS,
	.sort_col = NVG_INDEX,
};
TABLE_REGISTER(nvidia_gpus);

static const struct col_desc mig_cols[NVM_COLS] = {
	[NVM_GPU] = { "gpu", "GPU", "NVML's index of the GPU it is part of", COL_U64, UNIT_NONE, 3,
		      COL_KEY | COL_ASCENDING },
	[NVM_INDEX] = { "mig", "MIG", "NVML's index of the MIG device on that GPU", COL_U64,
			UNIT_NONE, 3, COL_KEY | COL_ASCENDING },
	/* keys too: labels of its metrics, not gauges of an ID */
	[NVM_GI] = { "gpu_instance", "GI", "its GPU instance's ID (memory and SMs of its own)",
		     COL_U64, UNIT_NONE, 3, COL_KEY | COL_ASCENDING },
	[NVM_CI] = { "compute_instance", "CI", "its compute instance's ID within that GPU instance",
		     COL_U64, UNIT_NONE, 3, COL_KEY | COL_ASCENDING },
	[NVM_SMS] = { "sm_count", "SMs", "streaming multiprocessors it has", COL_U64, UNIT_COUNT, 4,
		      0 },
	[NVM_MEM_USED] = { "mem_used_bytes", "MEM USED",
			   "device memory in use in its GPU instance (all processes)", COL_U64,
			   UNIT_BYTES, 8, COL_HISTORY },
	[NVM_MEM_TOTAL] = { "mem_total_bytes", "MEM TOTAL", "its GPU instance's device memory",
			    COL_U64, UNIT_BYTES, 9, 0 },
	[NVM_BUS] = { "bus_id", "BUS", "PCI address of the GPU it is part of", COL_STR, UNIT_NONE,
		      16, COL_ASCENDING | COL_WIDE },
	[NVM_UUID] = { "uuid", "UUID", "its UUID (what CUDA_VISIBLE_DEVICES names it by)", COL_STR,
		       UNIT_NONE, 40, COL_ASCENDING | COL_WIDE },
};

const struct table_desc nvidia_mig = {
	.name = "nvidia.mig",
	.title = "MIG devices",
	.empty = "No MIG device (no GPU in MIG mode, or no instance yet).",
	.cols = mig_cols,
	.ncols = NVM_COLS,
	.sort_col = NVM_GPU, /* rows come by GPU, then index: a stable sort keeps that */
};
TABLE_REGISTER(nvidia_mig);

static const struct col_desc gpu_proc_cols[NVQ_COLS] = {
	[NVQ_GPU] = { "gpu", "GPU", "NVML's index of the GPU", COL_U64, UNIT_NONE, 3,
		      COL_KEY | COL_ASCENDING },
	[NVQ_PID] = { "pid", "PID", "process ID (as NVML sees it: the host's)", COL_U64, UNIT_NONE, 7,
		      COL_KEY | COL_ASCENDING },
	[NVQ_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[NVQ_MEM] = { "mem_bytes", "GPU MEM", "device memory the driver accounts to it on this GPU",
		      COL_U64, UNIT_BYTES, 8, COL_HISTORY },
	[NVQ_SM] = { "sm_pct", "SM%", "its use of the GPU's SMs: the mean of the driver's samples of it (about one a second) over "
		     "the window of the GPU's UTIL%; a reading of its own, not a share of UTIL% (the time any "
		     "kernel ran)",
		     COL_F64, UNIT_PCT, 5, COL_HISTORY | COL_SPARK },
	[NVQ_MEM_UTIL] = { "mem_util_pct", "MEMBW%", "its use of device memory bandwidth, sampled as SM%",
			   COL_F64, UNIT_PCT, 6, 0 },
	[NVQ_ENC] = { "enc_pct", "ENC%", "video encoder use", COL_F64, UNIT_PCT, 5, COL_WIDE },
	[NVQ_DEC] = { "dec_pct", "DEC%", "video decoder use", COL_F64, UNIT_PCT, 5, COL_WIDE },
};

const struct table_desc nvidia_gpu_processes = {
	.name = "nvidia.gpu_processes",
	.title = "Processes per GPU (NVML)",
	.empty = "No process holds a context on an NVIDIA GPU (as NVML reports them).",
	.gone = "NVML lists a process only while it holds a GPU context (one may still run without)",
	.cols = gpu_proc_cols,
	.ncols = NVQ_COLS,
	.sort_col = NVQ_MEM,
};
TABLE_REGISTER(nvidia_gpu_processes);

static const struct col_desc kernel_cols[NVK_COLS] = {
	[NVK_PID] = { "pid", "PID", "process ID", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[NVK_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[NVK_KERNEL] = { "kernel", "KERNEL",
			 "the GPU kernel's name as the process asked for it (cuLibraryGetKernel, "
			 "cuModuleGetFunction; cuKernelGetFunction keeps it), demangled, up to 4095 bytes; "
			 "a longer one cut ends \"...[cut, kernel 0x...]\", its handle (one row a handle); "
			 "[kernel 0x...]: a handle named before the monitor started",
			 COL_STR, UNIT_NONE, 40, COL_KEY | COL_ASCENDING | COL_LONG },
	[NVK_HANDLES] = { "handles", "HANDLES", "handles it was launched by (a CUkernel, its CUfunction)", COL_U64,
			  UNIT_NONE, 7, COL_WIDE },
	[NVK_PER_S] = { "launches_per_s", "LAUNCH/S",
			"launches per second (cuLaunchKernel, cuLaunchKernelEx, "
			"cuLaunchCooperativeKernel)",
			COL_F64, UNIT_PER_S, 8, COL_HISTORY | COL_SPARK },
	[NVK_LAUNCHES] = { "launches_total", "LAUNCHES", "launches since start", COL_U64, UNIT_NONE, 9, 0 },
};

const struct table_desc nvidia_kernels = {
	.name = "nvidia.kernels",
	.title = "GPU kernels (CUDA launches)",
	.empty = "No kernel launched since the start (CUDA launches through libcuda's uprobes).",
	.cols = kernel_cols,
	.ncols = NVK_COLS,
	.sort_col = NVK_PER_S,
};
TABLE_REGISTER(nvidia_kernels);

void nvidia_kernel_row(struct cell *row, uint32_t pid, const char *comm, const char *kernel, uint64_t handles,
		       uint64_t now, uint64_t before, double interval_s)
{
	cell_set_u64(row, NVK_PID, pid);
	cell_set_str(row, NVK_COMM, comm);
	cell_set_long_str(row, NVK_KERNEL, kernel);
	cell_set_u64(row, NVK_HANDLES, handles);
	cell_set_rate(row, NVK_PER_S, now, before, interval_s);
	cell_set_u64(row, NVK_LAUNCHES, now);
}

static const struct col_desc xid_cols[NVX_COLS] = {
	[NVX_SEQ] = { "seq", "#", "Xid events numbered in order since start", COL_U64, UNIT_NONE, 4,
		      COL_KEY },
	[NVX_TIME] = { "time", "TIME", "when the driver reported it (local time)", COL_STR, UNIT_NONE,
		       19, 0 },
	[NVX_DEV] = { "dev", "DEVICE", "PCI address of the GPU", COL_STR, UNIT_NONE, 16, COL_ASCENDING },
	[NVX_CODE] = { "xid", "XID", "Xid code (NVIDIA's Xid catalogue says what each means)", COL_U64,
		       UNIT_NONE, 4, 0 },
	[NVX_MSG] = { "msg", "MESSAGE", "the driver's message", COL_STR, UNIT_NONE, 40, COL_ASCENDING },
	[NVX_USERS] = { "users", "ACTIVE PROCESSES",
			"comm[pid] of the processes that used NVIDIA devices in the interval it came in",
			COL_STR, UNIT_NONE, 24, COL_ASCENDING },
	[NVX_PID] = { "pid", "PID", "the task running when the driver reported it (often a driver thread)",
		      COL_U64, UNIT_NONE, 7, COL_ASCENDING | COL_DETAIL },
	[NVX_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15,
		       COL_ASCENDING | COL_DETAIL },
};

const struct table_desc nvidia_xids = {
	.name = "nvidia.xids",
	.title = "Xid errors",
	.empty = "No Xid error since start.",
	.cols = xid_cols,
	.ncols = NVX_COLS,
	.sort_col = NVX_SEQ,
};
TABLE_REGISTER(nvidia_xids);

static const struct col_desc driver_cols[NVD_COLS] = {
	[NVD_FN] = { "function", "FUNCTION", "nvidia.ko function probed (its name in this driver)",
		     COL_STR, UNIT_NONE, 26, COL_KEY | COL_ASCENDING },
	[NVD_WHAT] = { "what", "WHAT", "what the function does", COL_STR, UNIT_NONE, 20,
		       COL_ASCENDING },
	[NVD_VIA] = { "via", "VIA", "kprobe or fentry", COL_STR, UNIT_NONE, 6,
		      COL_ASCENDING | COL_DETAIL },
	[NVD_CALLS] = { "calls_total", "CALLS", "calls since start", COL_U64, UNIT_COUNT, 9, 0 },
	[NVD_PER_S] = { "calls_per_s", "CALLS/S", "calls per second", COL_F64, UNIT_PER_S, 8,
			COL_HISTORY },
};

const struct table_desc nvidia_driver = {
	.name = "nvidia.driver",
	.title = "Driver functions",
	.empty = "No nvidia.ko function probed: --list says why (kprobes and fentry, the module).",
	.cols = driver_cols,
	.ncols = NVD_COLS,
	.sort_col = NVD_PER_S,
};
TABLE_REGISTER(nvidia_driver);

void nvidia_proc_row(struct cell *row, uint32_t pid, const char *comm, const char *cgroup,
		     const struct nv_proc *now, const struct nv_proc *before, double interval_s)
{
	const struct nv_proc *v = now, *l = before;
	double iv = interval_s;

	cell_set_u64(row, NVP_PID, pid);
	cell_set_str(row, NVP_COMM, comm);
	if (cgroup && cgroup[0])
		cell_set_str(row, NVP_CGROUP, cgroup);
	cell_set_rate(row, NVP_LAUNCH_PER_S, v->launches, l->launches, iv);
	cell_set_u64(row, NVP_LAUNCHES, v->launches);
	cell_set_rate(row, NVP_GRAPH_PER_S, v->graph_launches, l->graph_launches, iv);
	cell_set_u64(row, NVP_GRAPH_LAUNCHES, v->graph_launches);
	cell_set_u64(row, NVP_MEM, v->alloc_bytes >= v->freed_bytes ? v->alloc_bytes - v->freed_bytes : 0);
	cell_set_u64(row, NVP_ALLOCS, v->allocs);
	cell_set_u64(row, NVP_FREES, v->frees);
	cell_set_u64(row, NVP_ALLOC_BYTES, v->alloc_bytes);
	cell_set_u64(row, NVP_FREED_BYTES, v->freed_bytes);
	cell_set_u64(row, NVP_UNKNOWN_FREES, v->unknown_frees);
	cell_set_u64(row, NVP_FAILED_ALLOCS, v->failed_allocs);
	cell_set_pct(row, NVP_SYNC_PCT, v->sync_ns, l->sync_ns, iv);
	cell_set_rate(row, NVP_SYNC_PER_S, v->syncs, l->syncs, iv);
	cells_set_quantiles(row, NVP_SYNC_P50, NVP_SYNC_P99, v->sync_hist, l->sync_hist, v->sync_ns,
			    l->sync_ns, 0, NULL);
	cell_set_u64(row, NVP_SYNCS, v->syncs);
	cell_set_u64(row, NVP_SYNC_NS, v->sync_ns);
	cell_set_rate(row, NVP_IOCTL_PER_S, v->ioctls, l->ioctls, iv);
	cells_set_quantiles(row, NVP_IOCTL_P50, NVP_IOCTL_P99, v->ioctl_hist, l->ioctl_hist,
			    v->ioctl_ns, l->ioctl_ns, 0, NULL);
	cell_set_u64(row, NVP_IOCTLS, v->ioctls);
	cell_set_u64(row, NVP_UVM_IOCTLS, v->uvm_ioctls);
	cell_set_u64(row, NVP_IOCTL_ERRORS, v->ioctl_errors);
}

void nvidia_driver_row(struct cell *row, const char *fn, const char *what, const char *via,
		       uint64_t calls, uint64_t calls_before, double interval_s)
{
	cell_set_str(row, NVD_FN, fn);
	cell_set_str(row, NVD_WHAT, what);
	cell_set_str(row, NVD_VIA, via);
	cell_set_u64(row, NVD_CALLS, calls);
	cell_set_rate(row, NVD_PER_S, calls, calls_before, interval_s);
}

static const struct col_desc proc_gpu_cols[NVPG_COLS] = {
	[NVPG_PID] = { "pid", "PID", "process calling the CUDA driver", COL_U64, UNIT_NONE, 7,
		       COL_KEY | COL_ASCENDING },
	[NVPG_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[NVPG_DEV] = { "cuda_device", "CUDA DEV",
		       "the CUDA device ordinal of the calling thread's current context, in the process's own numbering "
		       "(after CUDA_VISIBLE_DEVICES, in CUDA_DEVICE_ORDER: not NVML's index); unknown: calls made while "
		       "that context, or its device, was not seen (made current or created before the monitor started)",
		       COL_STR, UNIT_NONE, 8, COL_KEY | COL_ASCENDING },
	/* a key too: a label of its metrics (as nvidia.gpus' gpu), not a gauge of an index */
	[NVPG_GPU] = { "gpu", "GPU", "NVML's index of that GPU, where certain (see gpu_from); unknown otherwise",
		       COL_U64, UNIT_NONE, 3, COL_KEY | COL_ASCENDING },
	[NVPG_BUS] = { "bus_id", "BUS", "its PCI address, where certain", COL_STR, UNIT_NONE, 16,
		       COL_ASCENDING | COL_WIDE },
	[NVPG_HOW] = { "gpu_from", "GPU FROM",
		       "how the GPU is known: cuDeviceGetPCIBusId (the process asked for the device's bus id), "
		       "held GPU file (one) (it holds one /dev/nvidiaN), CUDA_VISIBLE_DEVICES + held GPU files or "
		       "held GPU files, PCI order (ordinals in PCI order, checked against the /dev/nvidiaN files it "
		       "holds), or only GPU (NVML sees one)",
		       COL_STR, UNIT_NONE, 12, COL_ASCENDING | COL_DETAIL },
	[NVPG_LAUNCH_PER_S] = { "launches_per_s", "LAUNCH/S", "kernel launches per second on this device", COL_F64,
				UNIT_PER_S, 8, COL_HISTORY | COL_SPARK },
	[NVPG_LAUNCHES] = { "launches_total", "LAUNCHES", "kernel launches on it since start", COL_U64, UNIT_COUNT, 9,
			    0 },
	[NVPG_GRAPH_LAUNCHES] = { "graph_launches_total", "GRAPHS", "CUDA graph launches on it since start", COL_U64,
				  UNIT_COUNT, 7, COL_WIDE },
	[NVPG_MEM] = { "mem_bytes", "DEVMEM",
		       "device memory allocated on it since start and not freed by a call (nvidia.processes' DEVMEM, "
		       "by device)",
		       COL_U64, UNIT_BYTES, 8, COL_HISTORY },
	[NVPG_ALLOCS] = { "allocs_total", "ALLOCS", "successful allocations on it since start", COL_U64, UNIT_COUNT, 7,
			  0 },
	[NVPG_FREES] = { "frees_total", "FREES", "frees of those", COL_U64, UNIT_COUNT, 7, COL_WIDE },
	[NVPG_ALLOC_BYTES] = { "alloc_bytes_total", "ALLOC B", "bytes allocated on it since start", COL_U64, UNIT_BYTES,
			       8, COL_DETAIL },
	[NVPG_FREED_BYTES] = { "freed_bytes_total", "FREED B", "bytes freed of those", COL_U64, UNIT_BYTES, 8,
			       COL_DETAIL },
	[NVPG_SYNC_PCT] = { "sync_pct", "SYNC%",
			    "share of the interval its threads spent blocked in cu*Synchronize with a context of this "
			    "device current (summed over threads)",
			    COL_F64, UNIT_PCT, 6, COL_HISTORY },
	[NVPG_SYNCS] = { "syncs_total", "SYNCS", "synchronisation calls on it since start", COL_U64, UNIT_COUNT, 7,
			 COL_DETAIL },
	[NVPG_SYNC_NS] = { "sync_ns_total", "SYNC T", "time blocked in them since start (summed over threads)", COL_U64,
			   UNIT_NS, 8, 0 },
	/* joined by the model from calls.ioctls and nvidia.gpu_processes, never set here */
	[NVPG_IOCTL_PER_S] = { "ioctls_per_s", "IOCTL/S",
			       "its ioctls per second on this GPU's own device file /dev/nvidia<minor> (calls.ioctls; not "
			       "nvidiactl nor nvidia-uvm, which no GPU owns); unknown where no ioctl names it, or the GPU "
			       "or its minor number is not known",
			       COL_F64, UNIT_PER_S, 8, COL_IF_KNOWN },
	[NVPG_IOCTLS] = { "ioctls_total", "IOCTLS", "those ioctls since start", COL_U64, UNIT_COUNT, 7, COL_DETAIL },
	[NVPG_NVML_MEM] = { "nvml_mem_bytes", "NVML MEM",
			    "device memory the driver accounts to it on this GPU (nvidia.gpu_processes), beside "
			    "DEVMEM, what its calls allocated; unknown where NVML does not list it there",
			    COL_U64, UNIT_BYTES, 8, COL_IF_KNOWN },
};

const struct table_desc nvidia_process_gpus = {
	.name = "nvidia.process_gpus",
	.title = "CUDA processes per GPU",
	.empty = "No CUDA launch, allocation or synchronisation since the start.",
	.cols = proc_gpu_cols,
	.ncols = NVPG_COLS,
	.sort_col = NVPG_LAUNCH_PER_S,
};
TABLE_REGISTER(nvidia_process_gpus);

void nvidia_proc_gpu_row(struct cell *row, uint32_t pid, const char *comm, uint32_t dev,
			 const struct cuda_dev_where *w, const struct nv_proc_gpu *now,
			 const struct nv_proc_gpu *before, double interval_s)
{
	const struct nv_proc_gpu *v = now, *l = before;
	char ordinal[16];

	cell_set_u64(row, NVPG_PID, pid);
	cell_set_str(row, NVPG_COMM, comm);
	if (dev == NV_DEV_UNKNOWN)
		snprintf(ordinal, sizeof(ordinal), "unknown");
	else
		snprintf(ordinal, sizeof(ordinal), "%u", dev);
	cell_set_str(row, NVPG_DEV, ordinal);
	if (w->gpu >= 0)
		cell_set_u64(row, NVPG_GPU, (uint64_t)w->gpu);
	if (w->bus[0])
		cell_set_str(row, NVPG_BUS, w->bus);
	if (w->how)
		cell_set_str(row, NVPG_HOW, w->how);
	cell_set_rate(row, NVPG_LAUNCH_PER_S, v->launches, l->launches, interval_s);
	cell_set_u64(row, NVPG_LAUNCHES, v->launches);
	cell_set_u64(row, NVPG_GRAPH_LAUNCHES, v->graph_launches);
	cell_set_u64(row, NVPG_MEM, v->alloc_bytes >= v->freed_bytes ? v->alloc_bytes - v->freed_bytes : 0);
	cell_set_u64(row, NVPG_ALLOCS, v->allocs);
	cell_set_u64(row, NVPG_FREES, v->frees);
	cell_set_u64(row, NVPG_ALLOC_BYTES, v->alloc_bytes);
	cell_set_u64(row, NVPG_FREED_BYTES, v->freed_bytes);
	cell_set_pct(row, NVPG_SYNC_PCT, v->sync_ns, l->sync_ns, interval_s);
	cell_set_u64(row, NVPG_SYNCS, v->syncs);
	cell_set_u64(row, NVPG_SYNC_NS, v->sync_ns);
}
