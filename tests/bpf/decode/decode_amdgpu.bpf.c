// SPDX-License-Identifier: GPL-2.0
/* The amdgpu collector's handlers, run by tests/bpf/decode.c on synthetic records. */
#include "bpf/amdgpu.bpf.c"
#include "tests/bpf/decode/decode.h"

SEC("syscall")
int cs_ioctl_rec(struct decode_args *a) { return on_cs_ioctl(a->rec, a->id, a->now); }
SEC("syscall")
int run_job_rec(struct decode_args *a) { return on_run_job(a->rec, a->now); }
SEC("syscall")
int bo_create_rec(struct decode_args *a) { return on_bo_create(a->rec, a->id); }
SEC("syscall")
int bo_move_rec(struct decode_args *a) { return on_bo_move(a->rec); }
SEC("syscall")
int iv_rec(struct decode_args *a) { return on_iv(a->rec); }
SEC("syscall")
int vm_flush_rec(struct decode_args *a) { return on_vm_flush(a->rec); }
SEC("syscall")
int vm_map_rec(struct decode_args *a) { return on_vm_map(a->rec, a->id, true); }
SEC("syscall")
int vm_unmap_rec(struct decode_args *a) { return on_vm_map(a->rec, a->id, false); }
SEC("syscall")
int pasid_rec(struct decode_args *a) { return on_pasid(a->rec, a->id, true); }
