/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One value from a sysfs attribute file: a whole number, or a line of text.
 * What another user or a driver wrote there is not trusted: a file that holds
 * anything else (text, a number past 64 bits, more than one line) reads as
 * nothing, never as a guess.
 */
#ifndef GPUTOP_SYSFS_READ_H
#define GPUTOP_SYSFS_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A decimal number (spaces and one newline after it allowed) from path; false on anything else. */
bool sysfs_read_u64(const char *path, uint64_t *v);
/* The same for a signed number ("-5000": temperatures below zero). */
bool sysfs_read_s64(const char *path, int64_t *v);
/* The first line of path, without its newline, into out (size > 0); false when none or too long. */
bool sysfs_read_line(const char *path, char *out, size_t size);
/* The same for the file dir/<fmt ...> ("%s/hwmon1", "temp%d_input"); false also when the path is too long. */
bool sysfs_read_u64_at(uint64_t *v, const char *dir, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool sysfs_read_s64_at(int64_t *v, const char *dir, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool sysfs_read_line_at(char *out, size_t size, const char *dir, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Up to size bytes of path into buf (binary attributes); bytes read, or -1. */
long sysfs_read_bytes(const char *path, void *buf, size_t size);

#endif
