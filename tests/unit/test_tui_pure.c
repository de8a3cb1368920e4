// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The interface's curses-free parts: layout, sparklines, rows, themes, config. */
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tui/config.h"
#include "tui/layout.h"
#include "tui/table_fit.h"
#include "tui/sparkline.h"
#include "tui/theme.h"
#include "tests/unit/model_fixture.h"

static bool overlap(struct rect a, struct rect b)
{
	return a.h && b.h && a.y < b.y + b.h && b.y < a.y + a.h && a.x < b.x + b.w && b.x < a.x + a.w;
}

static void layout_invariants_at_every_size(void **state)
{
	struct layout_input in = { .ndevices = 2, .nrings = 6, .nprocs = 9 };
	struct layout l;

	(void)state;
	for (int mask = 0; mask < (1 << PANE_COUNT); mask += 7) {
		for (int p = 0; p < PANE_COUNT; p++)
			in.panes[p] = mask & (1 << p);
		for (in.rows = 0; in.rows <= 80; in.rows++) {
			for (in.cols = 0; in.cols <= 260; in.cols += 3) {
				struct rect r[9];

				layout_compute(&in, &l);
				assert_int_equal(l.too_small,
						 in.rows < LAYOUT_MIN_ROWS || in.cols < LAYOUT_MIN_COLS);
				if (l.too_small)
					continue;
				r[0] = l.header, r[1] = l.devices, r[2] = l.rings, r[3] = l.procs;
				r[4] = l.status, r[5] = l.keybar, r[6] = l.side[0], r[7] = l.side[1];
				r[8] = l.side[2];
				for (int i = 0; i < 9; i++) {
					if (!r[i].h)
						continue;
					assert_true(r[i].y >= 0 && r[i].x >= 0 && r[i].w > 0);
					assert_true(r[i].y + r[i].h <= in.rows);
					assert_true(r[i].x + r[i].w <= in.cols);
					for (int j = i + 1; j < 9; j++)
						assert_false(overlap(r[i], r[j]));
				}
				assert_int_equal(l.keybar.y, in.rows - 1);
				if (in.panes[PANE_RINGS])
					assert_true(l.rings.h >= 3);
				if (in.panes[PANE_PROCESSES])
					assert_true(l.procs.h >= 3);
			}
		}
	}
}

static void layout_shows_everything_at_80x24(void **state)
{
	struct layout_input in = { .rows = 24, .cols = 80, .ndevices = 1, .nrings = 3, .nprocs = 4 };
	struct layout l;

	(void)state;
	for (int p = 0; p < PANE_COUNT; p++)
		in.panes[p] = true;
	layout_compute(&in, &l);
	assert_false(l.too_small);
	assert_true(l.header.h && l.devices.h && l.rings.h && l.procs.h);
	assert_true(l.side[0].h && l.side[1].h && l.side[2].h);
	in.rows = 60, in.cols = 200;
	layout_compute(&in, &l);
	assert_true(l.side[0].x > 0 && l.side[0].x == l.rings.w); /* wide: to the right */
}

/* Side panes keep no row they do not use: the narrow row of boxes as tall as the tallest needs, the wide column's
 * boxes each as tall as it needs, a box short of its need its least (NVML's GPUs without the processes). */
static void layout_side_panes_take_what_they_use(void **state)
{
	struct layout_input in = { .rows = 24, .cols = 80, .ndevices = 2, .device_rows = 4, .nprocs = 1 };
	struct layout l;

	(void)state;
	in.panes[PANE_DEVICES] = in.panes[PANE_PROCESSES] = in.panes[PANE_MEMORY] = true;
	in.absent_line = true;
	in.history_rows = 7; /* two GPUs: a title and three rows each */
	layout_compute(&in, &l);
	assert_int_equal(l.side[0].h, 7); /* what the tables and a third for the history leave */
	assert_int_equal(l.history.h, 5);
	in.side_need[0] = 9, in.side_least[0] = 5; /* its processes do not fit in 7: it uses 5 */
	layout_compute(&in, &l);
	assert_int_equal(l.side[0].h, 5);
	assert_int_equal(l.history.h, 7); /* both GPUs */
	assert_int_equal(l.side[0].y, l.history.y + l.history.h);
	in.side_need[0] = 4, in.side_least[0] = 0;
	layout_compute(&in, &l);
	assert_int_equal(l.side[0].h, 4);

	in.rows = 40, in.cols = 120; /* wide: a column of boxes at the right */
	in.panes[PANE_DISPLAY] = true;
	in.side_need[0] = 5, in.side_need[2] = 0;
	layout_compute(&in, &l);
	assert_int_equal(l.side[0].h, 5);
	assert_int_equal(l.side[2].h, 40 - 4 - 4 - 1 - 5); /* the rest to the one that takes all it gets */
	in.side_need[2] = 4;
	layout_compute(&in, &l);
	assert_int_equal(l.side[2].h, 4);
	assert_int_equal(l.side[2].y, l.side[0].y + 5);
	in.side_need[0] = 40, in.side_least[0] = 5, in.side_need[2] = 40; /* short of its need: all it gets */
	layout_compute(&in, &l);
	assert_int_equal(l.side[0].h + l.side[2].h, 40 - 4 - 4 - 1);
}

/* The GPUs' expanded blocks take rows the tables would leave blank, past a third of the screen (sysfs-fixtures). */
static void layout_devices_expand_into_rows_left_blank(void **state)
{
	struct layout_input in = { .rows = 24, .cols = 80, .ndevices = 4, .device_rows = 7, .nprocs = 1 };
	struct layout l;

	(void)state;
	in.panes[PANE_DEVICES] = in.panes[PANE_PROCESSES] = in.panes[PANE_MEMORY] = true;
	in.absent_line = true;
	in.side_need[0] = 7;
	layout_compute(&in, &l);
	assert_int_equal(l.devices.h, 7); /* 7 > a third of 20, but the process table needs 3 of its rows */
	assert_true(l.procs.h >= 3);
	assert_int_equal(l.side[0].y + l.side[0].h, 22);
	in.nprocs = 12; /* the processes want the rows: a line each */
	layout_compute(&in, &l);
	assert_int_equal(l.devices.h, 4);
}

static void sparkline_scales_to_the_maximum(void **state)
{
	double v[] = { 0, 1, 2, 4, 8 };
	char out[64];

	(void)state;
	assert_int_equal(sparkline_render(v, 5, 10, 0, false, out, sizeof(out)), 5);
	assert_string_equal(out, "_.:=#");
	assert_int_equal(sparkline_render(v, 5, 3, 0, true, out, sizeof(out)), 3);
	assert_string_equal(out, "▃▅█");
	assert_int_equal(sparkline_render(v, 5, 5, 16, false, out, sizeof(out)), 5);
	assert_string_equal(out, "_..:=");
	assert_int_equal(sparkline_render(v, 5, 5, 0, true, out, 8), 2); /* room for two glyphs */
	/* an unknown value is a blank cell, not a zero */
	assert_int_equal(sparkline_render((double[]){ 4, NAN, 0, 8 }, 4, 4, 0, false, out, sizeof(out)), 4);
	assert_string_equal(out, "= _#");
	/* two bands: a column of 16 eighths; zero the bottom band's lowest glyph, blank above */
	assert_int_equal(sparkline_band((double[]){ 0, 4, 8, NAN }, 4, 4, 8, 0, 2, false, out, sizeof(out)), 4);
	assert_string_equal(out, "_## ");
	assert_int_equal(sparkline_band((double[]){ 0, 4, 8, NAN }, 4, 4, 8, 1, 2, false, out, sizeof(out)), 4);
	assert_string_equal(out, " _# ");
	assert_int_equal(sparkline_band((double[]){ 1, 2 }, 2, 2, 16, 1, 2, true, out, sizeof(out)), 2);
	assert_string_equal(out, "  "); /* 1 and 2 of 16: within the bottom band */
	assert_int_equal(sparkline_band((double[]){ 1, 2 }, 2, 2, 16, 0, 2, true, out, sizeof(out)), 2);
	assert_string_equal(out, "▂▃"); /* above zero: above its glyph */
	assert_int_equal(bar_render(0.5, 10, false, out, sizeof(out)), 5);
	assert_string_equal(out, "#####");
	assert_int_equal(bar_render(2.0, 4, true, out, sizeof(out)), 4);
	assert_int_equal(bar_render(0.0625, 2, true, out, sizeof(out)), 1);
	assert_string_equal(out, "▏");
}

static struct snapshot *three_rings(void)
{
	struct model *m = model_new(0);
	struct sched_model *sm = sched_model_new();
	struct ring_counters rc[3] = { fixture_ring("d0", "gfx_0.0.0", 30, 30, 30, 2000000),
				       fixture_ring("d0", "sdma0", 50, 50, 50, 1000000),
				       fixture_ring("d1", "comp_1.0.0", 10, 10, 10, 5000000) };
	struct proc_counters pc[2] = { fixture_proc(300, "blender", "d0", "gfx_0.0.0", 30, 60000000),
				       fixture_proc(42, "Xorg", "d0", "sdma0", 50, 50000000) };
	struct snapshot *s;

	model_tick_begin(m, SEC_NS);
	for (int i = 0; i < 3; i++)
		sched_model_ring(sm, &rc[i]);
	for (int i = 0; i < 2; i++)
		sched_model_proc(sm, &pc[i]);
	sched_model_publish(sm, m);
	s = model_tick_end(m);
	sched_model_free(sm);
	model_free(m);
	return s;
}

/* The main screen's tables sort and filter as the old ring and process rows did. */
static void rows_sort_and_filter(void **state)
{
	struct snapshot *s = three_rings();
	const struct table *r = snapshot_table(s, "drm_sched.rings");
	const struct table *p = snapshot_table(s, "drm_sched.processes");
	struct table_state ts = { 0 };
	size_t idx[8], n;

	(void)state;
	n = table_rows(r, &ts, "", idx); /* default: jobs/s, largest first */
	assert_int_equal(n, 3);
	assert_string_equal(table_str(r, idx[0], "name"), "sdma0"); /* 50/s first */
	assert_string_equal(table_str(r, idx[2], "name"), "comp_1.0.0");
	ts.reverse = true;
	table_rows(r, &ts, NULL, idx);
	assert_string_equal(table_str(r, idx[0], "name"), "comp_1.0.0");
	ts = (struct table_state){ .sort_set = true, .sort_col = (unsigned int)table_col(r->desc, "name") };
	table_rows(r, &ts, NULL, idx);
	assert_string_equal(table_str(r, idx[0], "name"), "comp_1.0.0");
	ts.sort_col = (unsigned int)table_col(r->desc, "exec_ns.p50");
	table_rows(r, &ts, NULL, idx);
	assert_string_equal(table_str(r, idx[0], "name"), "comp_1.0.0"); /* 5 ms */
	ts.sort_col = (unsigned int)table_col(r->desc, "name");
	assert_int_equal(table_rows(r, &ts, "D1", idx), 1); /* device, any case */
	n = table_rows(r, &ts, "dma", idx);
	assert_int_equal(n, 1);
	assert_string_equal(table_str(r, idx[0], "name"), "sdma0");

	ts = (struct table_state){ 0 };
	n = table_rows(p, &ts, NULL, idx); /* default: GPU %, 0 for both in a first sample: by their jobs */
	assert_int_equal(n, 2);
	assert_true(table_num(p, idx[0], "gpu_pct") == 0 && table_num(p, idx[1], "gpu_pct") == 0);
	assert_true(table_num(p, idx[0], "pid") == 42); /* Xorg's 50 jobs since start above blender's 30 */
	ts = (struct table_state){ .sort_set = true, .sort_col = (unsigned int)table_col(p->desc, "pid") };
	table_rows(p, &ts, NULL, idx);
	assert_true(table_num(p, idx[0], "pid") == 42);
	assert_int_equal(table_rows(p, &ts, "300", idx), 1);
	n = table_rows(p, &ts, "org", idx);
	assert_int_equal(n, 1);
	assert_true(table_num(p, idx[0], "pid") == 42);
	snapshot_free(s);
}

static void themes_builtin_and_bad_lines(void **state)
{
	struct theme t;
	char err[256] = "";

	(void)state;
	assert_int_equal(theme_builtin_count(), 4);
	for (size_t i = 0; i < theme_builtin_count(); i++) {
		assert_int_equal(theme_load(theme_builtin_name(i), &t, err, sizeof(err)), 0);
		assert_string_equal(t.name, theme_builtin_name(i));
	}
	assert_int_equal(theme_load("light", &t, err, sizeof(err)), 0);
	assert_true(t.c[THEME_MAIN_BG].set && t.c[THEME_MAIN_BG].r == 0xff);
	assert_int_equal(theme_load("monochrome", &t, err, sizeof(err)), 0);
	assert_false(t.c[THEME_TITLE].set);
	assert_int_equal(theme_load("no-such-theme", &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no theme 'no-such-theme'"));

	/* A file: missing keys from the default, bad lines named by file and line. */
	memset(&t, 0, sizeof(t));
	assert_int_equal(theme_load("default", &t, err, sizeof(err)), 0);
	assert_int_equal(theme_parse("# c\ntheme[title]=\"#010203\"\ntheme[bogus]=\"#000000\"\n"
				     "theme[value]=\"red\"\ngarbage\n",
				     "my.theme", &t, err, sizeof(err)),
			 3);
	assert_string_equal(err, "my.theme:3: unknown key");
	assert_true(t.c[THEME_TITLE].r == 1 && t.c[THEME_TITLE].b == 3);
	assert_true(t.c[THEME_SELECTED_BG].set); /* kept from the default */
}

static void theme_file_from_disk(void **state)
{
	char path[] = "/tmp/gputop-theme-XXXXXX.theme";
	struct theme t;
	char err[256];
	int fd;

	(void)state;
	fd = mkstemps(path, 6);
	assert_true(fd >= 0);
	assert_true(write(fd, "theme[spark]=\"#00ff00\"\ntheme[spark]=#00ff00\n", 44) == 44);
	close(fd);
	assert_int_equal(theme_load(path, &t, err, sizeof(err)), 1);
	assert_non_null(strstr(err, ":2: the value must be in double quotes"));
	assert_true(t.c[THEME_SPARK].g == 0xff);
	unlink(path);
	assert_int_equal(theme_load("/nonexistent/x.theme", &t, err, sizeof(err)), -1);
	assert_true(t.c[THEME_TITLE].set); /* the default, even then */
}

static void config_parse_save_and_reload(void **state)
{
	char path[] = "/tmp/gputop-cfg-XXXXXX", file[64], err[256] = "";
	struct tui_prefs p, q;

	(void)state;
	prefs_defaults(&p);
	assert_int_equal(prefs_parse("theme = light\n\ndelay = 0.5\nring_sort = busy\nreverse = yes\n"
				     "panes = rings, processes\nbogus = 1\ndelay = -3\n"
				     "process_sort = mem_bytes\nprocess_sort = nope\n"
				     "hidden_columns = drm_sched.rings.wait_ns.p50, gpu.processes.cgroup\n"
				     "hidden_columns = gpu.processes.pid\nhidden_columns = gpu.processes.nope\n"
				     "process_reverse = yes\n",
				     "cfg", &p, err, sizeof(err)),
			 5);
	assert_string_equal(err, "cfg:7: unknown key (theme, delay, ring_sort, process_sort, reverse, process_reverse, "
				 "vi_keys, panes, hidden_columns)");
	assert_true(p.reverse && p.proc_reverse);
	/* a column key with a dot of its own; a key column (PID) or an unknown one refused, the list kept */
	assert_string_equal(p.hidden_cols, "drm_sched.rings.wait_ns.p50,gpu.processes.cgroup");
	assert_true(prefs_col_hidden(&p, "drm_sched.rings", "wait_ns.p50"));
	assert_false(prefs_col_hidden(&p, "drm_sched.rings", "wait_ns.p99"));
	assert_false(prefs_col_hidden(&p, "gpu.processes", "cgroup2"));
	assert_true(prefs_col_toggle(&p, "drm_sched.rings", "wait_ns.p50")); /* shown again */
	assert_string_equal(p.hidden_cols, "gpu.processes.cgroup");
	assert_false(prefs_col_toggle(&p, "gpu.processes", "pid")); /* the key stays */
	assert_true(prefs_col_toggle(&p, "gpu.processes", "comm"));
	assert_string_equal(p.hidden_cols, "gpu.processes.cgroup,gpu.processes.comm");
	assert_string_equal(p.theme, "light");
	assert_true(p.delay_s == 0.5); /* the bad delay on line 8 left it alone */
	assert_string_equal(p.ring_sort, "busy_pct"); /* 0.1.0's name for it */
	assert_true(p.reverse);
	assert_true(p.panes[PANE_RINGS] && p.panes[PANE_PROCESSES] && !p.panes[PANE_MEMORY]);
	assert_string_equal(p.proc_sort, "mem_bytes"); /* a column key; the bad one left it */

	assert_non_null(mkdtemp(path));
	snprintf(file, sizeof(file), "%s/sub/config", path);
	assert_int_equal(prefs_save(file, &p), 0);
	prefs_defaults(&q);
	assert_int_equal(prefs_load(file, &q, err, sizeof(err)), 0);
	assert_memory_equal(&p, &q, sizeof(p));
	prefs_defaults(&q);
	snprintf(file, sizeof(file), "%s/none", path);
	assert_int_equal(prefs_load(file, &q, err, sizeof(err)), 0); /* absent: defaults */
	snprintf(file, sizeof(file), "rm -rf %s", path);
	assert_int_equal(system(file), 0);
}

/* Stacked tables: each its least, then the rest to the focused one first; none half shown, no row idle. */
static void stacked_tables_share_rows(void **state)
{
	int out[6];

	(void)state;
	layout_share((int[]){ 4, 9, 5, 6 }, 4, 0, 40, 4, out); /* all fit: what each needs */
	assert_true(out[0] == 4 && out[1] == 9 && out[2] == 5 && out[3] == 6);
	/* the NVIDIA pane at 80x24: 18 rows; the CUDA table (3, focused) gets its rows, the last two none */
	layout_share((int[]){ 4, 4, 4, 6, 4, 4 }, 6, 3, 18, 4, out);
	assert_true(out[0] == 4 && out[1] == 4 && out[2] == 4 && out[3] == 6 && out[4] == 0 && out[5] == 0);
	layout_share((int[]){ 50, 50 }, 2, 1, 10, 4, out); /* the focused one takes what is left */
	assert_true(out[0] == 4 && out[1] == 6);
	layout_share((int[]){ 50, 50 }, 2, 0, 5, 4, out); /* room for one only */
	assert_true(out[0] == 5 && out[1] == 0);
	layout_share((int[]){ 3, 30, 30 }, 3, 2, 41, 4, out); /* focus, then after it, then before it */
	assert_true(out[0] == 3 && out[2] == 30 && out[1] == 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout_invariants_at_every_size),
		cmocka_unit_test(stacked_tables_share_rows),
		cmocka_unit_test(layout_shows_everything_at_80x24),
		cmocka_unit_test(layout_side_panes_take_what_they_use),
		cmocka_unit_test(layout_devices_expand_into_rows_left_blank),
		cmocka_unit_test(sparkline_scales_to_the_maximum),
		cmocka_unit_test(rows_sort_and_filter),
		cmocka_unit_test(themes_builtin_and_bad_lines),
		cmocka_unit_test(theme_file_from_disk),
		cmocka_unit_test(config_parse_save_and_reload),
	};
	return cmocka_run_group_tests_name("tui_pure", tests, NULL, NULL);
}
