// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A stand-in for CUPTI's libcupti.so in the tests of the companion library (tests/cupti/run.sh):
 * the activity and subscriber functions it calls, with CUPTI's own signatures and record layouts
 * (its headers), producing a script of records of known values (script_kernel and the others
 * below) from a thread of its own, as CUPTI's worker completes buffers. Every call is written, with
 * the caller's pid, to the file FAKE_CUPTI_CALLS names (and "load" when loaded). Set by the test:
 *   FAKE_CUPTI_KERNELS, FAKE_CUPTI_COPIES  kernels, and memcpys and memsets each, once enabled (0)
 *   FAKE_CUPTI_DROPPED  the drop count the first cuptiActivityGetNumDroppedRecords says
 *   FAKE_CUPTI_BUSY     cuptiSubscribe refuses: another subscriber holds CUPTI
 *   FAKE_CUPTI_HOLD     the last buffer is completed only by cuptiActivityFlushAll
 *   FAKE_CUPTI_FLUSH_HANG  cuptiActivityFlushAll never returns
 *   FAKE_CUPTI_UNFINISHED  the first kernel has no end (0), as a forced flush may hand one over
 *   FAKE_CUPTI_KERNEL_NS  kernel i runs this many ns + i (default 1000; its device's next starts 20000 after)
 *   FAKE_CUPTI_SIZES    a file: each buffer's size as the library gave it, a line each
 *   FAKE_CUPTI_PAUSE_AT  before asking for buffer N (1: the first), a pause of 2.5 s
 *   FAKE_CUPTI_ROTATE   each enabling after the first starts the kernels' names one further on
 * Launches (the stand-in libcuda calls the launch hook this sets, inside each launch call): each
 * takes a correlation id, calls the subscriber's callback where cuptiEnableCallback enabled its
 * driver callback id, and while kernel activity is enabled makes a kernel record of that id,
 * completed at the next cuptiActivityFlushAll: launch function w (0 cuLaunchKernel, 1 its _ptsz,
 * 2 cuLaunchKernelEx, 3 its _ptsz) runs (w + 1) * 1000 ns, named "launched_w" ("_Z10launched_3v", a C++
 * name, for w 3), queued 300 ns
 * before its start, on device w / 2, stream 7; it starts LAUNCH_START_NS after the launch on this
 * stand-in's clock (cuptiGetTimestamp's: CLOCK_REALTIME), or 1000 ns after its device's last kernel
 * ends where that is later, as a GPU runs one stream's kernels in turn.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti_activity.h>
#include <cupti_callbacks.h>

#define API __attribute__((visibility("default")))

static CUpti_BuffersCallbackRequestFunc requested;
static CUpti_BuffersCallbackCompleteFunc completed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t worker;
static int working, subscribed;
static uint8_t *held;
static size_t held_valid;
static size_t dropped_once;
static CUpti_CallbackFunc callback;
static void *callback_data;
static unsigned char callback_on[1024]; /* driver API callback ids enabled */
static int kernels_on; /* kernel activity enabled */
static uint32_t next_correlation = 1000000;
#define LAUNCHED_MAX 16384
static CUpti_ActivityKernel4 launched[LAUNCHED_MAX]; /* records of launches, until the next flush */
static size_t nlaunched;
static const char *const launch_names[] = { "launched_0", "launched_1", "launched_2", "_Z10launched_3v" };

static long env(const char *name)
{
	const char *v = getenv(name);

	return v ? atol(v) : 0;
}

static void called(const char *fmt, ...)
{
	const char *path = getenv("FAKE_CUPTI_CALLS");
	char line[256];
	va_list ap;
	int fd, n;

	if (!path || (fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) < 0)
		return;
	n = snprintf(line, sizeof(line), "%d ", (int)getpid());
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	line[n++] = '\n';
	if (write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}

#define LAUNCH_START_NS 20000

static uint64_t clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A launch (which: its launch function) in the launching thread: see the top. */
static void launch_hook(int cbid, int which)
{
	uint32_t corr = __atomic_fetch_add(&next_correlation, 1, __ATOMIC_SEQ_CST);
	CUpti_CallbackData cb = { .callbackSite = CUPTI_API_ENTER, .correlationId = corr };
	static uint64_t device_free[2]; /* each device's last kernel's end */
	uint64_t start = clock_now() + LAUNCH_START_NS;
	CUpti_ActivityKernel4 *k;

	if (callback && cbid >= 0 && cbid < (int)sizeof(callback_on) && callback_on[cbid])
		callback(callback_data, CUPTI_CB_DOMAIN_DRIVER_API, (CUpti_CallbackId)cbid, &cb);
	pthread_mutex_lock(&lock);
	if (kernels_on && nlaunched < LAUNCHED_MAX) {
		k = &launched[nlaunched];
		memset(k, 0, sizeof(*k));
		k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
		k->correlationId = corr;
		k->deviceId = (uint32_t)(which / 2) & 1;
		k->start = start > device_free[k->deviceId] + 1000 ? start : device_free[k->deviceId] + 1000;
		k->end = k->start + 1000 * (uint64_t)(which + 1);
		device_free[k->deviceId] = k->end;
		k->queued = k->start - 300;
		k->submitted = k->start - 100;
		k->contextId = 1;
		k->streamId = 7;
		k->name = launch_names[which & 3];
		nlaunched++;
	}
	pthread_mutex_unlock(&lock);
}

/* The launches' records so far into buffers, completed (no lock held: the library's callback takes its own). */
static void launches_complete(void)
{
	static CUpti_ActivityKernel4 out[LAUNCHED_MAX];
	size_t n, done = 0;

	pthread_mutex_lock(&lock);
	n = nlaunched;
	memcpy(out, launched, n * sizeof(out[0]));
	nlaunched = 0;
	pthread_mutex_unlock(&lock);
	while (done < n) {
		uint8_t *buf = NULL;
		size_t size = 0, max = 0, used = 0;

		requested(&buf, &size, &max);
		if (!buf)
			return;
		for (; done < n && used + sizeof(out[0]) <= size; done++, used += sizeof(out[0]))
			memcpy(buf + used, &out[done], sizeof(out[0]));
		completed(NULL, 0, buf, size, used);
	}
}

__attribute__((constructor)) static void loaded(void)
{
	void (*set)(void (*)(int, int));

	dropped_once = (size_t)env("FAKE_CUPTI_DROPPED");
	called("load");
	*(void **)&set = dlsym(RTLD_DEFAULT, "fake_cuda_launch_hook");
	if (set)
		set(launch_hook);
}

/* The script: kernel i of 4 names (the last 600 bytes long), and memcpy and memset j. */
static char long_name[601];
static const char *const names[] = { "kernel_a", "ns::kernel_b(int)",
				     "void at::native::elementwise_kernel<128, 4>(int, at::native::Loop)", long_name };

static long name_shift; /* FAKE_CUPTI_ROTATE: the enablings before this one */

static void script_kernel(CUpti_ActivityKernel4 *k, long i)
{
	long kernel_ns = env("FAKE_CUPTI_KERNEL_NS") ? env("FAKE_CUPTI_KERNEL_NS") : 1000;

	memset(k, 0, sizeof(*k));
	k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	k->correlationId = (uint32_t)(100 + i);
	k->start = 1000000 + (uint64_t)i * 10000;
	k->end = i == 0 && env("FAKE_CUPTI_UNFINISHED") ? 0 : k->start + (uint64_t)kernel_ns + (uint64_t)i;
	k->queued = k->start - 500;
	k->submitted = k->start - 200;
	k->deviceId = (uint32_t)(i % 2);
	k->contextId = (uint32_t)(1 + i % 2);
	k->streamId = (uint32_t)(7 + i % 3);
	k->gridX = (int32_t)(i + 1), k->gridY = 2, k->gridZ = 1;
	k->blockX = 128, k->blockY = 1, k->blockZ = 1;
	k->name = names[(i + name_shift) % 4];
}

static void script_memcpy(CUpti_ActivityMemcpy *m, long j)
{
	memset(m, 0, sizeof(*m));
	m->kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	m->copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
	m->correlationId = (uint32_t)(5000 + j);
	m->start = 2000000 + (uint64_t)j * 1000;
	m->end = m->start + 300;
	m->bytes = 4096 * (uint64_t)(j + 1);
	m->contextId = 1;
	m->streamId = 7;
}

static void script_memset(CUpti_ActivityMemset *m, long j)
{
	memset(m, 0, sizeof(*m));
	m->kind = CUPTI_ACTIVITY_KIND_MEMSET;
	m->correlationId = (uint32_t)(6000 + j);
	m->start = 3000000 + (uint64_t)j * 1000;
	m->end = m->start + 100;
	m->bytes = 256 * (uint64_t)(j + 1);
	m->contextId = 1;
	m->streamId = 7;
}

static size_t record_size(CUpti_ActivityKind kind)
{
	return kind == CUPTI_ACTIVITY_KIND_MEMCPY ? sizeof(CUpti_ActivityMemcpy) :
	       kind == CUPTI_ACTIVITY_KIND_MEMSET ? sizeof(CUpti_ActivityMemset) :
						    sizeof(CUpti_ActivityKernel4);
}

/* Record n of the script (kernels, then memcpys, then memsets) into P. */
static void script(void *p, long n, long kernels, long copies)
{
	if (n < kernels)
		script_kernel(p, n);
	else if (n < kernels + copies)
		script_memcpy(p, n - kernels);
	else
		script_memset(p, n - kernels - copies);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* A buffer's size into FAKE_CUPTI_SIZES. */
static void sizes_log(size_t size)
{
	const char *path = getenv("FAKE_CUPTI_SIZES");
	FILE *f = path ? fopen(path, "ae") : NULL;

	if (f) {
		fprintf(f, "%zu\n", size);
		fclose(f);
	}
}

static void *work(void *arg)
{
	long kernels = env("FAKE_CUPTI_KERNELS"), copies = env("FAKE_CUPTI_COPIES"), total = kernels + 2 * copies;
	long n = 0, asked = 0;
	static long rounds;

	(void)arg;
	name_shift = env("FAKE_CUPTI_ROTATE") ? rounds : 0;
	rounds++;
	while (n < total) {
		uint8_t *buf = NULL;
		size_t size = 0, max = 0, used = 0;

		if (++asked == env("FAKE_CUPTI_PAUSE_AT"))
			sleep_ms(2500);
		requested(&buf, &size, &max);
		if (!buf)
			break;
		sizes_log(size);
		for (; n < total; n++) {
			size_t rs = record_size(n < kernels	     ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL :
						n < kernels + copies ? CUPTI_ACTIVITY_KIND_MEMCPY :
								       CUPTI_ACTIVITY_KIND_MEMSET);
			if (used + rs > size)
				break;
			script(buf + used, n, kernels, copies);
			used += rs;
		}
		if (n == total && env("FAKE_CUPTI_HOLD")) {
			held = buf, held_valid = used;
			break;
		}
		completed(NULL, 0, buf, size, used);
	}
	return NULL;
}

API CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc cb, void *data)
{
	called("cuptiSubscribe");
	if (env("FAKE_CUPTI_BUSY") || subscribed)
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	memset(callback_on, 0, sizeof(callback_on));
	callback_data = data;
	callback = cb;
	subscribed = 1;
	*sub = (CUpti_SubscriberHandle)&subscribed;
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle sub)
{
	(void)sub;
	called("cuptiUnsubscribe");
	callback = NULL;
	subscribed = 0;
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle sub, CUpti_CallbackDomain domain,
				    CUpti_CallbackId cbid)
{
	(void)sub;
	called("cuptiEnableCallback %u %d %u", enable, (int)domain, (unsigned)cbid);
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cbid >= sizeof(callback_on))
		return CUPTI_ERROR_INVALID_PARAMETER;
	callback_on[cbid] = enable != 0;
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
					       CUpti_BuffersCallbackCompleteFunc done)
{
	called("cuptiActivityRegisterCallbacks");
	requested = req, completed = done;
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiActivityEnableLatencyTimestamps(uint8_t enable)
{
	called("cuptiActivityEnableLatencyTimestamps %u", enable);
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind)
{
	called("cuptiActivityEnable %d", (int)kind);
	pthread_mutex_lock(&lock);
	if (kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
		kernels_on = 1;
	if (kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && !working && requested)
		working = !pthread_create(&worker, NULL, work, NULL);
	pthread_mutex_unlock(&lock);
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind)
{
	called("cuptiActivityDisable %d", (int)kind);
	pthread_mutex_lock(&lock);
	if (kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
		kernels_on = 0;
	pthread_mutex_unlock(&lock);
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
	called("cuptiActivityFlushAll %u", flag);
	if (env("FAKE_CUPTI_FLUSH_HANG"))
		for (;;)
			pause();
	pthread_mutex_lock(&lock);
	if (working)
		pthread_join(worker, NULL);
	working = 0;
	pthread_mutex_unlock(&lock);
	if (held) {
		uint8_t *b = held;

		held = NULL;
		completed(NULL, 0, b, held_valid, held_valid);
	}
	launches_complete();
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **record)
{
	uint8_t *p = *record ? (uint8_t *)*record + record_size((*record)->kind) : buffer;

	if (p >= buffer + valid)
		return CUPTI_ERROR_MAX_LIMIT_REACHED;
	*record = (CUpti_Activity *)p;
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext ctx, uint32_t stream, size_t *dropped)
{
	(void)ctx, (void)stream;
	*dropped = __atomic_exchange_n(&dropped_once, 0, __ATOMIC_SEQ_CST);
	return CUPTI_SUCCESS;
}

API CUptiResult cuptiGetTimestamp(uint64_t *t)
{
	*t = clock_now();
	return CUPTI_SUCCESS;
}

__attribute__((constructor)) static void fill_long_name(void)
{
	memset(long_name, 'k', sizeof(long_name) - 1);
}
