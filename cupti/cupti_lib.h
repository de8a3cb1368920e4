/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CUPTI companion library's parts (docs/gpu-time.md): the program's own libcupti found and
 * loaded (load.c), kernel names as ids (names.c), activity buffers to probe calls (activity.c),
 * the dormant start, the semaphore and the program's fork and exit (inject.c).
 */
#ifndef GPUTOP_CUPTI_LIB_H
#define GPUTOP_CUPTI_LIB_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <cupti_activity.h>
#include <cupti_callbacks.h>

#include "core/cupti_abi.h"

#define LIB_API __attribute__((visibility("default")))

/* The CUPTI functions the library calls, from the program's libcupti. */
struct cupti_api {
	char path[PATH_MAX];
	CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
	CUptiResult (*unsubscribe)(CUpti_SubscriberHandle);
	CUptiResult (*enable)(CUpti_ActivityKind);
	CUptiResult (*disable)(CUpti_ActivityKind);
	CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
	CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
	CUptiResult (*dropped)(CUcontext, uint32_t, size_t *);
	CUptiResult (*flush_all)(uint32_t);
	CUptiResult (*latency_timestamps)(uint8_t);
	CUptiResult (*timestamp)(uint64_t *);
	CUptiResult (*enable_callback)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain,
				       CUpti_CallbackId); /* NULL: launches not joined */
};

/* load.c: 0 and API filled, or -1 (none found) or -2 (one without a function needed: API->path says which). */
int cupti_load(struct cupti_api *api);

/* names.c: a kernel name's id (the same for the library's life), sending the name first where it was not since names_resend. */
uint32_t name_id(const char *name);
void names_resend(void);

/* activity.c */
void activity_start(const struct cupti_api *api);
void CUPTIAPI activity_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records);
void CUPTIAPI activity_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid);
void status_send(uint32_t state, const char *detail);

/* The probe functions (core/cupti_abi.h) */
LIB_API void gputop_cupti_records(const struct gputop_cupti_batch *batch, const struct gputop_cupti_record *records);
LIB_API void gputop_cupti_name(uint32_t id, const char *name, uint32_t len, uint32_t cut);
LIB_API void gputop_cupti_status(uint32_t state, const char *detail);
LIB_API void gputop_cupti_launch(uint32_t correlation_id);

/* test_hooks.c, in test builds only (TEST_HOOKS=1): what the probes got, written to a file. */
#ifdef GPUTOP_TEST_HOOKS
void hook_records(const struct gputop_cupti_batch *batch, const struct gputop_cupti_record *records);
void hook_name(uint32_t id, const char *name, uint32_t len, uint32_t cut);
void hook_status(uint32_t state, const char *detail);
int hook_asked(int semaphore);
#endif

#endif
