/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The channel between the monitor and its symbolizing child (sym_child.h): one
 * stream socket, messages of a header (type, payload length) and a payload,
 * a descriptor passed beside a message where one goes with it. The monitor
 * reads the child's messages as hostile: lengths bounded, strings ended by it.
 */
#ifndef GPUTOP_SYMBOLS_SYM_WIRE_H
#define GPUTOP_SYMBOLS_SYM_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include "symbols/frame.h"
#include "symbols/proc_maps.h"
#include "symbols/unwind.h"

/* A message's payload at most: the child's answers are far smaller (the monitor bounds them tighter). */
#define SYM_WIRE_MAX (PROC_MAPS_MAX * sizeof(struct map) + PROC_MAPS_FILE_MAX + 4096)

enum sym_msg {
	/* the monitor's */
	SYM_PROC = 1, /* struct sym_wire_proc, then its maps (struct map[n]) and path pool */
	SYM_FORGET, /* uint64_t id */
	SYM_FRAME, /* struct sym_wire_frame_ask -> SYM_FRAME_DONE */
	SYM_UNWIND, /* struct sym_wire_unwind_ask, then the stack bytes -> SYM_UNWIND_DONE */
	SYM_FILE_FD, /* int32_t -errno, or 0 with the descriptor beside it: the answer to SYM_FILE */
	SYM_CRASH, /* a test build's hook (make TEST_HOOKS=1): the child dies at once */
	SYM_HANG, /* a test build's hook: the child spins for ever */
	SYM_ELF_FUNCS, /* the names wanted, each ended by NUL, the file beside -> SYM_ELF_FUNCS_DONE */
	/* the child's */
	SYM_FRAME_DONE = 32, /* struct frame */
	SYM_UNWIND_DONE, /* struct sym_wire_unwind_done */
	SYM_FILE, /* struct sym_wire_file_ask: a file it needs, while it answers a request */
	SYM_ELF_FUNCS_DONE, /* struct sym_wire_elf_funcs_done */
};

#define SYM_ELF_FUNCS_MAX 64

struct sym_wire_elf_funcs_done {
	int32_t err; /* 0, or -1: not ELF */
	uint32_t n;
	uint64_t offsets[SYM_ELF_FUNCS_MAX];
};

struct sym_wire_proc {
	uint64_t id;
	int32_t pid;
	uint32_t uid;
	uint64_t nmaps, pool_len;
};

struct sym_wire_frame_ask {
	uint64_t id, addr;
};

struct sym_wire_unwind_ask {
	uint64_t id, ip, sp, bp, len;
	uint8_t cut;
};

struct sym_wire_unwind_done {
	struct unwind_result r;
	uint64_t files_opened, cfi_refused; /* the process's, so far */
	uint64_t cpu_ns; /* the child's CPU for this request */
	char cfi_why[64];
};

enum sym_file_kind {
	SYM_FILE_MAP, /* the file of a mapping of a process: map is its index in the maps the monitor sent */
	SYM_FILE_DEBUG, /* a separate debug file by build id */
	SYM_FILE_PERF_MAP, /* the process's perf map */
};

struct sym_wire_file_ask {
	uint32_t kind;
	uint64_t id, map;
	uint8_t build_id[20];
	uint8_t build_id_len;
};

/* Sends one message (parts gathered; fd beside it where >= 0). 0, or -errno. */
int sym_wire_send(int sock, uint32_t type, const void *a, size_t alen, const void *b, size_t blen, int fd);
/*
 * Receives one message within timeout_ms (-1: no bound): its payload into *buf (of *cap bytes, grown
 * as needed up to max: a longer one is an error), *fd a descriptor that came with it (else -1). 0, or
 * -errno (-ETIMEDOUT, -EPIPE at the other end's close, -EPROTO for a message out of bounds).
 */
int sym_wire_recv(int sock, int timeout_ms, uint32_t *type, void **buf, size_t *cap, size_t max, size_t *len, int *fd);

#endif
