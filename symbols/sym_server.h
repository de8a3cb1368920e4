/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The symbolizing child's side (sym_child.h starts it): confined, it holds
 * the processes the monitor sent (their maps), unwinds their stack copies and
 * symbolizes their addresses, and asks the monitor for every file it needs.
 */
#ifndef GPUTOP_SYMBOLS_SYM_SERVER_H
#define GPUTOP_SYMBOLS_SYM_SERVER_H

#include "symbols/symbolizer.h"

/* Serves sock until the monitor closes it; never returns. Its only descriptors are 0-2 (/dev/null) and sock. */
__attribute__((noreturn)) void sym_server_run(int sock, const struct symbolizer_config *cfg);

#endif
