// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The DWARF unwinder (symbols/unwind.c) on a real capture (tests/unit/unwind/):
 * a launch's stack copy and registers (sample.bin, struct nv_stack_sample as
 * the BPF program sends it) and its process's maps (maps.txt), taken with
 * GPUTOP_TEST_STACK_DUMP from the stand-in client and libcuda built -O2
 * -fomit-frame-pointer, both kept beside them. The maps are re-pointed at the
 * kept files (their device and inode now); every other file becomes anonymous,
 * so the walk ends at main's caller in the C library, whatever this machine's.
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "bpf/nvidia.h"
#include "symbols/symbolizer.h"
#include "symbols/unwind.h"

#define DIR "tests/unit/unwind/"
#define NO_PID 4194303 /* above any pid_max: the files are opened by path, checked by inode */

static struct nv_stack_sample sample;
static size_t sample_size;

static void load_sample(void)
{
	FILE *f = fopen(DIR "sample.bin", "rb");

	assert_non_null(f);
	sample_size = fread(&sample, 1, sizeof(sample), f);
	fclose(f);
	assert_true(sample_size >= offsetof(struct nv_stack_sample, stack.data));
	assert_true(sample.stack.size <= sample_size - offsetof(struct nv_stack_sample, stack.data));
}

/* One maps line re-pointed at the kept file of that name, or made anonymous. */
static void map_line(char *line, FILE *out)
{
	static const char *const kept[] = { "cuda-client", "libcuda.so.1" };
	char range[64], perms[8], off[32], *path = strchr(line, '/'), abs[4096];
	struct stat st;

	assert_int_equal(sscanf(line, "%63s %7s %31s", range, perms, off), 3);
	for (size_t i = 0; path && i < 2; i++) {
		size_t n = strlen(path), k = strlen(kept[i]);

		if (n < k || strcmp(path + n - k, kept[i]))
			continue;
		assert_non_null(realpath(i ? DIR "libcuda.so.1" : DIR "cuda-client", abs));
		assert_int_equal(stat(abs, &st), 0);
		fprintf(out, "%s %s %s %02x:%02x %lu %s\n", range, perms, off, major(st.st_dev), minor(st.st_dev),
			(unsigned long)st.st_ino, abs);
		return;
	}
	fprintf(out, "%s %s %s 00:00 0\n", range, perms, off);
}

static void load_maps(struct sym_process *p)
{
	FILE *in = fopen(DIR "maps.txt", "r"), *out;
	char line[8192], *text = NULL;
	size_t len = 0;

	assert_non_null(in);
	out = open_memstream(&text, &len);
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		map_line(line, out);
	}
	fclose(in);
	fclose(out);
	memset(p, 0, sizeof(*p));
	p->pid = NO_PID;
	p->uid = getuid();
	p->perf_err = 1;
	assert_int_equal(proc_maps_parse(&p->maps, text, len), 0);
	free(text);
}

static struct unwind_input input(size_t len, bool cut)
{
	return (struct unwind_input){ .ip = sample.stack.ip, .sp = sample.stack.sp, .bp = sample.stack.bp,
				      .stack = sample.stack.data, .len = len, .cut = cut };
}

/* The whole copy: cuLaunchKernel, phase_a, child, main, then main's caller (no module: the end). */
static void whole_chain(void **state)
{
	static const char *const want[] = { "cuLaunchKernel", "phase_a", "child", "main" };
	static struct unwind_result r;
	struct symbolizer s;
	struct sym_process p;
	struct unwind_input in;
	struct unwind_proc *u;

	(void)state;
	load_sample();
	load_maps(&p);
	assert_int_equal(symbolizer_init(&s, &(struct symbolizer_config){ 0 }), 0);
	assert_non_null(u = unwind_proc_new(p.pid, &p.maps));
	in = input(sample.stack.size, sample.stack.flags & USER_STACK_CUT);
	unwind_stack(u, &in, &r);
	assert_int_equal(r.n, 5);
	assert_false(r.truncated);
	for (size_t i = 0; i < 4; i++) {
		struct frame f;

		symbolize_user(&s, &p, r.ips[i], &f);
		assert_string_equal(f.name, want[i]);
	}
	assert_true(unwind_files_opened(u) >= 1 && unwind_files_opened(u) <= 2);
	unwind_proc_free(u);
	symbolizer_free(&s);
	sym_process_free(&p);
}

/* The copy cut short: [truncated] when the budget cut it, a plain end when the stack did. */
static void cut_short(void **state)
{
	static struct unwind_result r;
	struct sym_process p;
	struct unwind_input in;
	struct unwind_proc *u;

	(void)state;
	load_sample();
	load_maps(&p);
	assert_non_null(u = unwind_proc_new(p.pid, &p.maps));
	in = input(16, true);
	unwind_stack(u, &in, &r);
	assert_true(r.n >= 1 && r.n < 5);
	assert_true(r.truncated);
	in = input(16, false);
	unwind_stack(u, &in, &r);
	assert_true(r.n >= 1 && r.n < 5);
	assert_false(r.truncated);
	unwind_proc_free(u);
	sym_process_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_chain),
		cmocka_unit_test(cut_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
