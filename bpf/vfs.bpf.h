/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The few VFS fields the programs read to tell a file's character device (CO-RE). Kernel side only. */
#ifndef GPUTOP_VFS_BPF_H
#define GPUTOP_VFS_BPF_H

#ifndef __core
#define __core __attribute__((preserve_access_index))
#endif

struct inode {
	unsigned short i_mode;
	unsigned int i_rdev;
} __core;
struct file {
	struct inode *f_inode;
} __core;

#define S_IFMT 00170000
#define S_IFCHR 0020000
#define MINORBITS 20 /* the kernel's dev_t: the major above 20 bits of minor */

#endif
