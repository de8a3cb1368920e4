/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * BPF links released when the monitor ends, without making the user wait for
 * the kernel. Each uprobe's and each perf-attached tracepoint's release waits
 * for RCU grace periods under a global mutex (uprobe_unregister_sync,
 * perf_event_detach_bpf_prog: about 0.1-0.2 s each on the H200's 6.18 kernel),
 * so the ~50 uprobes on libcuda and a dozen tracepoints took 10-16 s to quit,
 * one after another. Collectors hand their links here as they stop:
 * - link_reaper_defer(): closed by this process at the flush: a module's
 *   tracepoints and probes, which hold the module, so that rmmod works once
 *   the monitor is gone;
 * - link_reaper_defer_no_module(): a link that holds no module (a uprobe on a
 *   file; the core kernel's tracepoints and probes): at the last flush a child
 *   process in a session of its own keeps only these links open and closes
 *   them after the monitor has exited (ps names it "gputop-bpf-exit"); their
 *   programs keep running, counted nowhere, until it ends.
 */
#ifndef GPUTOP_LINK_REAPER_H
#define GPUTOP_LINK_REAPER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <bpf/libbpf.h>

/* Keeps link (NULL: nothing) for the next flush; out of memory, destroys it now. */
void link_reaper_defer(struct bpf_link *link);
/* The same for links that hold no module, which the last flush may leave to a child; clears links[0..n). */
void link_reaper_defer_no_module(struct bpf_link **links, size_t n);
/*
 * An earlier monitor's child still releasing its links (the first one's pid;
 * 0: none). The kernel's lock is one for all: a start waits for it.
 */
pid_t link_reaper_earlier(void);
/*
 * Destroys every link kept. last: the monitor exits next, and the links that
 * hold no module go to a child that closes them after it (where fork fails, here).
 */
void link_reaper_flush(bool last);

#endif
