/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Interrupt lines and their handler names, from /sys/kernel/irq. */
#ifndef GPUTOP_IRQ_LINES_H
#define GPUTOP_IRQ_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct irq_line {
	uint32_t irq;
	char actions[48]; /* comma-separated handler names */
	bool gpu;
};

/* True when one of the comma-separated handler names is a GPU driver's. */
bool irq_actions_are_gpu(const char *actions);
/* Lists the lines that have handlers; returns the count, or -errno. Caller frees *out. */
int irq_lines_scan(const char *sysfs_irq_dir, struct irq_line **out);

#endif
