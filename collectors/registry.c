// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The compiled-in collectors: each registers itself (COLLECTOR_REGISTER), no list to edit. */
#include <stdlib.h>
#include <pthread.h>
#include "collectors/collector.h"

extern const struct collector_ops *const __start_gputop_collectors[] __attribute__((weak));
extern const struct collector_ops *const __stop_gputop_collectors[] __attribute__((weak));

static const struct collector_ops **sorted;
static size_t nsorted;

static int by_order(const void *a, const void *b)
{
	const struct collector_ops *x = *(const struct collector_ops *const *)a;
	const struct collector_ops *y = *(const struct collector_ops *const *)b;

	return (x->order > y->order) - (x->order < y->order);
}

static void registry_sort(void)
{
	size_t n = __start_gputop_collectors ?
			   (size_t)(__stop_gputop_collectors - __start_gputop_collectors) :
			   0;

	sorted = calloc(n ? n : 1, sizeof(*sorted));
	if (!sorted)
		return;
	for (size_t i = 0; i < n; i++)
		sorted[i] = __start_gputop_collectors[i];
	qsort(sorted, n, sizeof(*sorted), by_order);
	nsorted = n;
}

const struct collector_ops *const *collector_registry(size_t *n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, registry_sort);
	*n = nsorted;
	return sorted;
}
