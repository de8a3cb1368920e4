// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Opens, reads and closes FILE N times: with /proc/version, a kernel function
 * (version_proc_show, reached through seq_file's show pointer, so never inlined)
 * runs exactly N times, for the NVIDIA collector's driver-probe test
 * (GPUTOP_TEST_NV_DRIVER_FNS). Prints how many reads returned data.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc == 3 ? atol(argv[2]) : 0, done = 0;
	char buf[4096];

	if (n < 1) {
		fprintf(stderr, "usage: reread FILE N\n");
		return 2;
	}
	for (long i = 0; i < n; i++) {
		int fd = open(argv[1], O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			break;
		done += read(fd, buf, sizeof(buf)) > 0;
		close(fd);
	}
	printf("%ld\n", done);
	return done == n ? 0 : 1;
}
