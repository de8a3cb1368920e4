// SPDX-License-Identifier: GPL-2.0
/*
 * Every open file of a character device of one of the majors in
 * target_majors (user space sets them, 0 ends the list), in every
 * process, in one pass over the kernel's task file tables (iter/task_file,
 * Linux 5.8+: threads sharing their leader's table are visited once), written
 * as struct fd_iter_rec records: the memory collector's way to find DRM files
 * without a walk of /proc/<pid>/fd.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.bpf.h"
#include "fd_iter.h"
#include "vfs.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u32 target_majors[FD_ITER_MAJORS];

static __always_inline bool wanted(__u32 major)
{
	for (int i = 0; i < FD_ITER_MAJORS && target_majors[i]; i++)
		if (target_majors[i] == major)
			return true;
	return false;
}

struct seq_file;
struct bpf_iter_meta {
	struct seq_file *seq;
} __core;
struct task_struct {
	int tgid;
} __core;
struct bpf_iter__task_file {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
	__u32 fd;
	struct file *file;
} __core;


SEC("iter/task_file")
int char_files(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct fd_iter_rec rec = {};
	struct inode *ino;

	if (!task || !file)
		return 0;
	ino = file->f_inode;
	if (!ino || (ino->i_mode & S_IFMT) != S_IFCHR || !wanted(ino->i_rdev >> MINORBITS))
		return 0;
	rec.tgid = task->tgid;
	rec.fd = ctx->fd;
	rec.rdev = ino->i_rdev;
	bpf_seq_write(ctx->meta->seq, &rec, sizeof(rec));
	return 0;
}
