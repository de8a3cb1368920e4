// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cpu_cost: what one event of the scheduler collector's work costs on this CPU,
 * outside emulation, for today's design (a job followed in BPF maps) and the
 * streamed one (events into a BPF ring buffer, matched in user space), beside
 * an empty program (bench/cpu_cost.bpf.c). A tight loop of getppid() is the
 * event source; each program in turn is attached to sys_enter, filtered to this
 * process; with --uprobe the loop calls a function of its own instead and the
 * programs are uprobes on it (the path of the CUDA collector's probes). Per
 * design: the loop's added time per event, the kernel's own run time per event
 * (bpf_stats), their ratios to the empty program, and for the stream the
 * user-space CPU per event of draining and matching it; stacks: the stream with
 * what --stacks adds at each queue event (its copies drained, not unwound).
 *   cpu_cost [--uprobe] [EVENTS] [ROUNDS]   (root; defaults 3000000 and 5)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "cpu_cost.skel.h"

enum { NONE, EMPTY, FILTER, MAPS, STREAM, STACKS, NDESIGNS };
static const char *const names[NDESIGNS] = { "untraced", "empty", "filter", "maps", "stream", "stacks" };

struct stream_match { /* user space's half of the streamed design: queue -> run -> done */
	uint64_t queued_at[1 << 16], run_at[1 << 16];
	uint64_t events, jobs, wait_ns, exec_ns;
	uint64_t copies; /* stacks: stack copies drained */
};

static double now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct stream_match *m = ctx;
	const struct { uint64_t ts, job; uint32_t phase, pid; } *e = data;
	size_t k = e->job & ((1 << 16) - 1);

	(void)size;
	m->events++;
	if (e->phase == 0) {
		m->queued_at[k] = e->ts;
	} else if (e->phase == 1) {
		m->run_at[k] = e->ts;
		m->wait_ns += e->ts - m->queued_at[k];
	} else {
		m->exec_ns += e->ts - m->run_at[k];
		m->jobs++;
	}
	return 0;
}

static int on_sample(void *ctx, void *data, size_t size)
{
	(void)data;
	(void)size;
	((struct stream_match *)ctx)->copies++;
	return 0;
}

/*
 * The event source of the uprobe path: a function found by name in this
 * binary's symbols that starts as library functions do (push %rbp, an
 * instruction the kernel emulates under a uprobe; a compiled empty function is
 * a bare ret, which it would single-step, several times the cost).
 */
void cpu_cost_event(void);
#ifdef __x86_64__
__asm__(".text\n"
	".globl cpu_cost_event\n"
	".type cpu_cost_event, @function\n"
	"cpu_cost_event:\n"
	"\tpush %rbp\n"
	"\tmov %rsp, %rbp\n"
	"\tpop %rbp\n"
	"\tret\n"
	".size cpu_cost_event, .-cpu_cost_event\n");
#else
__attribute__((noinline, used)) void cpu_cost_event(void)
{
	__asm__ volatile("" ::: "memory");
}
#endif

static bool uprobe_path;

/* The loop's time per event; the kernel's run time per event of prog; user space's per event draining rb. */
static void run_loop(long events, struct bpf_program *prog, struct ring_buffer *rb, double *loop_ns,
		     double *bpf_ns, double *user_ns)
{
	struct bpf_prog_info before = { 0 }, after = { 0 };
	__u32 len = sizeof(before);
	double t0, drain = 0;

	if (prog)
		bpf_obj_get_info_by_fd(bpf_program__fd(prog), &before, &len);
	t0 = now_ns(CLOCK_MONOTONIC);
	for (long i = 0; i < events; i++) {
		if (uprobe_path)
			cpu_cost_event();
		else
			syscall(SYS_getppid);
		if (rb && ((i & 4095) == 4095 || i == events - 1)) { /* in batches, as a poller would */
			double c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

			ring_buffer__consume(rb);
			drain += now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		}
	}
	*loop_ns = (now_ns(CLOCK_MONOTONIC) - t0 - drain) / (double)events;
	*user_ns = drain / (double)events;
	len = sizeof(after);
	if (prog)
		bpf_obj_get_info_by_fd(bpf_program__fd(prog), &after, &len);
	*bpf_ns = prog && after.run_cnt > before.run_cnt ?
			  (double)(after.run_time_ns - before.run_time_ns) / (double)(after.run_cnt - before.run_cnt) :
			  0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Where in cpu_cost_event the uprobe goes: after its endbr64 (CET builds), as
 * the CUDA collector probes (collectors/nvidia/cuda_libs.c: the kernel cannot
 * emulate endbr64 and would single-step it, several times the cost).
 */
static size_t probe_offset(void)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

	return memcmp((const void *)(uintptr_t)cpu_cost_event, endbr64, sizeof(endbr64)) ? 0 : sizeof(endbr64);
}

/* Program d of the path in use, attached: to sys_enter, or as a uprobe on cpu_cost_event in this process. */
static struct bpf_link *attach(struct cpu_cost_bpf *skel, int d, struct bpf_program **prog)
{
	struct bpf_program *const tp[NDESIGNS] = { NULL, skel->progs.empty, skel->progs.filter, skel->progs.maps,
						   skel->progs.stream, skel->progs.stack_stream };
	struct bpf_program *const up[NDESIGNS] = { NULL, skel->progs.u_empty, skel->progs.u_filter,
						   skel->progs.u_maps, skel->progs.u_stream, NULL };
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = "cpu_cost_event");

	*prog = uprobe_path ? up[d] : tp[d];
	if (!*prog)
		return NULL;
	return uprobe_path ? bpf_program__attach_uprobe_opts(*prog, getpid(), "/proc/self/exe", probe_offset(), &opts) :
			     bpf_program__attach(*prog);
}

int main(int argc, char **argv)
{
	int shift = argc > 1 && !strcmp(argv[1], "--uprobe");
	long events = argc > 1 + shift ? atol(argv[1 + shift]) : 3000000;
	int rounds = argc > 2 + shift ? atoi(argv[2 + shift]) : 5, stats_fd;
	double loop[NDESIGNS][64], bpf[NDESIGNS][64], user[NDESIGNS][64], med[NDESIGNS][3];
	static struct stream_match match;
	struct ring_buffer *rb;
	struct cpu_cost_bpf *skel;

	uprobe_path = shift;
	if (events < 3 || rounds < 1 || rounds > 64) {
		fprintf(stderr, "usage: cpu_cost [--uprobe] [EVENTS (>= 3)] [ROUNDS (1-64)]\n");
		return 2;
	}
	skel = cpu_cost_bpf__open();
	if (!skel) {
		fprintf(stderr, "cpu_cost: cannot open the BPF object: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->target_tgid = (__u32)getpid();
	if (cpu_cost_bpf__load(skel)) {
		fprintf(stderr, "cpu_cost: cannot load the BPF programs (root?): %s\n", strerror(errno));
		return 1;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0)
		fprintf(stderr, "cpu_cost: no BPF run-time statistics (%s): kernel times left out\n", strerror(-stats_fd));
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, &match, NULL);
	if (!rb || ring_buffer__add(rb, bpf_map__fd(skel->maps.samples), on_sample, &match)) {
		fprintf(stderr, "cpu_cost: no ring buffer: %s\n", strerror(errno));
		return 1;
	}
	for (int r = 0; r < rounds; r++) /* interleaved: drift on the machine falls on every design alike */
		for (int d = 0; d < NDESIGNS; d++) {
			struct bpf_program *p;
			struct bpf_link *link = attach(skel, d, &p);

			if (uprobe_path && d == STACKS)
				continue;
			if (p && !link) {
				fprintf(stderr, "cpu_cost: cannot attach %s to %s: %s\n", names[d],
					uprobe_path ? "a uprobe on cpu_cost_event" : "sys_enter", strerror(errno));
				return 1;
			}
			run_loop(events, p, d >= STREAM ? rb : NULL, &loop[d][r], &bpf[d][r], &user[d][r]);
			bpf_link__destroy(link);
		}
	for (int d = 0; d < NDESIGNS - uprobe_path; d++) {
		med[d][0] = median(loop[d], rounds);
		med[d][1] = median(bpf[d], rounds);
		med[d][2] = median(user[d], rounds);
	}
	printf("events %ld per round, %d rounds (medians); loop: %s per event, wall ns\n", events, rounds,
	       uprobe_path ? "a call of cpu_cost_event() under a uprobe" : "getppid()");
	printf("%-9s %9s %9s %9s %9s %9s %9s\n", "DESIGN", "LOOP ns", "ADDED ns", "x EMPTY", "BPF ns", "x EMPTY",
	       "USER ns");
	for (int d = 0; d < NDESIGNS - uprobe_path; d++) {
		double added = med[d][0] - med[NONE][0], floor = med[EMPTY][0] - med[NONE][0];

		printf("%-9s %9.1f %9.1f %9.2f %9.1f %9.2f %9.1f\n", names[d], med[d][0], added,
		       d > EMPTY && floor > 0 ? added / floor : d == EMPTY ? 1.0 : 0, med[d][1],
		       d > EMPTY && med[EMPTY][1] > 0 ? med[d][1] / med[EMPTY][1] : d == EMPTY ? 1.0 : 0, med[d][2]);
	}
	printf("stream%s: %llu events drained, %llu jobs matched (of %ld); lost in BPF %llu\n",
	       uprobe_path ? "" : " and stacks", (unsigned long long)match.events, (unsigned long long)match.jobs,
	       (long)rounds * (events / 3) * (uprobe_path ? 1 : 2), (unsigned long long)skel->bss->lost);
	if (!uprobe_path)
		printf("stacks: %llu stack copies drained, %llu lost\n", (unsigned long long)match.copies,
		       (unsigned long long)skel->bss->samples_lost);
	ring_buffer__free(rb);
	cpu_cost_bpf__destroy(skel);
	return 0;
}
