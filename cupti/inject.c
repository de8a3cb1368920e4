// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libgputop-cupti.so: GPU time for a CUDA program, loaded by CUDA at cuInit from
 * CUDA_INJECTION64_PATH (docs/gpu-time.md). Dormant until a monitor asks: the monitor's uprobe on
 * a probe function, attached with the semaphore's offset (libbpf's ref_ctr_offset), makes the
 * kernel raise gputop_cupti_semaphore; a thread of this library looks at it POLL_MS apart and only
 * then loads the program's libcupti and enables the activity kinds. Back at 0 it flushes,
 * disables and gives CUPTI up again. No CUPTI call, nor libcupti loaded, while nobody asks.
 * A forked child stays dormant; at exit the records still in CUPTI's buffers are flushed, waited
 * for at most EXIT_WAIT_MS.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cupti_driver_cbid.h>

#include "cupti/cupti_lib.h"

#define POLL_MS 100
#define RETRY_POLLS 100 /* after CUPTI was busy or failed: asked again 10 s later */
#define EXIT_WAIT_MS 500
/*
 * While on, every name is sent again at its next use this often (10 s): a monitor that came while
 * another was attached does not raise the semaphore (the kernel counts probe points, not monitors).
 */
#define NAMES_AGAIN_POLLS 100
/* While on, CUPTI's completed records are asked for this often (1 s): it hands over only full buffers. */
#define FLUSH_POLLS 10

/* The USDT-style semaphore: a counter the kernel raises for each uprobe attached with its offset. */
LIB_API __attribute__((section(".probes"), used)) volatile unsigned short gputop_cupti_semaphore;
/* Raised while a monitor joins kernels to their launches' stacks (gputop_cupti_launch). */
LIB_API __attribute__((section(".probes"), used)) volatile unsigned short gputop_cupti_launch_semaphore;

/* The launches the monitor takes stacks of (its uprobes on libcuda): their correlation ids go to gputop_cupti_launch. */
static const CUpti_CallbackId launch_cbids[] = {
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

static const CUpti_ActivityKind kinds[] = { CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
					    CUPTI_ACTIVITY_KIND_MEMSET };

static struct cupti_api api;
static CUpti_SubscriberHandle subscriber;
static int loaded; /* 0: not tried, 1: loaded, -1: none (not tried again) */
static int on;
static int launches_on; /* launch_cbids' callbacks enabled */
static int retry_in; /* polls before activation is tried again */
static int names_in; /* polls before every name is sent again */
static int flush_in; /* polls before the completed records are asked for */

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t state_cond; /* on CLOCK_MONOTONIC: InitializeInjection */
static int exiting, poller_done;
static atomic_int started, forked_child;

static void say(const char *what, const char *path)
{
	fprintf(stderr, "gputop-cupti: %s%s\n", what, path ? path : "");
}

/* In the launching thread, inside the driver's launch call: its correlation id to the monitor. */
static void CUPTIAPI launch_callback(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *info)
{
	const CUpti_CallbackData *cb = info;

	(void)data, (void)id;
	if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cb->callbackSite == CUPTI_API_ENTER)
		gputop_cupti_launch(cb->correlationId);
}

/* The launches' callbacks on or off, as the launch semaphore asks (only while on). */
static void launches_follow(int want)
{
	size_t n = sizeof(launch_cbids) / sizeof(launch_cbids[0]), i;

	if (!api.enable_callback || want == launches_on)
		return;
	for (i = 0; i < n; i++)
		if (api.enable_callback((uint32_t)want, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, launch_cbids[i]) !=
		    CUPTI_SUCCESS)
			break;
	if (want && i < n) { /* not all: none, rather than stacks for some launches only */
		while (i--)
			api.enable_callback(0, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, launch_cbids[i]);
		status_send(GPUTOP_CUPTI_FAILED, "cuptiEnableCallback");
		want = 0;
	}
	launches_on = want;
}

static int load_once(void)
{
	int r;

	if (loaded)
		return loaded;
	r = cupti_load(&api);
	loaded = r ? -1 : 1;
	if (r == -1)
		say("no libcupti found (beside libcudart or libtorch_cuda, or in the library path): no GPU time", NULL);
	else if (r == -2)
		say("libcupti without the activity functions needed: no GPU time; ", api.path);
	else
		say("GPU time from CUPTI ", api.path);
	if (r)
		gputop_cupti_status(GPUTOP_CUPTI_MISSING, r == -1 ? "no libcupti found" : api.path);
	return loaded;
}

static void disable_kinds(size_t n)
{
	for (size_t i = 0; i < n; i++)
		api.disable(kinds[i]);
}

/* Subscribes (to learn whether another profiler holds CUPTI) and enables the kinds; 0 when on. */
static int activate(void)
{
	CUptiResult r;
	size_t i;

	if (load_once() < 0)
		return -1;
	r = api.subscribe(&subscriber, launch_callback, NULL);
	if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
		say("CUPTI is held by another profiler: no GPU time while it holds it", NULL);
		status_send(GPUTOP_CUPTI_BUSY, "cuptiSubscribe: another subscriber");
		return -1;
	}
	if (r != CUPTI_SUCCESS) {
		status_send(GPUTOP_CUPTI_FAILED, "cuptiSubscribe");
		return -1;
	}
	activity_start(&api);
	if (api.latency_timestamps)
		api.latency_timestamps(1);
	if (api.register_callbacks(activity_buffer_requested, activity_buffer_completed) != CUPTI_SUCCESS)
		i = 0;
	else
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && api.enable(kinds[i]) == CUPTI_SUCCESS; i++)
			;
	if (i < sizeof(kinds) / sizeof(kinds[0])) {
		disable_kinds(i);
		api.unsubscribe(subscriber);
		status_send(GPUTOP_CUPTI_FAILED, i ? "cuptiActivityEnable" : "cuptiActivityRegisterCallbacks");
		return -1;
	}
	status_send(GPUTOP_CUPTI_ON, api.path);
	return 0;
}

static void deactivate(void)
{
	launches_follow(0);
	disable_kinds(sizeof(kinds) / sizeof(kinds[0]));
	api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	api.unsubscribe(subscriber);
	status_send(GPUTOP_CUPTI_OFF, "no monitor");
}

static unsigned short asked(void)
{
	unsigned short v = gputop_cupti_semaphore;
#ifdef GPUTOP_TEST_HOOKS
	v = (unsigned short)hook_asked(v);
#endif
	return v;
}

/* One look at the semaphore: on, off; while on, the records flushed and the names sent again now and then. */
static void poll_once(void)
{
	unsigned short want = asked();

	if (!want) {
		if (on)
			deactivate();
		on = 0;
		retry_in = 0;
	} else if (!on && retry_in-- <= 0) {
		on = !activate();
		retry_in = on ? 0 : RETRY_POLLS;
		names_in = NAMES_AGAIN_POLLS;
		flush_in = FLUSH_POLLS;
	} else if (on) {
		if (--names_in <= 0) {
			activity_start(&api);
			names_in = NAMES_AGAIN_POLLS;
		}
		if (--flush_in <= 0) {
			api.flush_all(0);
			flush_in = FLUSH_POLLS;
		}
	}
	if (on)
		launches_follow(gputop_cupti_launch_semaphore != 0);
}

static void *poller(void *arg)
{
	struct timespec until;

	(void)arg;
	pthread_mutex_lock(&state_lock);
	while (!exiting) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += POLL_MS * 1000000L;
		until.tv_sec += until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		while (!exiting && pthread_cond_timedwait(&state_cond, &state_lock, &until) != ETIMEDOUT)
			;
		if (exiting)
			break;
		pthread_mutex_unlock(&state_lock);
		poll_once();
		pthread_mutex_lock(&state_lock);
	}
	pthread_mutex_unlock(&state_lock);
	if (on)
		deactivate(); /* flushes what CUPTI still holds */
	on = 0;
	pthread_mutex_lock(&state_lock);
	poller_done = 1;
	pthread_cond_broadcast(&state_cond);
	pthread_mutex_unlock(&state_lock);
	return NULL;
}

/* At exit: the poller flushes and stops; waited for EXIT_WAIT_MS at most (a CUPTI that hangs is left). */
static void at_exit(void)
{
	struct timespec until;

	if (forked_child)
		return;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += EXIT_WAIT_MS * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&state_lock);
	exiting = 1;
	pthread_cond_broadcast(&state_cond);
	while (!poller_done && pthread_cond_timedwait(&state_cond, &state_lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&state_lock);
}

/* A forked child has no poller: it stays dormant, its exit flushes nothing. */
static void in_child(void)
{
	forked_child = 1;
}

/* Called by CUDA at cuInit: starts the poller (all signals blocked in it) and nothing else. */
LIB_API int InitializeInjection(void)
{
	sigset_t all, old;
	pthread_condattr_t cattr;
	pthread_attr_t attr;
	pthread_t t;
	int err;

	if (forked_child || atomic_exchange(&started, 1))
		return 1;
	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&state_cond, &cattr);
	pthread_condattr_destroy(&cattr);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &attr, poller, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		say("could not start its thread: no GPU time", NULL);
		return 1;
	}
	pthread_atfork(NULL, NULL, in_child);
	atexit(at_exit);
	return 1;
}
