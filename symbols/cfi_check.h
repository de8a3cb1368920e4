/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A file's call frame information (.eh_frame, .debug_frame) checked before
 * libdw's CFI interpreter may run it: that interpreter runs an FDE's program
 * from its start at every frame unwound in it, copies its whole register
 * state at each DW_CFA_remember_state (as large as the highest register
 * number named) and keeps the copies until restored. Another user writes
 * these programs: one of 4 million remember_state costs 266 ms and hundreds
 * of MB a frame, one naming register 10^6 some 16 MB a copy. The check reads
 * every CIE and FDE once, linearly (libdw's dwarf_next_cfi, then each program
 * decoded op by op), and refuses the file at the first program past a bound
 * that compilers' output stays far within. Bounded itself: the bytes it reads
 * are at most the sections' sizes and CFI_CHECK_WORK_MAX more.
 */
#ifndef GPUTOP_SYMBOLS_CFI_CHECK_H
#define GPUTOP_SYMBOLS_CFI_CHECK_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One CIE's or FDE's instructions at most, in bytes (cfi_check.c says what was measured). */
#define CFI_PROGRAM_MAX 65536
/* The highest DWARF register number (x86-64's and AArch64's ABIs number theirs below 128). */
#define CFI_REGISTER_MAX 255
/* DW_CFA_remember_state in one program at most, and nested at most. */
#define CFI_REMEMBER_MAX 2048
#define CFI_NESTING_MAX 16
/* Bytes of CIEs read again (an FDE's CIE not among the last seen) at most. */
#define CFI_CHECK_WORK_MAX (16u << 20)

enum cfi_verdict {
	CFI_OK,
	CFI_NONE, /* no CFI section: nothing to refuse */
	CFI_PROGRAM_LONG, /* a program past CFI_PROGRAM_MAX */
	CFI_REGISTER_HIGH, /* a register past CFI_REGISTER_MAX */
	CFI_NESTING_DEEP, /* remember_state past CFI_REMEMBER_MAX, or nested past CFI_NESTING_MAX */
	CFI_MALFORMED, /* an op libdw does not take, an encoding not decoded here, an entry not parsed */
	CFI_TOO_COSTLY, /* CIEs read again past CFI_CHECK_WORK_MAX */
};

/* Whether libdw may interpret e's CFI: CFI_OK or CFI_NONE, else why not. */
enum cfi_verdict cfi_check_elf(Elf *e);
/* A section's bytes (.eh_frame where eh, else .debug_frame) of a 64-bit little-endian file: every entry. */
enum cfi_verdict cfi_check_frames(const void *buf, size_t size, bool eh);
/* One CIE's or FDE's instructions p[0..len). */
enum cfi_verdict cfi_check_program(const uint8_t *p, size_t len);
/* The verdict as words for the screen ("a CFI program over 4096 bytes"). */
const char *cfi_verdict_text(enum cfi_verdict v);

#endif
