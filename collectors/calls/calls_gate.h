/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The calls collector's gate (bpf/calls.bpf.c): its ioctl programs return at
 * once while no process but the monitor has a GPU device file open. A kprobe
 * on chrdev_open opens the gate in the kernel at the next open of a watched
 * device; user space closes it after two censuses of every process's files,
 * RESCAN ticks apart, found none with no open in between. What was still in
 * flight when it closed (a call on a file closed by another thread meanwhile)
 * is taken out of the pending map and counted.
 */
#ifndef GPUTOP_CALLS_GATE_H
#define GPUTOP_CALLS_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct calls_bpf;
struct fd_census;
struct fd_ref;

struct calls_gate {
	struct bpf_program *probe; /* the open probe to attach: kprobe, else fentry; NULL: none */
	bool fentry;
	struct bpf_link *open_probe; /* NULL: the gate stays open (why says so) */
	struct fd_census *census;
	struct fd_ref *files;
	size_t nfiles, cap;
	uint64_t opens_seen; /* gpu_opens at the last census that found no file, + 1; 0: none */
	unsigned int open_files; /* at the last census, the monitor's own left out */
	bool counted; /* a census was taken */
	char why[40]; /* why the gate cannot close */
};

/*
 * Before the object's load: chooses the open probe (kprobe where the kernel has
 * them, else fentry, else none; none when !gated) and loads only it. A load that
 * fails with fentry chosen may be tried once more without the gate.
 */
void calls_gate_prepare(struct calls_gate *g, struct calls_bpf *skel, bool gated);
/* Attaches the open probe and opens the census (after the object is loaded). */
void calls_gate_open(struct calls_gate *g, struct calls_bpf *skel, const uint32_t *majors, size_t n);
/*
 * One census while the gate is open (call it every few ticks, with the watched
 * majors); closes the gate when it may. Returns the calls taken out of flight.
 */
uint64_t calls_gate_tick(struct calls_gate *g, struct calls_bpf *skel, const uint32_t *majors, size_t n);
/* "idle: no GPU file open", "N GPU files open", or "always on: " and why there is no gate (at most 39 bytes). */
void calls_gate_describe(const struct calls_gate *g, const struct calls_bpf *skel, char *out, size_t size);
void calls_gate_close(struct calls_gate *g);

#endif
