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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t offsets[NNAMES];
	int fd = memfd_create("fuzz-elf-funcs", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	for (size_t k = 0; k < NNAMES; k++)
		offsets[k] = UINT64_MAX;
	if (elf_func_offsets(fd, names, NNAMES, offsets) == 0)
		for (size_t k = 0; k < NNAMES; k++)
			if (offsets[k] == UINT64_MAX) /* every name answered: an offset, or 0 */
				abort();
	close(fd);
	return 0;
}
