// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A program of known functions for the symbolizer's tests: prints each
 * function's address ("name 0xADDR"), then "ready", then waits for its stdin
 * to close, so that the test reads its mappings while it lives.
 */
#include <stdio.h>

__attribute__((noinline)) int fix_alpha(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

__attribute__((noinline)) static int fix_static_beta(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 5 + fix_alpha(x);
}

int main(void)
{
	printf("fix_alpha %p\n", (void *)fix_alpha);
	printf("fix_static_beta %p\n", (void *)fix_static_beta);
	printf("ready\n");
	fflush(stdout);
	while (getchar() != EOF)
		;
	return fix_static_beta(1) == 0;
}
