// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "core/decimal.h"
#include "core/delay.h"

/* the whole range of -d, its ends included: + and - reach what -d accepts, no more */
static const double steps[] = { DELAY_MIN_S, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 300, 900, DELAY_MAX_S };
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

int delay_parse(const char *text, double *out)
{
	char *end;
	double v;

	if (!decimal_text(text)) /* strtod would take "0x10" (16), "1e3", "inf" */
		return -1;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || v < DELAY_MIN_S || v > DELAY_MAX_S)
		return -1;
	*out = v;
	return 0;
}

double delay_step(double current, int dir)
{
	const double eps = 1e-9;

	if (dir > 0) {
		for (size_t i = 0; i < NSTEPS; i++)
			if (steps[i] > current + eps)
				return steps[i];
	} else if (dir < 0) {
		for (size_t i = NSTEPS; i-- > 0;)
			if (steps[i] < current - eps)
				return steps[i];
	}
	return current;
}

double delay_nearest(double seconds)
{
	double best = steps[0];

	for (size_t i = 1; i < NSTEPS; i++)
		if (fabs(log(steps[i] / seconds)) < fabs(log(best / seconds)))
			best = steps[i];
	return best;
}
