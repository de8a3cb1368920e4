// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core/privileges.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

struct caps {
	struct __user_cap_header_struct hdr;
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
};

static int caps_get(struct caps *c)
{
	memset(c, 0, sizeof(*c));
	c->hdr.version = _LINUX_CAPABILITY_VERSION_3;
	return syscall(SYS_capget, &c->hdr, c->data) ? -errno : 0;
}

static int caps_set(struct caps *c)
{
	c->hdr.version = _LINUX_CAPABILITY_VERSION_3;
	c->hdr.pid = 0;
	return syscall(SYS_capset, &c->hdr, c->data) ? -errno : 0;
}

static bool has(const struct caps *c, int cap)
{
	return c->data[cap / 32].effective & (1U << (cap % 32));
}

static void clear_effective(struct caps *c, int cap)
{
	c->data[cap / 32].effective &= ~(1U << (cap % 32));
}

bool privileges_sufficient(void)
{
	struct caps c;

	if (geteuid() == 0)
		return true;
	if (caps_get(&c))
		return false;
	return has(&c, CAP_SYS_ADMIN) || (has(&c, CAP_BPF) && has(&c, CAP_PERFMON));
}

/* The capabilities that bypass file permissions out of the effective set (saved in *saved): 0, or -1. */
static int lower_file_caps(struct caps *saved, bool *lowered_any)
{
	struct caps lowered;

	*lowered_any = getuid() != 0 && !caps_get(saved);
	if (!*lowered_any)
		return 0;
	lowered = *saved;
	clear_effective(&lowered, CAP_DAC_OVERRIDE);
	clear_effective(&lowered, CAP_DAC_READ_SEARCH);
	clear_effective(&lowered, CAP_FOWNER);
	return caps_set(&lowered) ? -1 : 0;
}

FILE *privileges_fopen_as_user(const char *path, const char *mode)
{
	struct caps saved;
	bool lower;
	FILE *f;
	int err;

	if (lower_file_caps(&saved, &lower))
		return errno = EPERM, NULL; /* never open with more than the user's rights */
	f = fopen(path, mode);
	err = errno;
	if (lower)
		caps_set(&saved);
	errno = err;
	return f;
}

int privileges_unlink_as_user(const char *path)
{
	struct caps saved;
	bool lower;
	int rc, err;

	if (lower_file_caps(&saved, &lower))
		return errno = EPERM, -1;
	rc = unlink(path);
	err = errno;
	if (lower)
		caps_set(&saved);
	errno = err;
	return rc;
}

int privileges_drop_all(void)
{
	struct caps c;

	memset(&c, 0, sizeof(c));
	return caps_set(&c);
}

int privileges_drop_unneeded(bool keep_sys_admin, bool for_restarts)
{
	static const int keep[] = { CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH, CAP_SYS_PTRACE };
	struct caps c, kept;
	int err = caps_get(&c);

	if (err)
		return err;
	memset(&kept, 0, sizeof(kept));
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		unsigned int w = (unsigned int)keep[i] / 32, bit = 1U << (keep[i] % 32);

		kept.data[w].permitted |= c.data[w].permitted & bit;
		kept.data[w].effective |= c.data[w].effective & bit;
	}
	/* a kernel before 5.8 has no CAP_BPF: BPF (iterators, map reads) needs CAP_SYS_ADMIN */
	if (keep_sys_admin || !(c.data[CAP_BPF / 32].permitted & (1U << (CAP_BPF % 32)))) {
		kept.data[CAP_SYS_ADMIN / 32].permitted |=
			c.data[CAP_SYS_ADMIN / 32].permitted & (1U << (CAP_SYS_ADMIN % 32));
		kept.data[CAP_SYS_ADMIN / 32].effective |=
			c.data[CAP_SYS_ADMIN / 32].effective & (1U << (CAP_SYS_ADMIN % 32));
	}
	if (for_restarts)
		kept.data[CAP_SYS_ADMIN / 32].permitted |=
			c.data[CAP_SYS_ADMIN / 32].permitted & (1U << (CAP_SYS_ADMIN % 32));
	return caps_set(&kept);
}

static bool set_admin_effective(bool on)
{
	struct caps c;
	unsigned int w = CAP_SYS_ADMIN / 32, bit = 1U << (CAP_SYS_ADMIN % 32);

	if (caps_get(&c) || !(c.data[w].permitted & bit))
		return false;
	if (on)
		c.data[w].effective |= bit;
	else
		c.data[w].effective &= ~bit;
	return !caps_set(&c);
}

bool privileges_raise_admin(void)
{
	return set_admin_effective(true);
}

void privileges_lower_admin(void)
{
	set_admin_effective(false);
}
