// SPDX-License-Identifier: GPL-2.0
/* The Intel collector's handlers, run by tests/bpf/decode.c on synthetic records. */
#include "bpf/intel.bpf.c"
#include "tests/bpf/decode/decode.h"

SEC("syscall")
int request_add_rec(struct decode_args *a) { return on_request_add(a->rec, a->id); }
SEC("syscall")
int request_retire_rec(struct decode_args *a) { return on_request_retire(a->rec); }
SEC("syscall")
int wait_begin_rec(struct decode_args *a) { return on_wait_begin(a->rec, a->id, a->now); }
SEC("syscall")
int wait_end_rec(struct decode_args *a) { return on_wait_end(a->id, a->now); }
SEC("syscall")
int request_in_rec(struct decode_args *a) { return on_request_in(a->rec, a->now); }
SEC("syscall")
int request_out_rec(struct decode_args *a) { return on_request_out(a->rec, a->now); }
SEC("syscall")
int object_create_rec(struct decode_args *a)
{
	void *r = a->rec; /* not inside BPF_CORE_READ: decode_args is no kernel type */

	return on_object_create(BPF_CORE_READ((struct trace_event_raw_i915_gem_object_create *)r, size), a->id);
}
SEC("syscall")
int vma_bind_rec(struct decode_args *a)
{
	void *r = a->rec; /* not inside BPF_CORE_READ: decode_args is no kernel type */

	return on_bind(BPF_CORE_READ((struct trace_event_raw_i915_vma_bind *)r, size), a->id, true);
}
SEC("syscall")
int fault_rec(struct decode_args *a) { return on_fault(a->rec, a->id); }
SEC("syscall")
int pwrite_rec(struct decode_args *a)
{
	void *r = a->rec; /* not inside BPF_CORE_READ: decode_args is no kernel type */

	return on_rw(BPF_CORE_READ((struct trace_event_raw_i915_gem_object_pwrite *)r, len), a->id, true);
}
SEC("syscall")
int shrink_rec(struct decode_args *a) { return on_shrink(a->rec); }
SEC("syscall")
int evict_rec(struct decode_args *a) { return on_evict(a->rec); }
SEC("syscall")
int xe_exec_rec(struct decode_args *a) { return on_xe_job(a->rec, a->id, a->now, XE_JOB_EXEC); }
SEC("syscall")
int xe_run_rec(struct decode_args *a) { return on_xe_job(a->rec, a->id, a->now, XE_JOB_RUN); }
SEC("syscall")
int xe_timedout_rec(struct decode_args *a) { return on_xe_job(a->rec, a->id, a->now, XE_JOB_TIMEDOUT); }
SEC("syscall")
int xe_queue_rec(struct decode_args *a) { return on_xe_queue(a->rec); }
SEC("syscall")
int xe_bo_move_rec(struct decode_args *a) { return on_xe_bo_move(a->rec); }
SEC("syscall")
int xe_vma_bind_rec(struct decode_args *a) { return on_bind(vma_bytes(a->rec), a->id, true); }
SEC("syscall")
int xe_bo_create_rec(struct decode_args *a)
{
	void *r = a->rec; /* not inside BPF_CORE_READ: decode_args is no kernel type */

	return on_object_create(BPF_CORE_READ((struct trace_event_raw_xe_bo *)r, size), a->id);
}
