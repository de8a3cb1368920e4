// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The symbolizer's parsers and writers on hostile text: maps lines, perf maps,
 * kallsyms (hidden addresses included), folded-stack escaping, the file cache's
 * bounds. The ELF half, on programs built for it, is test_symbols_elf.c.
 */
#include "tests/unit/cmocka_all.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/elf_cache.h"
#include "symbols/folded.h"
#include "symbols/kallsyms.h"
#include "symbols/perf_map.h"
#include "symbols/proc_maps.h"
#include "symbols/text.h"
#include "tests/unit/utf8_judge.h"

static int line(const char *s, struct map *m, char *path)
{
	return proc_maps_parse_line(s, strlen(s), m, path, PROC_MAPS_PATH_MAX);
}

static void maps_lines(void **state)
{
	char path[PROC_MAPS_PATH_MAX];
	struct map m;

	(void)state;
	assert_int_equal(
		line("7f1c2a400000-7f1c2a428000 r-xp 00028000 fd:01 1835056                    "
		     "/usr/lib/x86_64-linux-gnu/libc.so.6",
		     &m, path),
		0);
	assert_true(m.start == 0x7f1c2a400000 && m.end == 0x7f1c2a428000 && m.offset == 0x28000);
	assert_true(m.dev_major == 0xfd && m.dev_minor == 1 && m.inode == 1835056 && m.exec);
	assert_int_equal(m.kind, MAP_KIND_FILE);
	assert_string_equal(path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_int_equal(map_file_offset(&m, 0x7f1c2a401234), 0x29234);
	/* anonymous, with and without the kernel's padding */
	assert_int_equal(line("7f1c2a000000-7f1c2a021000 rw-p 00000000 00:00 0 ", &m, path), 0);
	assert_int_equal(m.kind, MAP_KIND_ANON);
	assert_int_equal(line("7f1c2a000000-7f1c2a021000 rw-p 00000000 00:00 0", &m, path), 0);
	assert_int_equal(m.kind, MAP_KIND_ANON);
	assert_string_equal(path, "");
	assert_int_equal(line("7ffd1b5f2000-7ffd1b5f4000 r-xp 00000000 00:00 0  [vdso]", &m, path),
			 0);
	assert_int_equal(m.kind, MAP_KIND_VDSO);
	assert_int_equal(line("55d1c8a00000-55d1c8a21000 rw-p 00000000 00:00 0  [heap]", &m, path),
			 0);
	assert_int_equal(m.kind, MAP_KIND_SPECIAL);
	assert_string_equal(path, "[heap]");
	/* deleted, and a path with spaces and the kernel's escaped newline */
	assert_int_equal(line("400000-401000 r-xp 00000000 08:02 99 /tmp/a b (deleted)", &m, path),
			 0);
	assert_true(m.deleted && m.kind == MAP_KIND_FILE);
	assert_string_equal(path, "/tmp/a b");
	assert_int_equal(line("400000-401000 r-xp 00000000 08:02 99 /tmp/x\\012;y", &m, path), 0);
	assert_string_equal(path, "/tmp/x\\012;y");
	/* leading zeros as 32-bit kernels print them */
	assert_int_equal(
		line("0000000000400000-0000000000401000 r--s 00000000 08:02 9 /x", &m, path), 0);
	assert_true(m.start == 0x400000 && !m.exec);
	/* a named file without an inode is nothing we could open */
	assert_int_equal(line("400000-401000 r-xp 00000000 00:05 0 /memfd:jit (deleted)", &m, path),
			 0);
	assert_int_equal(m.kind, MAP_KIND_SPECIAL);
}

static void maps_lines_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"400000",
		"400000-",
		"401000-400000 r-xp 00000000 08:02 9 /x", /* end before start */
		"400000-400000 r-xp 00000000 08:02 9 /x", /* empty */
		"400000-401000 r-xq 00000000 08:02 9 /x", /* perms */
		"400000-401000 rwx 00000000 08:02 9 /x",
		"400000-401000 r-xp 00000000 1000:02 9 /x", /* major over 12 bits */
		"400000-401000 r-xp 00000000 08:100000 9 /x", /* minor over 20 bits */
		"400000-401000 r-xp 00000000 08-02 9 /x",
		"400000-401000 r-xp 00000000 08:02 9x /x", /* inode runs into the name */
		/* inode over 64 bits */
		"400000-401000 r-xp 00000000 08:02 99999999999999999999 /x",
		"10000000000000000-10000000000001000 r-xp 00000000 08:02 9 /x", /* 17 digits */
		"400000-401000 r-xp fffffffffffff000 08:02 9 /x", /* offset + size wraps */
		"400000-401000 r-xp 00000000 08:02", /* no inode */
		"400000-401000\tr-xp 00000000 08:02 9 relative/path",
		"g00000-401000 r-xp 00000000 08:02 9 /x",
	};
	char path[PROC_MAPS_PATH_MAX], small[8], with_nul[] = "400000-401000 r-xp 0 08:02 9 /a\0b";
	struct map m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = line(bad[i], &m, path);

		if (rc != -EINVAL &&
		    strcmp(bad[i], "400000-401000\tr-xp 00000000 08:02 9 relative/path"))
			fail_msg("accepted: '%s'", bad[i]);
	}
	/* a relative name is a special, not a file */
	assert_int_equal(line("400000-401000\tr-xp 00000000 08:02 9 relative/path", &m, path), 0);
	assert_int_equal(m.kind, MAP_KIND_SPECIAL);
	assert_int_equal(
		proc_maps_parse_line(with_nul, sizeof(with_nul) - 1, &m, path, sizeof(path)),
		-EINVAL);
	assert_int_equal(proc_maps_parse_line("400000-401000 r-xp 0 08:02 9 /a/long/path", 41, &m,
					      small, sizeof(small)),
			 -EINVAL);
}

static void maps_table(void **state)
{
	static const char text[] = "500000-501000 r-xp 00001000 08:02 7 /b\n"
				   "garbage\n"
				   "400000-402000 r-xp 00000000 08:02 9 /a\n"
				   "401000-403000 r-xp 00000000 08:02 9 /overlap\n"
				   "7ffd1b5f2000-7ffd1b5f4000 r-xp 00000000 00:00 0  [vdso]";
	struct proc_maps t = { 0 };
	struct map *m;

	(void)state;
	assert_int_equal(proc_maps_parse(&t, text, sizeof(text) - 1), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.bad_lines, 2);
	m = proc_maps_find(&t, 0x401fff);
	assert_non_null(m);
	assert_string_equal(map_path(&t, m), "/a");
	assert_null(proc_maps_find(&t, 0x402000)); /* the end is not in it */
	assert_null(proc_maps_find(&t, 0x3fffff));
	m = proc_maps_find(&t, 0x500010);
	assert_non_null(m);
	assert_int_equal(map_file_offset(m, 0x500010), 0x1010);
	m = proc_maps_find(&t, 0x7ffd1b5f2100);
	assert_true(m && m->kind == MAP_KIND_VDSO);
	/* parsed again: emptied first */
	assert_int_equal(proc_maps_parse(&t, "", 0), 0);
	assert_int_equal(t.n, 0);
	proc_maps_free(&t);
}

static void hex_fields(void **state)
{
	const char *s = "0xffffffffffffffff", *e = s + strlen(s), *p = s;
	uint64_t v;

	(void)state;
	assert_true(text_hex(&p, e, &v));
	assert_true(v == UINT64_MAX && p == e);
	p = "00000000000000000000001";
	assert_true(text_hex(&p, p + 23, &v) && v == 1);
	p = "1ffffffffffffffff";
	assert_false(text_hex(&p, p + 17, &v));
	p = "0x";
	assert_true(text_hex(&p, p + 2, &v) && v == 0 && *p == 'x'); /* the 0, then not a number */
	p = "zz";
	assert_false(text_hex(&p, p + 2, &v));
}

static void perf_maps(void **state)
{
	static const char text[] = "7f0000001000 40 py::f:/app/main.py\n"
				   "0x7f0000002000 0x20 py::g:/app/x;y.py\r\n"
				   "7f0000001000 40 py::f_again:/app/main.py\n"
				   "7f0000003000 0 zero size\n"
				   "ffffffffffffffff 2 wraps\n"
				   "7f0000004000 10\n"
				   "nonsense line\n"
				   "\n"
				   "7f0000005000 10 name with spaces";
	const struct sym *s;
	struct symtab t;
	size_t bad;

	(void)state;
	assert_int_equal(perf_map_parse(&t, text, sizeof(text) - 1, &bad), 0);
	assert_int_equal(bad, 4);
	s = symtab_find(&t, 0x7f000000103f);
	assert_non_null(s);
	assert_string_equal(symtab_name(&t, s), "py::f_again:/app/main.py"); /* the later wins */
	assert_null(symtab_find(&t, 0x7f0000001040));
	s = symtab_find(&t, 0x7f0000002000);
	assert_string_equal(symtab_name(&t, s), "py::g:/app/x;y.py");
	s = symtab_find(&t, 0x7f0000005001);
	assert_string_equal(symtab_name(&t, s), "name with spaces");
	assert_null(symtab_find(&t, 0x7f0000003000));
	symtab_free(&t);
}

static void kallsyms_text(void **state)
{
	static const char text[] = "ffffffff81000000 T _stext\n"
				   "ffffffff81001000 t do_thing\n"
				   "ffffffff81002000 D some_data\n"
				   "ffffffff81003000 W weak_fn\n"
				   "ffffffffc0000000 t mod_fn\t[gpu_sched]\n"
				   "bad\n"
				   "ffffffff81001800 T\n";
	static const char hidden[] = "0000000000000000 T _stext\n"
				     "0000000000000000 t do_thing\n"
				     "0000000000000000 T other\n";
	struct kallsyms k;
	uint64_t off;

	(void)state;
	assert_int_equal(kallsyms_parse(&k, text, sizeof(text) - 1), 0);
	assert_false(k.hidden);
	assert_int_equal(k.bad_lines, 2);
	assert_string_equal(kallsyms_find(&k, 0xffffffff81001010, &off), "do_thing");
	assert_int_equal(off, 0x10);
	/* data is not a frame: the function before it reaches to the next text symbol */
	assert_string_equal(kallsyms_find(&k, 0xffffffff81002010, &off), "do_thing");
	assert_string_equal(kallsyms_find(&k, 0xffffffffc0000000, &off), "mod_fn");
	assert_null(kallsyms_find(&k, 0xffffffff80000000, &off));
	/* far past the last symbol: nobody's */
	assert_null(kallsyms_find(&k, 0xffffffffc0000000 + KALLSYMS_FUNC_MAX, &off));
	kallsyms_free(&k);
	assert_int_equal(kallsyms_parse(&k, hidden, sizeof(hidden) - 1), 0);
	assert_true(k.hidden);
	assert_null(kallsyms_find(&k, 0, &off));
	assert_null(kallsyms_find(&k, 0xffffffff81001010, &off));
	kallsyms_free(&k);
}

static void escaping(void **state)
{
	char out[64];

	(void)state;
	folded_escape("plain name(int)", out, sizeof(out));
	assert_string_equal(out, "plain name(int)");
	folded_escape("a;b\nc\\d\x01\x7f", out, sizeof(out));
	assert_string_equal(out, "a\\x3bb\\x0ac\\x5cd\\x01\\x7f");
	folded_escape("", out, sizeof(out));
	assert_string_equal(out, "[unknown]");
	/* cut whole: never inside an escape or a character */
	folded_escape("abcdef;;;;;;", out, 12);
	assert_string_equal(out, "abcdef...");
	folded_escape("ab\xc3\xa9\xc3\xa9\xc3\xa9", out, 10);
	assert_string_equal(out, "ab\xc3\xa9\xc3\xa9\xc3\xa9");
	folded_escape("ab\xc3\xa9\xc3\xa9\xc3\xa9", out, 8);
	assert_string_equal(out, "ab\xc3\xa9...");
	folded_escape("abc", out, 4);
	assert_string_equal(out, "abc");
	folded_escape("abcd", out, 4);
	assert_string_equal(out, "...");
}

/* Bytes that start no UTF-8 character (a stray continuation, Latin-1, an overlong, a cut one): U+FFFD each. */
static void escaping_not_utf8(void **state)
{
	static const char *const names[] = { "a\x80z", "caf\xe9", "\xc0\xaf", "x\xe2\x82", "\xed\xa0\x80;\xff" };
	char out[128], *line = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	folded_escape("caf\xe9 \xc3\xa9", out, sizeof(out));
	assert_string_equal(out, "caf\xef\xbf\xbd \xc3\xa9");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		folded_escape(names[i], out, sizeof(out));
		assert_true(utf8_judge_valid(out, strlen(out)));
	}
	f = open_memstream(&line, &len); /* a recording's joined text, written as it is but for these */
	assert_non_null(f);
	folded_put_joined(f, "main;caf\xe9\x01\\x3b;\xf4\x90\x80\x80");
	fclose(f);
	assert_string_equal(line, "main;caf\xef\xbf\xbd\\x01\\x3b;\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(line);
}

static char *folded(const struct frame *f, size_t n, bool truncated, uint64_t weight)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	assert_int_equal(folded_write(mem, f, n, truncated, weight), 0);
	fclose(mem);
	return buf;
}

static void folded_lines(void **state)
{
	struct frame f[3];
	char *s;

	(void)state;
	memset(f, 0, sizeof(f));
	strcpy(f[0].name, "leaf;\nevil");
	f[0].offset = 4;
	strcpy(f[1].module, "libfoo.so");
	f[1].offset = 0x1234;
	f[1].module_offset = true;
	strcpy(f[2].name, "main");
	s = folded(f, 3, false, 42);
	assert_string_equal(s, "main;libfoo.so+0x1234;leaf\\x3b\\x0aevil 42\n");
	free(s);
	memset(&f[1], 0, sizeof(f[1]));
	s = folded(f, 2, true, 7);
	assert_string_equal(s, "[truncated];[unknown];leaf\\x3b\\x0aevil 7\n");
	free(s);
	s = folded(f, 0, false, 1);
	assert_string_equal(s, "[unknown] 1\n");
	free(s);
}

static void folded_too_deep(void **state)
{
	struct frame *f = calloc(FOLDED_FRAMES_MAX + 5, sizeof(*f));
	size_t i, semis = 0;
	char *s;

	(void)state;
	assert_non_null(f);
	for (i = 0; i < FOLDED_FRAMES_MAX + 5; i++)
		snprintf(f[i].name, sizeof(f[i].name), "f%zu", i);
	s = folded(f, FOLDED_FRAMES_MAX + 5, false, 3);
	assert_memory_equal(s, "[truncated];f511;", 17); /* the leaf end kept */
	for (i = 0; s[i]; i++)
		semis += s[i] == ';';
	assert_int_equal(semis, FOLDED_FRAMES_MAX);
	assert_string_equal(s + strlen(s) - 6, ";f0 3\n");
	free(s);
	free(f);
}

static void put_file(struct elf_cache *c, uint64_t inode, size_t nsyms)
{
	struct elf_key k = { .dev_major = 8, .inode = inode };
	struct elf_info info = { 0 };
	struct symtab t;
	size_t i;

	symtab_init(&t, 1u << 20, 1u << 24);
	for (i = 0; i < nsyms; i++)
		assert_int_equal(symtab_add(&t, 0x1000 + 16 * i, 16, "function_name", 13), 0);
	symtab_sort(&t, false);
	elf_cache_put(c, &k, &info, &t);
	assert_int_equal(t.n, 0); /* taken */
}

static bool cached(struct elf_cache *c, uint64_t inode)
{
	struct elf_key k = { .dev_major = 8, .inode = inode };

	return elf_cache_get(c, &k) != NULL;
}

static void cache_bounds(void **state)
{
	struct elf_cache c;
	struct elf_cache_stats st;
	struct elf_key other = { .dev_major = 8, .inode = 1, .build_id_len = 1, .build_id = { 7 } };
	struct elf_entry *e;

	(void)state;
	assert_int_equal(elf_cache_init(&c, 3, 1u << 20), 0);
	put_file(&c, 1, 10);
	put_file(&c, 2, 10);
	put_file(&c, 3, 10);
	assert_true(cached(&c, 1)); /* 1 used last: 2 is the oldest */
	put_file(&c, 4, 10);
	assert_false(cached(&c, 2));
	assert_true(cached(&c, 1) && cached(&c, 3) && cached(&c, 4));
	assert_null(elf_cache_get(&c, &other)); /* same file, another build */
	st = elf_cache_stats(&c);
	assert_int_equal(st.entries, 3);
	assert_int_equal(st.evictions, 1);
	assert_int_equal(st.hits, 4);
	assert_int_equal(st.misses, 2);
	elf_cache_free(&c);

	/* the byte bound: a file of 10k symbols (about 650 KB) fills more than half of it */
	assert_int_equal(elf_cache_init(&c, 100, 1u << 20), 0);
	put_file(&c, 1, 10000);
	assert_int_equal(elf_cache_stats(&c).entries, 1);
	put_file(&c, 2, 10000);
	st = elf_cache_stats(&c);
	assert_true(st.bytes <= 1u << 20);
	assert_int_equal(st.entries, 1);
	assert_int_equal(st.evictions, 1);
	assert_true(cached(&c, 2));
	/* one larger than the bound alone: kept without its symbols, "too large" (not read again) */
	put_file(&c, 3, 200000);
	e = elf_cache_get(&c, &(struct elf_key){ .dev_major = 8, .inode = 3 });
	assert_non_null(e);
	assert_true(e->too_large);
	assert_int_equal(e->syms.n, 0);
	assert_int_equal(elf_cache_stats(&c).too_large, 1);
	assert_true(elf_cache_stats(&c).bytes <= 1u << 20);
	elf_cache_free(&c);
}

static void symtab_limits(void **state)
{
	struct symtab t;
	char longname[SYMTAB_NAME_MAX + 100];

	(void)state;
	symtab_init(&t, 2, 1u << 16);
	memset(longname, 'x', sizeof(longname));
	assert_int_equal(symtab_add(&t, 0x10, 4, longname, sizeof(longname)), 0);
	assert_int_equal(strlen(t.pool), SYMTAB_NAME_MAX);
	assert_int_equal(symtab_add(&t, 0x20, 4, "a", 1), 0);
	assert_int_equal(symtab_add(&t, 0x30, 4, "b", 1), -ENOSPC);
	assert_true(t.full);
	symtab_free(&t);
	symtab_init(&t, 100, 8);
	assert_int_equal(symtab_add(&t, 0x10, 4, "abcdefgh", 8),
			 -ENOSPC); /* 9 bytes with its NUL */
	assert_int_equal(symtab_add(&t, 0x10, 4, "abc", 3), 0);
	symtab_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(maps_lines),	   cmocka_unit_test(maps_lines_bad),	cmocka_unit_test(maps_table),
		cmocka_unit_test(hex_fields),	   cmocka_unit_test(perf_maps),		cmocka_unit_test(kallsyms_text),
		cmocka_unit_test(escaping),	   cmocka_unit_test(escaping_not_utf8), cmocka_unit_test(folded_lines),
		cmocka_unit_test(folded_too_deep), cmocka_unit_test(cache_bounds),	cmocka_unit_test(symtab_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
