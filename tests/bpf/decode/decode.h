/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The argument of the decoding tests' syscall programs: one synthetic record and what to call with it. */
#ifndef GPUTOP_DECODE_H
#define GPUTOP_DECODE_H

#include <linux/types.h>

#define DECODE_RECORD 256

struct decode_args {
	__u32 event; /* which handler (the test's enum) */
	__u32 arg; /* an argument some handlers take (an ioctl's device) */
	__u64 id; /* the task: tgid << 32 | pid */
	__u64 now; /* the time, ns */
	__s64 ret; /* an ioctl's result */
	__u8 rec[DECODE_RECORD]; /* the trace record, as the kernel lays it out */
};

#endif
