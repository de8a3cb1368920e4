/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef GPUTOP_VERSION_H
#define GPUTOP_VERSION_H
#define GPUTOP_VERSION "0.2.0"
#endif
