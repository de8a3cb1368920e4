/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The current task's file table, read to tell which character device one of its
 * file descriptors is (an ioctl's): CO-RE, kernel side only, after vfs.bpf.h.
 */
#ifndef GPUTOP_FD_TABLE_BPF_H
#define GPUTOP_FD_TABLE_BPF_H

#include "vfs.bpf.h"

struct fdtable {
	unsigned int max_fds;
	struct file **fd;
} __core;
struct files_struct {
	struct fdtable *fdt;
} __core;
struct mm_struct;
struct task_struct {
	struct files_struct *files;
	struct mm_struct *mm; /* NULL: a kernel thread */
	struct task_struct *group_leader; /* its process's name: group_leader->comm */
	char comm[16];
} __core;

/* The character device (dev_t) of the current task's file descriptor fd; 0 when it is none. */
static __always_inline __u32 fd_char_rdev(unsigned long fd)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
	struct file **fds, *f = NULL;
	struct inode *ino;

	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return 0;
	fds = BPF_CORE_READ(fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
		return 0;
	ino = BPF_CORE_READ(f, f_inode);
	if (!ino || (BPF_CORE_READ(ino, i_mode) & S_IFMT) != S_IFCHR)
		return 0;
	return BPF_CORE_READ(ino, i_rdev);
}

#endif
