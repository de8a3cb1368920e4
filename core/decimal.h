/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Whole numbers in decimal without printf: row keys, table cells and JSON write millions per snapshot. */
#ifndef GPUTOP_DECIMAL_H
#define GPUTOP_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>

#define DECIMAL_U64_MAX 20 /* digits of 2^64 - 1 */

/* n's digits written backwards, ending just before end (room for DECIMAL_U64_MAX); returns the first. */
char *decimal_u64(uint64_t n, char *end);
/*
 * Whether text is a plain decimal number as people write seconds: digits, at most one '.' and
 * its fraction ("2", "0.5", ".5", "2."), at least one digit; no sign, space, exponent, hex, inf
 * or nan, which strtod would take ("0x10" as 16).
 */
bool decimal_text(const char *text);
#define DECIMAL_TEXT_FORM "a decimal number (digits and one optional '.')"

#endif
