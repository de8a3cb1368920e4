// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The symbolizer on programs built for it (tests/unit/symfix/make.sh, into
 * SYMFIX_DIR): each runs, prints its functions' addresses and waits; the test
 * captures its mappings and resolves those addresses to exactly the names
 * they have: PIE, non-PIE, C++ demangled, stripped with its debug file found by
 * build id, stripped without it (.dynsym), run from a deleted file. Then the
 * safe opening (links refused, another inode refused), perf maps for JIT code
 * and kernel frames with hidden addresses; a capture that fails holds nothing.
 */
#include "tests/unit/cmocka_all.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/sysroot.h"
#include "symbols/file_open.h"
#include "symbols/symbolizer.h"

#define FN_MAX 8

struct child {
	pid_t pid;
	int to_child; /* its stdin: closed, it exits */
	size_t n;
	char names[FN_MAX][64];
	uint64_t addrs[FN_MAX];
};

/* Runs prog; reads "name 0xADDR" lines up to "ready". */
static void child_start(const char *prog, struct child *c)
{
	int in[2], out[2];
	char line[256];
	FILE *f;

	memset(c, 0, sizeof(*c));
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (!c->pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	c->to_child = in[1];
	f = fdopen(out[0], "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && strcmp(line, "ready\n")) {
		unsigned long long a;

		assert_true(c->n < FN_MAX);
		assert_int_equal(sscanf(line, "%63s %llx", c->names[c->n], &a), 2);
		c->addrs[c->n++] = a;
	}
	fclose(f);
	assert_true(c->n > 0);
}

static void child_stop(struct child *c)
{
	int status;

	close(c->to_child);
	assert_int_equal(waitpid(c->pid, &status, 0), c->pid);
}

static uint64_t addr_of(const struct child *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name))
			return c->addrs[i];
	fail_msg("the fixture printed no %s", name);
	return 0;
}

/* The text of addr in the child, as resolved by a symbolizer pointed at debug_dir. */
static void resolve(const char *prog, const char *debug_dir, const char *fn, uint64_t plus,
		    char *text, size_t size)
{
	struct symbolizer_config cfg = { .debug_dir = debug_dir };
	struct symbolizer s;
	struct sym_process p;
	struct child c;
	struct frame f;

	child_start(prog, &c);
	assert_int_equal(symbolizer_init(&s, &cfg), 0);
	assert_int_equal(sym_process_capture(&p, c.pid), 0);
	symbolize_user(&s, &p, addr_of(&c, fn) + plus, &f);
	frame_text(&f, true, text, size);
	sym_process_free(&p);
	symbolizer_free(&s);
	child_stop(&c);
}

static void expect(const char *prog, const char *debug_dir, const char *fn, uint64_t plus,
		   const char *want)
{
	char text[FRAME_NAME_MAX + 64];

	resolve(prog, debug_dir, fn, plus, text, sizeof(text));
	if (strcmp(text, want))
		fail_msg("%s: %s+%llu resolved to '%s', not '%s'", prog, fn,
			 (unsigned long long)plus, text, want);
}

#define FIX(name) SYMFIX_DIR "/" name

static void pie(void **state)
{
	(void)state;
	expect(FIX("pie"), FIX("nodebug"), "fix_alpha", 0, "fix_alpha+0x0");
	expect(FIX("pie"), FIX("nodebug"), "fix_alpha", 3, "fix_alpha+0x3");
	expect(FIX("pie"), FIX("nodebug"), "fix_static_beta", 1, "fix_static_beta+0x1");
}

static void nopie(void **state)
{
	(void)state;
	expect(FIX("nopie"), FIX("nodebug"), "fix_alpha", 2, "fix_alpha+0x2");
	expect(FIX("nopie"), FIX("nodebug"), "fix_static_beta", 0, "fix_static_beta+0x0");
}

static void cxx(void **state)
{
	(void)state;
	expect(FIX("cxx"), FIX("nodebug"), "compute", 1, "gputop_fix::compute(int, double)+0x1");
	expect(FIX("cxx"), FIX("nodebug"), "spin", 0, "gputop_fix::Widget::spin(long)+0x0");
}

static void stripped_with_debug_file(void **state)
{
	(void)state;
	/* a static function is in the debug file's .symtab only */
	expect(FIX("stripped"), FIX("debug"), "fix_static_beta", 2, "fix_static_beta+0x2");
	expect(FIX("stripped"), FIX("debug"), "fix_alpha", 0, "fix_alpha+0x0");
}

static void stripped_without(void **state)
{
	char text[FRAME_NAME_MAX + 64];

	(void)state;
	/* exported (-rdynamic): .dynsym has it */
	expect(FIX("stripped"), FIX("nodebug"), "fix_alpha", 1, "fix_alpha+0x1");
	/* static: nobody has it; the module and its address say where */
	resolve(FIX("stripped"), FIX("nodebug"), "fix_static_beta", 0, text, sizeof(text));
	assert_memory_equal(text, "stripped+0x", 11);
	/* a debug file at its build id's path, of another build: not believed */
	resolve(FIX("stripped"), FIX("wrongdebug"), "fix_static_beta", 0, text, sizeof(text));
	assert_memory_equal(text, "stripped+0x", 11);
	expect(FIX("stripped"), FIX("wrongdebug"), "fix_alpha", 1, "fix_alpha+0x1");
}

static void deleted_file(void **state)
{
	char tmp[] = "/tmp/gputop-symfix-XXXXXX", prog[64], cmd[160], text[FRAME_NAME_MAX + 64];
	struct symbolizer s;
	struct sym_process p;
	struct child c;
	struct frame f;
	struct map *m;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	snprintf(prog, sizeof(prog), "%s/pie", tmp);
	snprintf(cmd, sizeof(cmd), "cp %s %s", FIX("pie"), prog);
	assert_int_equal(system(cmd), 0);
	child_start(prog, &c);
	assert_int_equal(unlink(prog), 0);
	assert_int_equal(rmdir(tmp), 0);
	assert_int_equal(symbolizer_init(&s, NULL), 0);
	assert_int_equal(sym_process_capture(&p, c.pid), 0);
	m = proc_maps_find(&p.maps, addr_of(&c, "fix_alpha"));
	assert_true(m && m->deleted);
	symbolize_user(&s, &p, addr_of(&c, "fix_alpha") + 1, &f);
	frame_text(&f, true, text, sizeof(text));
	assert_string_equal(text, "fix_alpha+0x1");
	sym_process_free(&p);
	symbolizer_free(&s);
	child_stop(&c);
}

/* A symbol's value in our own vDSO as readelf reads a copy of it: an oracle of its own. */
static uint64_t vdso_readelf_value(const char *name, size_t size)
{
	char path[] = "/tmp/gputop-vdso-XXXXXX", cmd[128], line[512];
	const void *image = (const void *)getauxval(AT_SYSINFO_EHDR);
	unsigned long long value = 0;
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0 && image);
	assert_int_equal(write(fd, image, size), (ssize_t)size);
	close(fd);
	snprintf(cmd, sizeof(cmd), "readelf -W --dyn-syms %s 2>/dev/null", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char sym[128];
		unsigned long long v;

		if (sscanf(line, "%*s %llx %*s FUNC %*s %*s %*s %127s", &v, sym) == 2 &&
		    !strncmp(sym, name, strlen(name)) &&
		    (!sym[strlen(name)] || sym[strlen(name)] == '@'))
			value = v;
	}
	pclose(f);
	unlink(path);
	assert_true(value != 0);
	return value;
}

/* The child's [vdso]: named from our own image (one per ABI). */
static void vdso(void **state)
{
	struct symbolizer s;
	struct sym_process p;
	struct child c;
	struct frame f;
	struct map *m = NULL;
	size_t i, named = 0;
	bool clock = false;

	(void)state;
	child_start(FIX("pie"), &c);
	assert_int_equal(symbolizer_init(&s, NULL), 0);
	assert_int_equal(sym_process_capture(&p, c.pid), 0);
	for (i = 0; i < p.maps.n && !m; i++)
		if (p.maps.maps[i].kind == MAP_KIND_VDSO)
			m = &p.maps.maps[i];
	assert_non_null(m);
	for (uint64_t a = m->start; a < m->end; a += 4) {
		symbolize_user(&s, &p, a, &f);
		assert_string_equal(f.module, "[vdso]");
		named += f.name[0] != 0;
		clock |= strstr(f.name, "clock_gettime") != NULL;
	}
	assert_true(clock);
	assert_true(named > 0 && named < (m->end - m->start) / 4); /* functions, not headers */
	/* exactly at the address readelf gives (x86-64's vDSO is linked at 0: address = offset) */
	symbolize_user(&s, &p,
		       m->start + vdso_readelf_value("__vdso_clock_gettime", m->end - m->start) + 2,
		       &f);
	assert_true(strstr(f.name, "clock_gettime") != NULL);
	assert_int_equal(f.offset, 2);
	sym_process_free(&p);
	symbolizer_free(&s);
	child_stop(&c);
}

/* Maps captured at first sight; the process exits before its stack is resolved. */
static void after_exit(void **state)
{
	struct symbolizer s;
	struct sym_process p;
	struct child c;
	struct frame f;

	(void)state;
	child_start(FIX("nopie"), &c);
	assert_int_equal(symbolizer_init(&s, NULL), 0);
	assert_int_equal(sym_process_capture(&p, c.pid), 0);
	child_stop(&c);
	symbolize_user(&s, &p, addr_of(&c, "fix_static_beta") + 4, &f);
	assert_string_equal(f.name, "fix_static_beta");
	assert_int_equal(f.offset, 4);
	sym_process_free(&p);
	symbolizer_free(&s);
}

/* A process whose /proc entry is gone once its maps are read: the writer of a maps FIFO. */
struct gone_proc {
	char dir[96], moved[96], maps[128];
};

static void *maps_then_gone(void *arg)
{
	static const char text[] = "00400000-00401000 r-xp 00000000 08:02 12 /usr/bin/prog\n";
	struct gone_proc *g = arg;
	int fd = open(g->maps, O_WRONLY | O_CLOEXEC); /* until the capture opens it */

	if (fd < 0)
		return NULL;
	if (write(fd, text, sizeof(text) - 1) < 0)
		perror("maps FIFO");
	rename(g->dir, g->moved); /* exited and reaped: /proc/PID with it */
	close(fd);
	return NULL;
}

/* Gone between its maps and its owner read: the capture fails, holding nothing (no leak, no free). */
static void capture_gone_midway(void **state)
{
	char root[] = "/tmp/gputop-proc-XXXXXX", path[160];
	struct gone_proc g;
	struct sym_process p;
	pthread_t t;
	int err, fd;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(g.dir, sizeof(g.dir), "%s/4242", root);
	snprintf(g.moved, sizeof(g.moved), "%s/gone", root);
	snprintf(g.maps, sizeof(g.maps), "%s/maps", g.dir);
	assert_int_equal(mkdir(g.dir, 0700), 0);
	assert_int_equal(mkfifo(g.maps, 0600), 0);
	assert_int_equal(sysroot_set(SYSROOT_PROC, root), 0);
	assert_int_equal(pthread_create(&t, NULL, maps_then_gone, &g), 0);
	err = sym_process_capture(&p, 4242);
	fd = open(g.maps, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a capture that never opened it: the writer freed */
	pthread_join(t, NULL);
	if (fd >= 0)
		close(fd);
	sysroot_set(SYSROOT_PROC, NULL);
	assert_int_equal(err, -ENOENT);
	assert_null(p.maps.maps);
	assert_null(p.maps.pool);
	assert_int_equal(p.maps.n, 0);
	snprintf(path, sizeof(path), "%s/maps", g.moved);
	unlink(path);
	rmdir(g.moved);
	rmdir(root);
}

/* Resolving many addresses of one file reads it once: one miss, then hits. */
static void cache_counts(void **state)
{
	struct symbolizer s;
	struct sym_process p;
	struct elf_cache_stats st;
	struct child c;
	struct frame f;
	int i;

	(void)state;
	child_start(FIX("pie"), &c);
	assert_int_equal(symbolizer_init(&s, NULL), 0);
	assert_int_equal(sym_process_capture(&p, c.pid), 0);
	for (i = 0; i < 10; i++) {
		symbolize_user(&s, &p, addr_of(&c, i % 2 ? "fix_alpha" : "fix_static_beta"), &f);
		assert_string_equal(f.name, i % 2 ? "fix_alpha" : "fix_static_beta");
	}
	st = elf_cache_stats(&s.cache);
	assert_int_equal(s.files_opened, 1); /* the mapping remembers its file's key */
	assert_int_equal(st.misses, 1);
	assert_int_equal(st.hits, 9);
	assert_int_equal(st.entries, 1);
	sym_process_free(&p);
	symbolizer_free(&s);
	child_stop(&c);
}

/* A mapping of prog as the kernel would show it, at an address map_files does not have. */
static struct map fake_map(const char *prog)
{
	struct map m = { .start = 0x1000, .end = 0x2000, .kind = MAP_KIND_FILE };
	struct stat st;

	assert_int_equal(stat(prog, &st), 0);
	m.dev_major = major(st.st_dev);
	m.dev_minor = minor(st.st_dev);
	m.inode = st.st_ino;
	return m;
}

static void opening(void **state)
{
	char dir[] = "/tmp/gputop-symlink-XXXXXX", link[4200], real[4096];
	struct map m = fake_map(FIX("pie"));
	int fd;

	(void)state;
	assert_non_null(realpath(FIX("pie"), real));
	/* the path itself, in our root: opened, the same inode */
	fd = map_file_open(getpid(), &m, real);
	assert_true(fd >= 0);
	close(fd);
	/* another inode at that path: refused */
	m.inode++;
	assert_int_equal(map_file_open(getpid(), &m, real), -ESTALE);
	m.inode--;
	/* the same inode number on another device: refused */
	m.dev_minor ^= 1;
	assert_int_equal(map_file_open(getpid(), &m, real), -ESTALE);
	m.dev_minor ^= 1;
	m.dev_major ^= 1;
	assert_int_equal(map_file_open(getpid(), &m, real), -ESTALE);
	m.dev_major ^= 1;
	/* a link to it, even to the right file: not followed */
	assert_non_null(mkdtemp(dir));
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink(real, link), 0);
	assert_true(map_file_open(getpid(), &m, link) < 0);
	/* a directory of links on the way: not followed either */
	snprintf(link, sizeof(link), "%s/up", dir);
	assert_int_equal(symlink("/", link), 0);
	snprintf(link, sizeof(link), "%s/up%s", dir, real);
	assert_true(map_file_open(getpid(), &m, link) < 0);
	snprintf(link, sizeof(link), "%s/up",
		 dir); /* (not the path through it: that is the fixture) */
	unlink(link);
	snprintf(link, sizeof(link), "%s/link", dir);
	unlink(link);
	rmdir(dir);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void jit_perf_map(void **state)
{
	char dir[] = "/tmp/gputop-perfmap-XXXXXX", path[96], text[256];
	struct symbolizer_config cfg = { .perf_map_dir = dir };
	struct symbolizer s;
	struct sym_process p;
	struct frame f;
	char *jit = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t base = (uint64_t)(uintptr_t)jit;

	(void)state;
	assert_true(jit != MAP_FAILED);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf-%d.map", dir, (int)getpid());
	snprintf(text, sizeof(text),
		 "%llx 100 py::jit_fn:/app/main.py\n%llx 40 py::other;x:/app/b.py\n",
		 (unsigned long long)base, (unsigned long long)base + 0x100);
	write_file(path, text);
	assert_int_equal(symbolizer_init(&s, &cfg), 0);
	assert_int_equal(sym_process_capture(&p, getpid()), 0);
	symbolize_user(&s, &p, base + 0x10, &f);
	assert_string_equal(f.name, "py::jit_fn:/app/main.py");
	assert_int_equal(f.offset, 0x10);
	assert_string_equal(f.module, "[perf-map]");
	symbolize_user(&s, &p, base + 0x1000, &f);
	assert_string_equal(f.name, "");
	frame_text(&f, true, text, sizeof(text));
	assert_string_equal(text, "[unknown]"); /* anonymous, and not in the map */
	sym_process_free(&p);
	symbolizer_free(&s);
	munmap(jit, 8192);
	unlink(path);
	rmdir(dir);
}

static void perf_map_opening(void **state)
{
	char dir[] = "/tmp/gputop-perfmap-XXXXXX", path[96], other[128];
	pid_t pid = getpid();
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf-%d.map", dir, (int)pid);
	snprintf(other, sizeof(other), "%s/elsewhere", dir);
	write_file(other, "1000 10 f\n");
	/* a link planted by another user: refused, whatever it points at */
	assert_int_equal(symlink(other, path), 0);
	assert_int_equal(perf_map_file_open(dir, pid, getuid(), 1 << 20), -EPERM);
	unlink(path);
	/* a FIFO would block a reader: refused without blocking */
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(perf_map_file_open(dir, pid, getuid(), 1 << 20), -EINVAL);
	unlink(path);
	write_file(path, "1000 10 f\n");
	/* owned by someone other than the process's user */
	assert_int_equal(perf_map_file_open(dir, pid, getuid() + 1, 1 << 20), -EPERM);
	assert_int_equal(perf_map_file_open(dir, pid, getuid(), 4), -EFBIG);
	fd = perf_map_file_open(dir, pid, getuid(), 1 << 20);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	unlink(other);
	rmdir(dir);
}

static void kernel_frames(void **state)
{
	char dir[] = "/tmp/gputop-proc-XXXXXX", path[96], text[256];
	struct symbolizer s;
	struct frame f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	/* kptr_restrict: every address 0 */
	write_file(path, "0000000000000000 T _stext\n0000000000000000 t do_thing\n");
	assert_int_equal(sysroot_set(SYSROOT_PROC, dir), 0);
	assert_int_equal(symbolizer_init(&s, NULL), 0);
	symbolize_kernel(&s, 0xffffffff81001010, &f);
	frame_text(&f, true, text, sizeof(text));
	assert_string_equal(text, "[kernel]");
	symbolize_kernel(&s, 0, &f); /* not "_stext": the zeros are no addresses */
	frame_text(&f, true, text, sizeof(text));
	assert_string_equal(text, "[kernel]");
	symbolizer_free(&s);
	write_file(path, "ffffffff81000000 T _stext\nffffffff81001000 t do_thing\n"
			 "ffffffff81001100 T after\n");
	assert_int_equal(symbolizer_init(&s, NULL), 0);
	symbolize_kernel(&s, 0xffffffff81001010, &f);
	frame_text(&f, true, text, sizeof(text));
	assert_string_equal(text, "do_thing+0x10");
	symbolize_kernel(&s, 0xffffffff80000000, &f); /* below every symbol */
	frame_text(&f, true, text, sizeof(text));
	assert_string_equal(text, "[kernel]");
	symbolizer_free(&s);
	sysroot_set(SYSROOT_PROC, NULL);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pie),
		cmocka_unit_test(nopie),
		cmocka_unit_test(cxx),
		cmocka_unit_test(stripped_with_debug_file),
		cmocka_unit_test(stripped_without),
		cmocka_unit_test(deleted_file),
		cmocka_unit_test(after_exit),
		cmocka_unit_test(capture_gone_midway),
		cmocka_unit_test(vdso),
		cmocka_unit_test(cache_counts),
		cmocka_unit_test(opening),
		cmocka_unit_test(jit_perf_map),
		cmocka_unit_test(perf_map_opening),
		cmocka_unit_test(kernel_frames),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
