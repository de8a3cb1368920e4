// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "symbols/sym_confine.h"

#if defined(__x86_64__)
#define ARCH_NR AUDIT_ARCH_X86_64
#define X32_BIT 0x40000000u /* x32's calls: another ABI */
#elif defined(__aarch64__)
#define ARCH_NR AUDIT_ARCH_AARCH64
#define X32_BIT 0
#else
#error "the symbolizing child's seccomp filter names this architecture's ABI: add it here"
#endif

#define NOBODY 65534

/* What parsing needs: descriptors it was given, memory, its channel, time, the end. */
static const unsigned int allowed[] = {
	SYS_read,	    SYS_write,		 SYS_readv,	SYS_writev,	SYS_pread64,
	SYS_lseek,	    SYS_close,		 SYS_fstat,	SYS_newfstatat, SYS_mmap,
	SYS_munmap,	    SYS_mremap,		 SYS_mprotect,	SYS_madvise,	SYS_brk,
	SYS_futex,	    SYS_sendmsg,	 SYS_recvmsg,	SYS_ppoll,	SYS_clock_gettime,
	SYS_getpid,	    SYS_gettid,		 SYS_exit,	SYS_exit_group, SYS_rt_sigreturn,
	SYS_rt_sigprocmask, SYS_restart_syscall, SYS_getrandom,
#ifdef SYS_poll
	SYS_poll,
#endif
};

/* Opening by a path: refused as a file it may not read (libdw then goes on without it). */
static const unsigned int refused[] = {
#ifdef SYS_open
	SYS_open,
#endif
	SYS_openat,
	SYS_openat2,
};

#define ALLOWED_N (sizeof(allowed) / sizeof(allowed[0]))
#define REFUSED_N (sizeof(refused) / sizeof(refused[0]))
#define FILTER_MAX (6 + 2 * (ALLOWED_N + REFUSED_N) + 1)

static size_t filter_build(struct sock_filter *f)
{
	size_t n = 0;

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH_NR, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	if (X32_BIT) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, X32_BIT, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	}
	for (size_t i = 0; i < ALLOWED_N; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, allowed[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	for (size_t i = 0; i < REFUSED_N; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, refused[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	return n;
}

/* Root's user becomes nobody's (its files are no longer its own); then no capability is left. */
static int drop_privileges(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = { { 0 } };

	for (int cap = 0; cap <= 63; cap++) /* the bounding set: none can come back */
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL && errno != EPERM)
			return -errno;
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (geteuid() == 0 || getuid() == 0) {
		gid_t none = NOBODY;

		/* a child started after the monitor gave up CAP_SETUID keeps root's user, with no capability */
		/*
		 * The saved user stays root's so that the monitor, which gives up CAP_KILL, may still kill it (a
		 * user matches a process's real or saved one); the seccomp filter forbids any change of user back.
		 */
		if ((setgroups(1, &none) || setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, 0)) &&
		    errno != EPERM)
			return -errno;
	}
	if (syscall(SYS_capset, &h, d))
		return -errno;
	return 0;
}

/* What the process's data already takes (VmData: the fork's heap, a sanitizer's shadow), in bytes; 0 unknown. */
static rlim_t data_now(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long kb = 0;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmData: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (rlim_t)kb * 1024;
}

static int bound(int resource, rlim_t value)
{
	struct rlimit r = { value, value };

	return setrlimit(resource, &r) ? -errno : 0;
}

int sym_confine(size_t data_bytes, char *why, size_t size)
{
	struct sock_filter f[FILTER_MAX];
	struct sock_fprog prog = { .filter = f };
	int err;

	if ((err = bound(RLIMIT_DATA, data_now() + data_bytes)) || (err = bound(RLIMIT_CORE, 0)) ||
	    (err = bound(RLIMIT_FSIZE, 0))) {
		snprintf(why, size, "setrlimit: %s", strerror(-err));
		return err;
	}
	if ((err = drop_privileges())) {
		snprintf(why, size, "dropping privileges: %s", strerror(-err));
		return err;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* again: the change of user cleared it; it ends with the monitor */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(why, size, "no_new_privs: %s", strerror(errno));
		return -errno;
	}
	prog.len = (unsigned short)filter_build(f);
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0)) {
		snprintf(why, size, "seccomp: %s", strerror(errno));
		return -errno;
	}
	return 0;
}
