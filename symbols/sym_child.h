/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Symbolization and unwinding of other users' processes, away from the
 * monitor's privileges (issue 41): a child process, forked at the first
 * stack, confined (sym_confine.h), that reads their ELF and DWARF; the monitor
 * sends it a process's maps, its stack copies and addresses, and opens for it
 * each file it asks for, with file_open.h's checks, from the maps the monitor
 * captured (never a path of the child's). A child that dies, hangs past a
 * deadline or answers out of turn is killed; the frames and copies it owed
 * come back unknown and are counted; the next request starts another, unless
 * three died within a minute (then none for a minute). The monitor's threads
 * wait for it within a budget (half an interval at once, about a quarter of
 * their time): a request answered later is shown unknown for now, and the
 * requests made while its answer is owed are not asked (counted); a frame is
 * asked again at its next use (sym_child_provisional). One child for the
 * monitor; its calls are serialized.
 */
#ifndef GPUTOP_SYMBOLS_SYM_CHILD_H
#define GPUTOP_SYMBOLS_SYM_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "symbols/symbolizer.h"
#include "symbols/unwind.h"

struct sym_child_stats {
	pid_t pid; /* the live child's; 0: none */
	uint64_t started, died; /* children started; of them, killed or ended before the monitor closed */
	uint64_t frames_lost; /* frames a dead or absent child left unanswered (a late one's: sym_child_provisional) */
	uint64_t unwinds_lost; /* stack copies a dead or absent child left unanswered, or answered late */
	uint64_t skipped; /* requests not asked: the child still owed an answer past the monitor's wait budget */
	uint64_t cpu_ns; /* the children's CPU, the dead ones' included */
	char why[160]; /* the last death's reason, or the start's failure; "" */
};

/* What an unwind also told of its process: files opened, those whose CFI was refused, the first reason. */
struct sym_child_unwound {
	uint64_t files_opened, cfi_refused, cpu_ns;
	char cfi_why[64];
};

/*
 * The frame of a user address of p, through the child; "[unknown]" (all zero) when it cannot answer:
 * for now (counted in sym_child_provisional) when it was late or not asked, for good when it died.
 */
void sym_child_frame(struct sym_process *p, uint64_t addr, struct frame *out);
/* One stack copy of p unwound by the child; false (counted) when it cannot answer. */
bool sym_child_unwind(struct sym_process *p, const struct unwind_input *in, struct unwind_result *r,
		      struct sym_child_unwound *u);
/*
 * The file offsets of the functions names[0..n) that the library open as fd defines (0: none; elf_funcs.h),
 * read by the child; 0, or -1 (not ELF, or no child answered).
 */
int sym_child_elf_funcs(int fd, const char *const *names, size_t n, uint64_t *offsets);
/* p is freed: the child forgets it. */
void sym_child_forget(const struct sym_process *p);
/* Its counts (those of the last read while a thread waits for the child: this never waits for it). */
struct sym_child_stats sym_child_stats(void);
/*
 * Frames shown "[unknown]" for now, all threads together: not asked, or answered late. A text made of
 * frames while this count moved is to be made again at its next use (stack_frames_provisional).
 */
uint64_t sym_child_provisional(void);
/* The last texts (the monitor's end): ms more to wait for the child in all, a budget of its own. */
void sym_child_last_wait(unsigned int ms);
/* The most the monitor's threads wait for it at once: ms (the monitor's: half its interval), 0.25 to 1 s. */
void sym_child_wait_cap(unsigned int ms);
/* Ends the child (at the monitor's end): its channel closed, then it is reaped. */
void sym_child_stop(void);

#endif
