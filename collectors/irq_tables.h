/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The interrupt collector's table: one row per watched interrupt line. */
#ifndef GPUTOP_IRQ_TABLES_H
#define GPUTOP_IRQ_TABLES_H

#include "../model/table.h"

enum irq_col { IRQ_NUM, IRQ_NAME, IRQ_GPU, IRQ_PER_S, IRQ_HANDLER_PCT, IRQ_TOTAL, IRQ_COLS };

extern const struct table_desc irq_lines_table;

#endif
