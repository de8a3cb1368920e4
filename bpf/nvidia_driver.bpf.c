// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA driver functions (nvidia.ko: open, close, ioctl, mmap, interrupt
 * handlers and their bottom halves, P2P, power management), counted per
 * function. Two ways in, as the kernel allows: one kprobe program attached to
 * every function with its index as cookie, or one fentry program per function
 * (fe_0 ... fe_15, each given its target before load). Which functions, and
 * their names across driver versions: collectors/nvidia/nvidia_driver.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "nvidia_driver.h"

char LICENSE[] SEC("license") = "GPL";

__u64 calls[NV_DRV_FNS];

static __always_inline void count(__u64 i)
{
	if (i < NV_DRV_FNS)
		__sync_fetch_and_add(&calls[i], 1);
}

SEC("kprobe")
int drv_kprobe(void *ctx)
{
	count(bpf_get_attach_cookie(ctx));
	return 0;
}

#define FENTRY(i)                           \
	SEC("fentry")                       \
	int fe_##i(void *ctx)               \
	{                                   \
		count(i);                   \
		return 0;                   \
	}

FENTRY(0) FENTRY(1) FENTRY(2) FENTRY(3) FENTRY(4) FENTRY(5) FENTRY(6) FENTRY(7)
FENTRY(8) FENTRY(9) FENTRY(10) FENTRY(11) FENTRY(12) FENTRY(13) FENTRY(14) FENTRY(15)
