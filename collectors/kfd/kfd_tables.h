/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The KFD collector's table: columns described once (model/table.h). */
#ifndef GPUTOP_KFD_TABLES_H
#define GPUTOP_KFD_TABLES_H

#include "model/table.h"

enum kfd_proc_col {
	KP_PID, KP_GPU_ID, KP_DEV, KP_COMM, KP_VRAM, KP_SDMA, KP_EVICTED, KP_CU, KP_QUEUES, KP_COLS,
};

extern const struct table_desc kfd_processes;

#endif
