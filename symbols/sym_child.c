// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "core/array.h"
#include "symbols/file_open.h"
#include "symbols/perf_map.h"
#include "symbols/sym_child.h"
#include "symbols/sym_server.h"
#include "symbols/sym_wire.h"

#define CHILD_NAME "gputop-bpf-sym"
#define DEADLINE_MS 5000 /* one request's answer, the files it asked for included */
/*
 * What the monitor's threads may spend waiting for the child: a request is awaited for what is left
 * of BUDGET_MS (BUDGET_REFILL_MS more each second, at least WAIT_MIN_MS); past that its answer is
 * still owed, but the caller goes on, the request shown unknown, and no other is asked until it
 * comes (then dropped) or its deadline passes (then the child is killed): a hostile file costs the
 * poller about a quarter of its time, never seconds at once.
 */
#define BUDGET_MS 1000 /* at most (sym_child_wait_cap: half the monitor's interval) */
#define BUDGET_MIN_MS 250
#define BUDGET_REFILL_MS 250
#define WAIT_MIN_MS 20
#define DEATHS_HELD 3 /* this many deaths within DEATHS_WINDOW_S: no child for DEATHS_WINDOW_S */
#define DEATHS_WINDOW_S 60
#define LARGER(a, b) ((a) > (b) ? (a) : (b))
#define ANSWER_MAX /* the child's largest message */                                                \
	LARGER(LARGER(sizeof(struct sym_wire_elf_funcs_done), sizeof(struct sym_wire_unwind_done)), \
	       LARGER(sizeof(struct frame), sizeof(struct sym_wire_file_ask)))

/* A process the child was sent: the monitor's own copy of its maps, the only ones its files open from. */
struct sent {
	uint64_t id;
	pid_t pid;
	uid_t uid;
	struct proc_maps maps;
	uint64_t gen; /* the child that has it (0: none yet) */
};

static struct {
	pthread_mutex_t lock;
	pid_t pid;
	int sock;
	uint64_t gen; /* children started: each one's number */
	struct sym_child_stats st;
	uint64_t dead_cpu_ns;
	time_t deaths[DEATHS_HELD]; /* the last ones, a ring */
	char debug_dir[512], perf_map_dir[512];
	struct sent *sent;
	size_t nsent, sent_cap;
	void *buf;
	size_t bufcap;
	uint64_t requests; /* frames and unwinds asked for, all children together */
	long long budget_ms, budget_at; /* the wait left, as of budget_at (ms) */
	long long budget_cap; /* its most (0: BUDGET_MS) */
	uint64_t provisional; /* frames shown unknown for now (sym_child_provisional); read without the lock */
	struct {
		bool on; /* an answer is owed by the live child */
		uint32_t want;
		size_t len;
		long long since; /* its request's time (ms) */
	} owed;
} c = { .lock = PTHREAD_MUTEX_INITIALIZER, .sock = -1 };

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The directories the child's files are opened from: the symbolizer's defaults. Locked. */
static void set_dirs(void)
{
	snprintf(c.debug_dir, sizeof(c.debug_dir), "%s", "/usr/lib/debug");
	snprintf(c.perf_map_dir, sizeof(c.perf_map_dir), "%s", "/tmp");
}

/* The CPU a child used so far (it lives, or is a zombie not yet reaped), in ns; 0 when unknown. */
static uint64_t child_cpu_ns(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	long tck = sysconf(_SC_CLK_TCK);
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')) || tck <= 0 ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return 0;
	return (ut + st) * (1000000000ull / (unsigned long long)tck);
}

/* The child is ended (why: its reason, "" at the monitor's own stop): killed, reaped, its CPU kept. */
static void end_child(const char *why)
{
	int status = 0;

	if (!c.pid)
		return;
	c.dead_cpu_ns += child_cpu_ns(c.pid);
	close(c.sock);
	if (!kill(c.pid, SIGKILL)) { /* it holds nothing to save, and may hang */
		while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR)
			;
	} else { /* not ours to kill (never: its saved user is ours): it ends with us (PR_SET_PDEATHSIG) */
		waitpid(c.pid, &status, WNOHANG);
	}
	if (why[0]) {
		c.st.died++;
		c.deaths[c.st.died % DEATHS_HELD] = time(NULL);
		if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) /* it died before our kill: say how */
			snprintf(c.st.why, sizeof(c.st.why), "%s, by signal %d (%s)", why, WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
		else if (WIFEXITED(status))
			snprintf(c.st.why, sizeof(c.st.why), "%s, exit status %d", why, WEXITSTATUS(status));
		else
			snprintf(c.st.why, sizeof(c.st.why), "%s", why);
	}
	c.pid = 0;
	c.sock = -1;
	c.owed.on = false;
}

#define CHILD_ARG "--gputop-bpf-symbolizer-child" /* argv[1] of the program run again as the child */

/*
 * In the child, just forked: only async-signal-safe calls (the monitor's other threads may have held any
 * lock), then the program itself run again, new, as the child (sym_child_entry): no lock, mapping or
 * descriptor of the monitor's goes with it but its channel, as 3, and /dev/null as 0-2.
 */
__attribute__((noreturn)) static void child_exec(int sock, pid_t parent, char *const argv[])
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL); /* the forker thread's mask blocks all: not the child's */
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* kept across the exec; the forker thread lives as long as the monitor */
	if (getppid() != parent || null < 0)
		_exit(2);
	setsid(); /* no terminal's signals: the monitor's Ctrl-C is its own, and it still needs frames */
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); /* the exec gains nothing (file capabilities) */
	if (dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 || dup2(sock, 3) != 3 || close_range(4, ~0u, 0))
		_exit(2);
	execv("/proc/self/exe", argv);
	_exit(2);
}

/*
 * The program run again as the child: before main (a constructor is given argc and argv by glibc), so
 * the monitor's binary and any test's that links this file serve alike; never returns there.
 */
__attribute__((constructor)) static void sym_child_entry(int argc, char **argv)
{
	struct symbolizer_config cfg;

	if (argc != 4 || strcmp(argv[1], CHILD_ARG))
		return;
	prctl(PR_SET_NAME, CHILD_NAME);
	signal(SIGPIPE, SIG_IGN);
	cfg = (struct symbolizer_config){ .debug_dir = argv[2], .perf_map_dir = argv[3] };
	sym_server_run(3, &cfg);
}

/*
 * The thread that forks the children: the kernel's PR_SET_PDEATHSIG follows the thread that forked, not
 * the process, and the threads that ask (a ring's reader, the poller) may end before the monitor does.
 * This one lives as long as the monitor, its signals blocked; each fork is asked of it under forker.lock.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	bool running, asked;
	int sock; /* the child's end of the channel, while asked */
	pid_t pid; /* the answer: the child's, or -errno */
} forker = { .lock = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static void *forker_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&forker.lock);
	for (;;) {
		pid_t parent = getpid(), pid;

		while (!forker.asked)
			pthread_cond_wait(&forker.cv, &forker.lock);
		pid = fork();
		if (!pid)
			child_exec(forker.sock, parent,
				   (char *const[]){ CHILD_NAME, CHILD_ARG, c.debug_dir, c.perf_map_dir, NULL });
		forker.pid = pid < 0 ? -errno : pid;
		forker.asked = false;
		pthread_cond_broadcast(&forker.cv);
	}
	return NULL;
}

/* A child forked by the forker thread (started at the first); its pid, or -errno. */
static pid_t fork_child(int sock)
{
	sigset_t all, old;
	pid_t pid;

	pthread_mutex_lock(&forker.lock);
	if (!forker.running) {
		pthread_t t;
		int err;

		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old); /* the new thread inherits the mask: no signal of ours */
		err = pthread_create(&t, NULL, forker_main, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (err) {
			pthread_mutex_unlock(&forker.lock);
			return -err;
		}
		pthread_detach(t);
		forker.running = true;
	}
	forker.sock = sock;
	forker.asked = true;
	pthread_cond_broadcast(&forker.cv);
	while (forker.asked)
		pthread_cond_wait(&forker.cv, &forker.lock);
	pid = forker.pid;
	pthread_mutex_unlock(&forker.lock);
	return pid;
}

/* A child, unless three died within the last minute. 0, or -errno. */
static int start_child(void)
{
	pid_t pid;
	int sv[2];

	if (c.pid)
		return 0;
	if (c.st.died >= DEATHS_HELD && time(NULL) - c.deaths[(c.st.died + 1) % DEATHS_HELD] < DEATHS_WINDOW_S)
		return -EAGAIN;
	if (!c.debug_dir[0])
		set_dirs();
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid = fork_child(sv[1]);
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		snprintf(c.st.why, sizeof(c.st.why), "fork: %s", strerror((int)-pid));
		return (int)pid;
	}
	c.pid = pid;
	c.sock = sv[0];
	c.gen++;
	c.st.started++;
	return 0;
}

static struct sent *sent_find(uint64_t id)
{
	for (size_t i = c.nsent; i-- > 0;) /* the latest first: the one in use */
		if (c.sent[i].id == id)
			return &c.sent[i];
	return NULL;
}

/* The monitor's copy of p's maps, made at its first request. */
static struct sent *sent_of(const struct sym_process *p)
{
	struct sent *s = sent_find(p->id);

	if (s)
		return s;
	if (!p->maps.pool_len || !(s = array_push(&c.sent, &c.nsent, &c.sent_cap, sizeof(*s))))
		return NULL;
	memset(s, 0, sizeof(*s));
	s->id = p->id;
	s->pid = p->pid;
	s->uid = p->uid;
	s->maps.pid = p->pid;
	s->maps.maps = malloc(p->maps.n * sizeof(struct map) + 1);
	s->maps.pool = malloc(p->maps.pool_len);
	if (!s->maps.maps || !s->maps.pool) {
		proc_maps_free(&s->maps);
		c.nsent--;
		return NULL;
	}
	memcpy(s->maps.maps, p->maps.maps, p->maps.n * sizeof(struct map));
	memcpy(s->maps.pool, p->maps.pool, p->maps.pool_len);
	s->maps.n = s->maps.cap = p->maps.n;
	s->maps.pool_len = s->maps.pool_cap = p->maps.pool_len;
	return s;
}

/* The descriptor of the file the child asked for, opened here from the monitor's copy; -errno. */
static int open_asked(const struct sym_wire_file_ask *a)
{
	struct sent *s = sent_find(a->id);

	if (!s)
		return -ESRCH;
	switch (a->kind) {
	case SYM_FILE_MAP:
		if (a->map >= s->maps.n)
			return -EINVAL;
		return map_file_open(s->pid, &s->maps.maps[a->map], map_path(&s->maps, &s->maps.maps[a->map]));
	case SYM_FILE_DEBUG:
		return debug_file_open(c.debug_dir, a->build_id, a->build_id_len < 20 ? a->build_id_len : 20);
	case SYM_FILE_PERF_MAP:
		return perf_map_file_open(c.perf_map_dir, s->pid, s->uid, PERF_MAP_FILE_MAX);
	default:
		return -EINVAL;
	}
}

/* Answers one SYM_FILE; 0, or -errno (the channel failed). */
static int serve_file(size_t len)
{
	struct sym_wire_file_ask a;
	int32_t answer;
	int fd, err;

	if (len != sizeof(a))
		return -EPROTO;
	memcpy(&a, c.buf, sizeof(a));
	fd = open_asked(&a);
	answer = fd < 0 ? fd : 0;
	err = sym_wire_send(c.sock, SYM_FILE_FD, &answer, sizeof(answer), NULL, 0, fd);
	if (fd >= 0)
		close(fd);
	return err;
}

static const char AGAIN[] = "no answer within 5 s (killed)"; /* wait_answer: none yet */

/*
 * The child's answer of type want (want_len bytes) into out (NULL: dropped) by until (ms), serving its
 * files meanwhile. NULL, AGAIN (none yet), or why it is to be killed (static).
 */
static const char *wait_answer(uint32_t want, void *out, size_t want_len, long long until)
{
	for (;;) {
		long long left = until - now_ms();
		uint32_t type;
		size_t len;
		int fd, err;

		err = sym_wire_recv(c.sock, left > 0 ? (int)left : 0, &type, &c.buf, &c.bufcap, ANSWER_MAX, &len, &fd);
		if (fd >= 0)
			close(fd); /* the child passes none */
		if (err == -ETIMEDOUT)
			return AGAIN;
		if (err == -EPIPE)
			return "it ended";
		if (err)
			return "a message out of bounds (killed)";
		if (type == SYM_FILE) {
			if (serve_file(len))
				return "a file request out of turn (killed)";
			continue;
		}
		if (type != want || len != want_len)
			return "an answer out of turn (killed)";
		if (out)
			memcpy(out, c.buf, want_len);
		return NULL;
	}
}

/*
 * Until when (ms) a request sent at since may be awaited from now: the budget left (at least floor_ms),
 * or its deadline when patient.
 */
static long long wait_until(long long since, bool patient, long long floor_ms)
{
	long long now = now_ms(), left;
	long long cap = c.budget_cap ? c.budget_cap : BUDGET_MS;

	c.budget_ms += (now - c.budget_at) * BUDGET_REFILL_MS / 1000;
	if (c.budget_ms > cap || !c.budget_at)
		c.budget_ms = cap;
	c.budget_at = now;
	left = c.budget_ms > floor_ms ? c.budget_ms : floor_ms;
	return patient || now + left > since + DEADLINE_MS ? since + DEADLINE_MS : now + left;
}

/* The wait since from: spent from the budget. */
static void spend(long long from)
{
	c.budget_ms -= now_ms() - from;
}

/*
 * The answer the child still owes (its request already shown unknown) awaited as wait_until allows,
 * and dropped; past its deadline the child is killed. True when no answer is owed now.
 */
static bool settle(bool patient)
{
	long long from = now_ms();
	const char *why;

	if (!c.owed.on)
		return true;
	why = wait_answer(c.owed.want, NULL, c.owed.len, wait_until(c.owed.since, patient, 0));
	spend(from);
	if (why == AGAIN && now_ms() < c.owed.since + DEADLINE_MS)
		return false;
	c.owed.on = false;
	if (why)
		end_child(why);
	return true;
}

#ifdef GPUTOP_TEST_HOOKS
/* A test build's: GPUTOP_TEST_SYM_<what>_AT=N,M,... at those requests (1 the first). */
static bool hook_now(const char *what)
{
	char name[48];
	const char *at;

	snprintf(name, sizeof(name), "GPUTOP_TEST_SYM_%s_AT", what);
	for (at = getenv(name); at && *at;) {
		char *end;
		unsigned long long n = strtoull(at, &end, 10);

		if (end == at)
			return false;
		if (n == c.requests)
			return true;
		at = *end == ',' ? end + 1 : end;
	}
	return false;
}
#endif

/*
 * One request (fd beside it where >= 0), answered into out; false when no child answered in time: it
 * ended, or (unless patient) its answer is owed past the budget. The child is free (settle).
 */
static bool call(uint32_t type, const void *a, size_t alen, const void *b, size_t blen, int fd, uint32_t want,
		 void *out, size_t want_len, bool patient)
{
	long long since = now_ms();
	const char *why = NULL;

	if (start_child())
		return false;
	c.requests++;
#ifdef GPUTOP_TEST_HOOKS
	if (hook_now("CRASH")) /* the child crashes: the monitor must go on, the request lost and counted */
		sym_wire_send(c.sock, SYM_CRASH, NULL, 0, NULL, 0, -1);
	if (hook_now("HANG")) /* it spins: the request owed until its deadline, then the child killed */
		sym_wire_send(c.sock, SYM_HANG, NULL, 0, NULL, 0, -1);
#endif
	if (sym_wire_send(c.sock, type, a, alen, b, blen, fd))
		why = "it ended";
	if (!why)
		why = wait_answer(want, out, want_len, wait_until(since, patient, WAIT_MIN_MS));
	spend(since);
	if (why == AGAIN && now_ms() < since + DEADLINE_MS) { /* owed: the caller goes on */
		c.owed.on = true;
		c.owed.want = want;
		c.owed.len = want_len;
		c.owed.since = since;
		return false;
	}
	if (why)
		end_child(why);
	return !why;
}

/* p sent to the live child (its maps, once a child); false when it could not be. */
static bool proc_sent(const struct sym_process *p)
{
	struct sent *s = sent_of(p);
	struct sym_wire_proc h;
	size_t maps_len;
	char *msg;
	int err;

	if (!s || start_child())
		return false;
	if (s->gen == c.gen)
		return true;
	h = (struct sym_wire_proc){
		.id = s->id, .pid = s->pid, .uid = s->uid, .nmaps = s->maps.n, .pool_len = s->maps.pool_len
	};
	maps_len = s->maps.n * sizeof(struct map);
	if (!(msg = malloc(sizeof(h) + maps_len)))
		return false;
	memcpy(msg, &h, sizeof(h));
	memcpy(msg + sizeof(h), s->maps.maps, maps_len);
	err = sym_wire_send(c.sock, SYM_PROC, msg, sizeof(h) + maps_len, s->maps.pool, s->maps.pool_len, -1);
	free(msg);
	if (err) {
		end_child("it ended");
		return false;
	}
	s->gen = c.gen;
	return true;
}

void sym_child_frame(struct sym_process *p, uint64_t addr, struct frame *out)
{
	struct sym_wire_frame_ask a = { .id = p->id, .addr = addr };

	pthread_mutex_lock(&c.lock);
	if (!settle(false)) {
		memset(out, 0, sizeof(*out));
		c.st.skipped++;
		__atomic_add_fetch(&c.provisional, 1, __ATOMIC_RELAXED);
	} else if (proc_sent(p) &&
		   call(SYM_FRAME, &a, sizeof(a), NULL, 0, -1, SYM_FRAME_DONE, out, sizeof(*out), false)) {
		out->name[sizeof(out->name) - 1] = '\0'; /* the child's text: ended here */
		out->module[sizeof(out->module) - 1] = '\0';
	} else {
		memset(out, 0, sizeof(*out));
		if (c.owed.on) /* late, not dead: asked again, its answer in the child's caches by then */
			__atomic_add_fetch(&c.provisional, 1, __ATOMIC_RELAXED);
		else
			c.st.frames_lost++;
	}
	pthread_mutex_unlock(&c.lock);
}

bool sym_child_unwind(struct sym_process *p, const struct unwind_input *in, struct unwind_result *r,
		      struct sym_child_unwound *u)
{
	struct sym_wire_unwind_ask a = {
		.id = p->id, .ip = in->ip, .sp = in->sp, .bp = in->bp, .len = in->len, .cut = in->cut
	};
	struct sym_wire_unwind_done d;
	bool ok;

	pthread_mutex_lock(&c.lock);
	if (!settle(false)) {
		c.st.skipped++;
		pthread_mutex_unlock(&c.lock);
		return false;
	}
	ok = proc_sent(p) &&
	     call(SYM_UNWIND, &a, sizeof(a), in->stack, in->len, -1, SYM_UNWIND_DONE, &d, sizeof(d), false) &&
	     d.r.n <= UNWIND_FRAMES_MAX;
	if (ok) {
		*r = d.r;
		u->files_opened = d.files_opened;
		u->cfi_refused = d.cfi_refused;
		u->cpu_ns = d.cpu_ns;
		memcpy(u->cfi_why, d.cfi_why, sizeof(u->cfi_why));
		u->cfi_why[sizeof(u->cfi_why) - 1] = '\0';
	} else {
		c.st.unwinds_lost++;
	}
	pthread_mutex_unlock(&c.lock);
	return ok;
}

int sym_child_elf_funcs(int fd, const char *const *names, size_t n, uint64_t *offsets)
{
	struct sym_wire_elf_funcs_done d;
	char list[SYM_ELF_FUNCS_MAX * 64];
	size_t len = 0;
	struct stat st;
	bool ok;

	if (n > SYM_ELF_FUNCS_MAX || fstat(fd, &st))
		return -1;
	for (size_t k = 0; k < n; k++) {
		size_t l = strlen(names[k]) + 1;

		if (len + l > sizeof(list))
			return -1;
		memcpy(list + len, names[k], l);
		len += l;
	}
	pthread_mutex_lock(&c.lock);
	/* patient: a library left unprobed would cost exact counts, not frames */
	ok = settle(true) && call(SYM_ELF_FUNCS, list, len, NULL, 0, fd, SYM_ELF_FUNCS_DONE, &d, sizeof(d), true);
	pthread_mutex_unlock(&c.lock);
	if (!ok || d.err || d.n != n)
		return -1;
	for (size_t k = 0; k < n; k++) /* the child's word: an offset inside the file, else none */
		offsets[k] = d.offsets[k] < (uint64_t)st.st_size ? d.offsets[k] : 0;
	return 0;
}

void sym_child_forget(const struct sym_process *p)
{
	struct sent *s;

	pthread_mutex_lock(&c.lock);
	if ((s = sent_find(p->id))) {
		if (c.pid && s->gen == c.gen && sym_wire_send(c.sock, SYM_FORGET, &s->id, sizeof(s->id), NULL, 0, -1))
			end_child("it ended");
		proc_maps_free(&s->maps);
		*s = c.sent[--c.nsent];
	}
	pthread_mutex_unlock(&c.lock);
}

/* The stats as last read under c.lock, for readers that must not wait for the child (the poller's tick). */
static struct {
	pthread_mutex_t lock;
	struct sym_child_stats st;
	uint64_t dead_cpu_ns;
} seen = { .lock = PTHREAD_MUTEX_INITIALIZER };

struct sym_child_stats sym_child_stats(void)
{
	struct sym_child_stats st;
	uint64_t dead_cpu_ns;

	if (!pthread_mutex_trylock(&c.lock)) { /* else another thread waits for the child: the last copy */
		if (c.owed.on && now_ms() >= c.owed.since + DEADLINE_MS) /* a hung child killed on time */
			settle(false);
		pthread_mutex_lock(&seen.lock);
		seen.st = c.st;
		seen.st.pid = c.pid;
		seen.dead_cpu_ns = c.dead_cpu_ns;
		pthread_mutex_unlock(&seen.lock);
		pthread_mutex_unlock(&c.lock);
	}
	pthread_mutex_lock(&seen.lock);
	st = seen.st;
	dead_cpu_ns = seen.dead_cpu_ns;
	pthread_mutex_unlock(&seen.lock);
	st.cpu_ns = dead_cpu_ns + (st.pid ? child_cpu_ns(st.pid) : 0);
	return st;
}

uint64_t sym_child_provisional(void)
{
	return __atomic_load_n(&c.provisional, __ATOMIC_RELAXED);
}

void sym_child_last_wait(unsigned int ms)
{
	pthread_mutex_lock(&c.lock);
	c.budget_cap = ms;
	c.budget_ms = ms;
	c.budget_at = now_ms();
	pthread_mutex_unlock(&c.lock);
}

void sym_child_wait_cap(unsigned int ms)
{
	pthread_mutex_lock(&c.lock);
	c.budget_cap = ms < BUDGET_MIN_MS ? BUDGET_MIN_MS : ms > BUDGET_MS ? BUDGET_MS : ms;
	pthread_mutex_unlock(&c.lock);
}

void sym_child_stop(void)
{
	pthread_mutex_lock(&c.lock);
	end_child("");
	for (size_t i = 0; i < c.nsent; i++)
		proc_maps_free(&c.sent[i].maps);
	free(c.sent);
	c.sent = NULL;
	c.nsent = c.sent_cap = 0;
	free(c.buf);
	c.buf = NULL;
	c.bufcap = 0;
	pthread_mutex_unlock(&c.lock);
}
