// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/array.h"
#include "symbols/cfi_check.h"
#include "symbols/elf_funcs.h"
#include "symbols/file_open.h"
#include "symbols/sym_confine.h"
#include "symbols/sym_server.h"
#include "symbols/sym_wire.h"
#include "symbols/unwind.h"

#define EXTRA_DATA_BYTES (1ull << 30) /* its heap may grow this much past what it was given by fork */

struct sproc {
	uint64_t id;
	struct sym_process sp;
	struct unwind_proc *unw;
};

struct server {
	int sock;
	struct symbolizer sym;
	struct sproc *procs;
	size_t n, cap;
	struct sproc *cur; /* the process of the request being answered */
	void *buf;
	size_t bufcap;
};

static struct sproc *find(struct server *sv, uint64_t id)
{
	for (size_t i = 0; i < sv->n; i++)
		if (sv->procs[i].id == id)
			return &sv->procs[i];
	return NULL;
}

/* Asks the monitor for a file and waits for its descriptor (its answer comes before anything else). */
static int ask(struct server *sv, const struct sym_wire_file_ask *a)
{
	uint32_t type;
	size_t len;
	int fd, err = sym_wire_send(sv->sock, SYM_FILE, a, sizeof(*a), NULL, 0, -1);
	int32_t answer;

	if (err)
		_exit(1);
	err = sym_wire_recv(sv->sock, -1, &type, &sv->buf, &sv->bufcap, SYM_WIRE_MAX, &len, &fd);
	if (err || type != SYM_FILE_FD || len != sizeof(answer))
		_exit(1); /* the monitor went, or spoke out of turn */
	memcpy(&answer, sv->buf, sizeof(answer));
	if (answer && fd >= 0)
		close(fd);
	return answer ? (answer < 0 ? answer : -EIO) : fd >= 0 ? fd : -EIO;
}

static int ask_map(void *ctx, pid_t pid, const struct map *m)
{
	struct server *sv = ctx;
	struct sproc *p = sv->cur;

	(void)pid;
	if (!p || m < p->sp.maps.maps || m >= p->sp.maps.maps + p->sp.maps.n)
		return -EINVAL;
	return ask(sv, &(struct sym_wire_file_ask){
			       .kind = SYM_FILE_MAP, .id = p->id, .map = (uint64_t)(m - p->sp.maps.maps) });
}

static int ask_debug(void *ctx, const uint8_t *build_id, size_t len)
{
	struct server *sv = ctx;
	struct sym_wire_file_ask a = { .kind = SYM_FILE_DEBUG, .id = sv->cur ? sv->cur->id : 0 };

	if (len > sizeof(a.build_id))
		return -EINVAL;
	memcpy(a.build_id, build_id, len);
	a.build_id_len = (uint8_t)len;
	return ask(sv, &a);
}

static int ask_perf_map(void *ctx, pid_t pid)
{
	struct server *sv = ctx;

	(void)pid;
	if (!sv->cur)
		return -EINVAL;
	return ask(sv, &(struct sym_wire_file_ask){ .kind = SYM_FILE_PERF_MAP, .id = sv->cur->id });
}

/* A process the monitor sent: its header, its maps, their paths (checked: the child's own copy). */
static void take_proc(struct server *sv, size_t len)
{
	struct sym_wire_proc h;
	struct sproc *p;
	const char *b = sv->buf;

	if (len < sizeof(h))
		return;
	memcpy(&h, b, sizeof(h));
	if (h.nmaps > PROC_MAPS_MAX || h.pool_len > len ||
	    h.nmaps * sizeof(struct map) != len - sizeof(h) - h.pool_len || !h.pool_len || b[len - 1] ||
	    find(sv, h.id) || !(p = array_push(&sv->procs, &sv->n, &sv->cap, sizeof(*p))))
		return;
	memset(p, 0, sizeof(*p));
	p->id = h.id;
	p->sp.pid = h.pid;
	p->sp.uid = h.uid;
	p->sp.perf_err = 1;
	p->sp.maps.pid = h.pid;
	p->sp.maps.maps = malloc(h.nmaps * sizeof(struct map) + 1);
	p->sp.maps.pool = malloc(h.pool_len);
	if (!p->sp.maps.maps || !p->sp.maps.pool) {
		free(p->sp.maps.maps);
		free(p->sp.maps.pool);
		sv->n--;
		return;
	}
	memcpy(p->sp.maps.maps, b + sizeof(h), h.nmaps * sizeof(struct map));
	memcpy(p->sp.maps.pool, b + sizeof(h) + h.nmaps * sizeof(struct map), h.pool_len);
	p->sp.maps.n = p->sp.maps.cap = h.nmaps;
	p->sp.maps.pool_len = p->sp.maps.pool_cap = h.pool_len;
	for (size_t i = 0; i < h.nmaps; i++)
		if (p->sp.maps.maps[i].path >= h.pool_len)
			p->sp.maps.maps[i].path = (uint32_t)(h.pool_len - 1); /* "" */
}

static void forget(struct server *sv, size_t len)
{
	uint64_t id;
	struct sproc *p;

	if (len != sizeof(id))
		return;
	memcpy(&id, sv->buf, sizeof(id));
	if (!(p = find(sv, id)))
		return;
	unwind_proc_free(p->unw);
	sym_process_free(&p->sp);
	*p = sv->procs[--sv->n];
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int answer_frame(struct server *sv, size_t len)
{
	struct sym_wire_frame_ask a;
	struct frame f;

	memset(&f, 0, sizeof(f));
	if (len == sizeof(a)) {
		memcpy(&a, sv->buf, sizeof(a));
		if ((sv->cur = find(sv, a.id)))
			symbolize_user(&sv->sym, &sv->cur->sp, a.addr, &f);
	}
	sv->cur = NULL;
	return sym_wire_send(sv->sock, SYM_FRAME_DONE, &f, sizeof(f), NULL, 0, -1);
}

static int answer_unwind(struct server *sv, size_t len)
{
	struct sym_wire_unwind_ask a;
	struct sym_wire_unwind_done d;
	struct sproc *p = NULL;
	uint64_t t0 = cpu_ns();

	memset(&d, 0, sizeof(d));
	if (len >= sizeof(a))
		memcpy(&a, sv->buf, sizeof(a));
	if (len >= sizeof(a) && a.len == len - sizeof(a) && (p = find(sv, a.id)) &&
	    (p->unw || (p->unw = unwind_proc_new(p->sp.pid, &p->sp.maps)))) {
		const char *why = "";

		sv->cur = p;
		unwind_stack(p->unw,
			     &(struct unwind_input){ .ip = a.ip,
						     .sp = a.sp,
						     .bp = a.bp,
						     .stack = (const uint8_t *)sv->buf + sizeof(a),
						     .len = a.len,
						     .cut = a.cut },
			     &d.r);
		d.files_opened = unwind_files_opened(p->unw);
		d.cfi_refused = unwind_cfi_refused(p->unw, &why);
		snprintf(d.cfi_why, sizeof(d.cfi_why), "%s", why);
	}
	sv->cur = NULL;
	d.cpu_ns = cpu_ns() - t0;
	return sym_wire_send(sv->sock, SYM_UNWIND_DONE, &d, sizeof(d), NULL, 0, -1);
}

/* The offsets of the functions named (NUL-ended names) in the file fd (elf_funcs.h). */
static int answer_elf_funcs(struct server *sv, size_t len, int fd)
{
	struct sym_wire_elf_funcs_done d = { .err = -1 };
	const char *names[SYM_ELF_FUNCS_MAX];
	const char *b = sv->buf;

	for (size_t at = 0; at < len && d.n < SYM_ELF_FUNCS_MAX;) {
		const char *end = memchr(b + at, '\0', len - at);

		if (!end)
			break;
		names[d.n++] = b + at;
		at = (size_t)(end - b) + 1;
	}
	if (fd >= 0)
		d.err = elf_func_offsets(fd, names, d.n, d.offsets);
	return sym_wire_send(sv->sock, SYM_ELF_FUNCS_DONE, &d, sizeof(d), NULL, 0, -1);
}

void sym_server_run(int sock, const struct symbolizer_config *cfg)
{
	struct server sv = { .sock = sock };
	struct file_broker b = { .map_file = ask_map, .debug_file = ask_debug, .perf_map = ask_perf_map, .ctx = &sv };
	char why[160];

	if (symbolizer_init(&sv.sym, cfg) || sym_confine(EXTRA_DATA_BYTES, why, sizeof(why)))
		_exit(2); /* never unconfined: the monitor sees it end and shows its frames unknown */
	file_open_broker(&b);
	for (;;) {
		uint32_t type;
		size_t len;
		int fd, err = sym_wire_recv(sock, -1, &type, &sv.buf, &sv.bufcap, SYM_WIRE_MAX, &len, &fd);

		if (err)
			_exit(err == -EPIPE ? 0 : 1);
		if (type == SYM_ELF_FUNCS)
			err = answer_elf_funcs(&sv, len, fd);
		if (fd >= 0)
			close(fd); /* the file of SYM_ELF_FUNCS, read; no other request brings one */
		if (type == SYM_PROC)
			take_proc(&sv, len);
		else if (type == SYM_FORGET)
			forget(&sv, len);
		else if (type == SYM_FRAME)
			err = answer_frame(&sv, len);
		else if (type == SYM_UNWIND)
			err = answer_unwind(&sv, len);
#ifdef GPUTOP_TEST_HOOKS
		else if (type == SYM_CRASH)
			__builtin_trap(); /* a test build's hook: the monitor must live on */
		else if (type == SYM_HANG)
			for (volatile int spin = 1; spin;) /* a test build's: the monitor must kill it */
				;
#endif
		if (err)
			_exit(1);
	}
}
