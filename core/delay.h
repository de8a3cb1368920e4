/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The refresh interval's one rule, for the command line (-d), the config file
 * (delay = ...) and the interface's +/- keys.
 */
#ifndef GPUTOP_DELAY_H
#define GPUTOP_DELAY_H

#define DELAY_DEFAULT_S 1.0
#define DELAY_MIN_S 0.05
#define DELAY_MAX_S 3600.0
#define DELAY_RANGE_TEXT "0.05 and 3600" /* for messages: "seconds between " DELAY_RANGE_TEXT */

/* Seconds as a plain decimal (decimal_text), within [DELAY_MIN_S, DELAY_MAX_S]: 0 and *out set; -1 otherwise. */
int delay_parse(const char *text, double *out);
/*
 * The next interval of the +/- list (DELAY_MIN_S to DELAY_MAX_S, the range of -d)
 * above (dir > 0) or below (dir < 0) current; current itself at the list's end.
 */
double delay_step(double current, int dir);
/* The +/- list's interval nearest (by ratio) to seconds: a measured pace (0.517) as the step it is near (0.5). */
double delay_nearest(double seconds);

#endif
