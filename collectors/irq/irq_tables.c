// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "collectors/irq/irq_tables.h"
#include "collectors/kit/cells.h"

/* The keys are those of 0.1.0's "interrupts" array, so its recordings replay into this table. */
static const struct col_desc irq_cols[IRQ_COLS] = {
	[IRQ_NUM] = { "irq", "IRQ", "interrupt number", COL_U64, UNIT_NONE, 5,
		      COL_KEY | COL_ASCENDING },
	[IRQ_NAME] = { "name", "HANDLER", "its handlers' names (from /sys/kernel/irq)", COL_STR,
		       UNIT_NONE, 16, COL_ASCENDING },
	[IRQ_GPU] = { "gpu", "GPU", "a GPU driver's line", COL_BOOL, UNIT_NONE, 3, COL_DETAIL },
	[IRQ_PER_S] = { "per_s", "IRQ/S", "interrupts per second", COL_F64, UNIT_PER_S, 8,
			COL_HISTORY },
	[IRQ_HANDLER_PCT] = { "handler_pct", "HANDLER%", "time in the hard-IRQ handler, % of one CPU",
			      COL_F64, UNIT_PCT, 8, 0 },
	[IRQ_TOTAL] = { "total", "TOTAL", "interrupts since the monitor started", COL_U64,
			UNIT_COUNT, 10, 0 },
};

const struct table_desc irq_lines_table = {
	.name = "irq.lines",
	.title = "Interrupt lines",
	.empty = "No GPU interrupt line. Lines whose handler is a GPU driver's show their "
		 "rate and history (--all-irqs: every line).",
	.cols = irq_cols,
	.ncols = IRQ_COLS,
	.sort_col = IRQ_PER_S,
};
TABLE_REGISTER(irq_lines_table);

void irq_line_row(struct cell *row, const struct irq_line *l, const struct irq_stats *now,
		  const struct irq_stats *before, double interval_s)
{
	cell_set_u64(row, IRQ_NUM, l->irq);
	cell_set_str(row, IRQ_NAME, l->actions);
	cell_set_u64(row, IRQ_GPU, l->gpu);
	cell_set_u64(row, IRQ_TOTAL, now->count);
	cell_set_rate(row, IRQ_PER_S, now->count, before->count, interval_s);
	cell_set_pct(row, IRQ_HANDLER_PCT, now->handler_ns, before->handler_ns, interval_s);
}
