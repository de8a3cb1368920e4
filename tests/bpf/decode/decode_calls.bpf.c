// SPDX-License-Identifier: GPL-2.0
/* The calls collector's handlers, run by tests/bpf/decode.c on synthetic records. */
#include "bpf/calls.bpf.c"
#include "tests/bpf/decode/decode.h"

/* arg bit 31: run the twin (its primary skipped, or not) */
#define TWIN(a) ((a)->arg >> 31)
#define RDEV(a) ((a)->arg & 0x7fffffff)

SEC("syscall")
int wait_start_rec(struct decode_args *a) { return on_wait_start(a->rec, a->id, a->now, TWIN(a)); }
SEC("syscall")
int wait_end_rec(struct decode_args *a) { return on_wait_end(NULL, a->id, a->now, TWIN(a)); }
SEC("syscall")
int ioctl_enter_rec(struct decode_args *a)
{
	return on_ioctl_enter(a->id, RDEV(a), (__u32)a->ret, a->now, TWIN(a));
}
SEC("syscall")
int ioctl_exit_rec(struct decode_args *a) { return on_ioctl_exit(NULL, a->id, a->ret, a->now, TWIN(a)); }
