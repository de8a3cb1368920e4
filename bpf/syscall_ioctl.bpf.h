/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The syscalls tracepoints' records (format files: syscalls/sys_{enter,exit}_ioctl). Kernel side only. */
#ifndef GPUTOP_SYSCALL_IOCTL_BPF_H
#define GPUTOP_SYSCALL_IOCTL_BPF_H

#include <linux/types.h>

struct sys_enter_ioctl_args {
	__u64 common;
	__s32 nr, pad;
	__u64 fd, cmd, arg;
};

struct sys_exit_args {
	__u64 common;
	__s32 nr, pad;
	__s64 ret;
};

#endif
