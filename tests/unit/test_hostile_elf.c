// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Hostile ELF files (issue 41) cost the symbolizer bounded time: crafted here
 * (tests/unit/hostile_elf.h) and symbolized for many frames, each run's CPU
 * time measured (CLOCK_PROCESS_CPUTIME_ID) against a bound today's code passed.
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "symbols/symbolizer.h"
#include "tests/unit/hostile_elf.h"

static char dir[] = "/tmp/gputop-hostile-XXXXXX";

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A .symtab of 262,144 functions each named by one 1 KiB string (6 MB of table, 256 MiB once copied). */
#define BIG_SYMS 262144
#define BIG_NAME 1023
#define BIG_FRAMES 64
#define BIG_START 0x7f0000000000ull

static void write_big_symtab(const char *path)
{
	static const uint8_t text[16] = { 0xc3 };
	Elf64_Sym *syms = calloc(BIG_SYMS + 1, sizeof(*syms));
	char *strs = calloc(1, BIG_NAME + 2);
	struct hostile_section sec[] = {
		{ .name = ".text",
		  .type = SHT_PROGBITS,
		  .flags = SHF_ALLOC | SHF_EXECINSTR,
		  .data = text,
		  .size = sizeof(text) },
		{ .name = ".symtab",
		  .type = SHT_SYMTAB,
		  .link = 3,
		  .info = 1,
		  .entsize = sizeof(Elf64_Sym),
		  .data = syms,
		  .size = (BIG_SYMS + 1) * sizeof(*syms) },
		{ .name = ".strtab", .type = SHT_STRTAB, .data = strs, .size = BIG_NAME + 2 },
	};

	assert_true(syms && strs);
	memset(strs + 1, 'f', BIG_NAME);
	for (size_t i = 1; i <= BIG_SYMS; i++)
		syms[i] = (Elf64_Sym){ .st_name = 1,
				       .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				       .st_shndx = 1,
				       .st_value = HOSTILE_DATA_START + 16 * i,
				       .st_size = 16 };
	assert_int_equal(hostile_elf_write(path, sec, 3), 0);
	free(syms);
	free(strs);
}

/*
 * Its symbols pass the cache's byte bound: read once, the file kept as "too
 * large" (said in each frame's module), every later frame a lookup: no re-read.
 */
static void symtab_too_large_read_once(void **state)
{
	char path[128], text[FRAME_NAME_MAX + FRAME_MODULE_MAX + 32];
	struct symbolizer s;
	struct sym_process p;
	struct frame f;
	double t0, first, rest;

	(void)state;
	snprintf(path, sizeof(path), "%s/libbig.so", dir);
	write_big_symtab(path);
	assert_int_equal(symbolizer_init(&s, NULL), 0);
	assert_int_equal(hostile_process(&p, path, BIG_START), 0);
	t0 = cpu_ms();
	symbolize_user(&s, &p, BIG_START + HOSTILE_DATA_START + 16, &f);
	first = cpu_ms() - t0;
	t0 = cpu_ms();
	for (size_t i = 1; i < BIG_FRAMES; i++)
		symbolize_user(&s, &p, BIG_START + HOSTILE_DATA_START + 16 * (i * 4093 % BIG_SYMS + 1), &f);
	rest = cpu_ms() - t0;
	print_message("a 6 MB .symtab of 1 KiB names: first frame %.1f ms of CPU, %d more %.3f ms\n", first,
		      BIG_FRAMES - 1, rest);
	frame_text(&f, false, text, sizeof(text));
	assert_string_equal(f.name, "");
	assert_non_null(strstr(text, "libbig.so [symbols too large]+0x"));
	assert_int_equal(s.files_opened, 1);
	assert_int_equal(elf_cache_stats(&s.cache).too_large, 1);
	assert_true(rest < 50.0); /* a lookup each: microseconds (a re-read was 100s of ms) */
	sym_process_free(&p);
	symbolizer_free(&s);
	unlink(path);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(symtab_too_large_read_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
