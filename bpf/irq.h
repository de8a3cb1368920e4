/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Plain data shared by irq.bpf.c and collectors/irq/irq.c. */
#ifndef GPUTOP_IRQ_H
#define GPUTOP_IRQ_H

#include <linux/types.h>

#define IRQ_MAX 2048 /* IRQ numbers at or above this are counted in irq_overflow */

struct irq_stats {
	__u64 count; /* handler invocations (hard-IRQ part) */
	__u64 handler_ns; /* time spent in the handler */
};

#endif
