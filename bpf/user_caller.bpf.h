/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The caller a frame-pointer walk leaves out when a syscall is made from a
 * function that keeps no frame pointer (libc's ioctl wrapper): found on the
 * user stack as the return address of a call into that function. Kernel side
 * only; shared by the --stacks sources that take stacks inside a syscall.
 */
#ifndef GPUTOP_USER_CALLER_BPF_H
#define GPUTOP_USER_CALLER_BPF_H

/* Words above the user stack pointer searched for the syscall wrapper's return address. */
#define USER_CALLER_SCAN 32

/*
 * Where a call instruction ending at ret (a return address) went: a direct call
 * (e8 rel32), through a PLT stub (jmp *GOT, with or without endbr64 and bnd) to
 * what the GOT holds now, or an indirect call through the GOT (ff 15 disp32,
 * -fno-plt). 0 when the bytes before ret are no such call.
 */
static __always_inline __u64 call_target(__u64 ret)
{
	__u8 c[16];
	__s32 rel;
	__u64 t = 0, got = 0;

	if (bpf_probe_read_user(c, 6, (void *)(ret - 6)))
		return 0;
	if (c[1] == 0xe8) {
		__builtin_memcpy(&rel, &c[2], 4);
		t = ret + (__s64)rel;
	} else if (c[0] == 0xff && c[1] == 0x15) {
		__builtin_memcpy(&rel, &c[2], 4);
		bpf_probe_read_user(&t, sizeof(t), (void *)(ret + (__s64)rel));
		return t;
	} else {
		return 0;
	}
	if (bpf_probe_read_user(c, sizeof(c), (void *)t))
		return t;
	if (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa) { /* endbr64 */
		if (c[4] == 0xf2 && c[5] == 0xff && c[6] == 0x25) { /* bnd jmp *disp(%rip) */
			__builtin_memcpy(&rel, &c[7], 4);
			got = t + 11 + (__s64)rel;
		} else if (c[4] == 0xff && c[5] == 0x25) {
			__builtin_memcpy(&rel, &c[6], 4);
			got = t + 10 + (__s64)rel;
		}
	} else if (c[0] == 0xff && c[1] == 0x25) {
		__builtin_memcpy(&rel, &c[2], 4);
		got = t + 6 + (__s64)rel;
	}
	if (got)
		bpf_probe_read_user(&t, sizeof(t), (void *)got);
	return t;
}

/*
 * The caller of the function that made the syscall, when that function keeps
 * no frame pointer (libc's ioctl wrapper: a frame-pointer walk from it goes
 * from its ip to its caller's caller): the first word above the user stack
 * pointer, within USER_CALLER_SCAN words, that is a return address of a call
 * into the function holding ip (its start at most 4 KiB before ip). 0: none.
 */
static __always_inline __u64 leaf_caller(__u64 sp, __u64 ip)
{
	for (int i = 0; i < USER_CALLER_SCAN; i++) {
		__u64 w = 0, t;

		if (bpf_probe_read_user(&w, sizeof(w), (void *)(sp + 8 * i)) || w < 4096)
			continue;
		t = call_target(w);
		if (t && t <= ip && ip - t < 4096)
			return w;
	}
	return 0;
}

/* The caller of the current task's syscall wrapper, from its user registers; 0: none found. */
static __always_inline __u64 syscall_caller(void)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	__u64 sp = 0, ip = 0;

	if (!bpf_probe_read_kernel(&sp, sizeof(sp), &regs->rsp) &&
	    !bpf_probe_read_kernel(&ip, sizeof(ip), &regs->rip) && sp && ip)
		return leaf_caller(sp, ip);
	return 0;
}

#endif
