// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: any bytes as a library whose functions' file offsets are read to
 * place uprobes (elf_funcs.h: the NVIDIA collector's libcuda, the GPU time
 * collector's CUPTI library; another user's file, read in the symbolizing
 * child). The read must end, whatever the symbol tables hold, and answer for
 * every name asked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "symbols/elf_funcs.h"

static const char *const names[] = { "cuLaunchKernel",
				     "cuLaunchKernelEx",
				     "cuModuleGetFunction",
				     "tiny_func",
				     "main",
				     "gputop_cupti_records_semaphore",
				     "" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* The offsets read with every slot first set to fill; 0, or -1 (not ELF). */
static int read_offsets(int fd, uint64_t fill, uint64_t *offsets)
{
	for (size_t k = 0; k < NNAMES; k++)
		offsets[k] = fill;
	return elf_func_offsets(fd, names, NNAMES, offsets);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t a[NNAMES], b[NNAMES];
	int fd = memfd_create("fuzz-elf-funcs", MFD_CLOEXEC), ra, rb;

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	ra = read_offsets(fd, UINT64_MAX, a);
	rb = read_offsets(fd, 0x5a5a5a5a5a5a5a5aull, b);
	if (ra != rb || (!ra && memcmp(a, b, sizeof(a)))) /* every name answered, the same each time */
		abort();
	close(fd);
	return 0;
}
