/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The interrupt collector's table: one row per watched interrupt line. */
#ifndef GPUTOP_IRQ_TABLES_H
#define GPUTOP_IRQ_TABLES_H

#include "bpf/irq.h"
#include "collectors/irq/irq_lines.h"
#include "model/table.h"

enum irq_col { IRQ_NUM, IRQ_NAME, IRQ_GPU, IRQ_PER_S, IRQ_HANDLER_PCT, IRQ_TOTAL, IRQ_COLS };

extern const struct table_desc irq_lines_table;

/* An irq.lines row: the line's counters now and at the last read, over interval_s. */
void irq_line_row(struct cell *row, const struct irq_line *l, const struct irq_stats *now,
		  const struct irq_stats *before, double interval_s);

#endif
