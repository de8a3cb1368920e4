/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Privileges: can this process load and attach BPF tracing programs; files the
 * user names opened with the user's own rights; capabilities given up once
 * they are no longer needed.
 */
#ifndef GPUTOP_PRIVILEGES_H
#define GPUTOP_PRIVILEGES_H

#include <stdbool.h>
#include <stdio.h>

/*
 * What a run with every collector needs, named once for every message: root, or
 * these capabilities (CAP_SYS_ADMIN: Debian's kernels ask it for tracepoint
 * events and libbpf for module BTF; given up once attached).
 */
#define PRIVILEGES_NAMES "CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH and CAP_SYS_ADMIN"
#define PRIVILEGES_SETCAP "cap_bpf,cap_perfmon,cap_dac_read_search,cap_sys_admin+ep"
/* The reason a collector that loads BPF programs gives in an unprivileged start. */
#define PRIVILEGES_BPF_REASON "it needs root or " PRIVILEGES_NAMES " (it loads BPF programs)"

/* True for root, or with CAP_BPF and CAP_PERFMON effective. */
bool privileges_sufficient(void);

/*
 * fopen(path, mode) with the rights of the user who ran us: the capabilities
 * that bypass file permissions (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH,
 * CAP_FOWNER) are left out of the effective set while it opens, so that a
 * non-root user given file capabilities (setcap) reads and writes only what
 * that user could. For root, as root.
 */
FILE *privileges_fopen_as_user(const char *path, const char *mode);
/* unlink(path) with the same rights: 0, or -1 with errno set. */
int privileges_unlink_as_user(const char *path);

/* Gives up every capability (--replay needs none). 0, or -errno. */
int privileges_drop_all(void);

/*
 * Once the BPF programs are attached: keeps only what running needs
 * (CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH, CAP_SYS_PTRACE; CAP_SYS_ADMIN
 * with keep_sys_admin, for probes attached later, or where the kernel predates
 * CAP_BPF), in the effective and permitted sets. With for_restarts, CAP_SYS_ADMIN
 * stays permitted but not effective, for collectors started again when a driver
 * is loaded (their objects need module BTF: privileges_raise_admin). 0, or -errno.
 */
int privileges_drop_unneeded(bool keep_sys_admin, bool for_restarts);
/* CAP_SYS_ADMIN effective in the calling thread, where permitted; true when it is. */
bool privileges_raise_admin(void);
/* Back out of the effective set (after privileges_raise_admin). */
void privileges_lower_admin(void);

#endif
