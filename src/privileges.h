/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Can this process load and attach BPF tracing programs? */
#ifndef GPUTOP_PRIVILEGES_H
#define GPUTOP_PRIVILEGES_H

#include <stdbool.h>

/* True for root, or with CAP_BPF and CAP_PERFMON effective. */
bool privileges_sufficient(void);

#endif
