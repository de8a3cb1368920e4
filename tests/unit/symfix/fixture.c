// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A program of known functions for the symbolizer's tests: prints each
 * function's address ("name 0xADDR"), then "ready", then waits for its stdin
 * to close, so that the test reads its mappings while it lives. With "stack":
 * main -> fix_outer -> fix_inner prints its own stack's return addresses
 * ("stack 0xADDR ...", leaf first, from glibc's backtrace) and waits there.
 */
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

__attribute__((noinline, noreturn)) static void fix_inner(void)
{
	void *pcs[64];
	int i, n = backtrace(pcs, 64);

	printf("stack");
	for (i = 0; i < n; i++)
		printf(" %p", pcs[i]);
	printf("\nready\n");
	fflush(stdout);
	while (getchar() != EOF)
		;
	exit(0);
}

/*
 * Its last instruction is the call (fix_inner does not return): the return
 * address is past fix_outer's end, and only a lookup one byte before it (inside
 * the call) names fix_outer.
 */
__attribute__((noinline)) void fix_outer(void)
{
	fix_inner();
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "stack"))
		fix_outer();
	printf("fix_alpha %p\n", (void *)fix_alpha);
	printf("fix_static_beta %p\n", (void *)fix_static_beta);
	printf("ready\n");
	fflush(stdout);
	while (getchar() != EOF)
		;
	return fix_static_beta(1) == 0;
}
