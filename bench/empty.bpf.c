// SPDX-License-Identifier: GPL-2.0
/* The floor: empty programs on the tracepoints gputop-bpf uses, attached the same way. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp/gpu_scheduler/drm_sched_job_queue")
int empty_queue(void *ctx) { return 0; }
SEC("tp/gpu_scheduler/drm_sched_job_run")
int empty_run(void *ctx) { return 0; }
SEC("raw_tp/drm_sched_job_done")
int empty_done(void *ctx) { return 0; }
SEC("tp/gpu_scheduler/drm_sched_job")
int empty_queue_old(void *ctx) { return 0; }
SEC("tp/gpu_scheduler/drm_run_job")
int empty_run_old(void *ctx) { return 0; }
SEC("raw_tp/drm_sched_process_job")
int empty_done_old(void *ctx) { return 0; }
