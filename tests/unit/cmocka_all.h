/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmocka needs these headers before its own. */
#ifndef GPUTOP_CMOCKA_ALL_H
#define GPUTOP_CMOCKA_ALL_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#endif
