/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* One open file of a character device of a wanted major, as fd_iter.bpf.c writes it. */
#ifndef GPUTOP_FD_ITER_H
#define GPUTOP_FD_ITER_H

#include <linux/types.h>

#define FD_ITER_MAJORS 8 /* the most majors one iterator looks for */

struct fd_iter_rec {
	__u32 tgid;
	__u32 fd;
	__u32 rdev; /* the kernel's dev_t: major << 20 | minor */
	__u32 pad;
};

#endif
