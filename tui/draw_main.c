// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The main screen: header, devices, rings, side panes, processes, status and key bar. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "core/privileges.h"
#include "core/version.h"
#include "model/histories.h"
#include "format/cell_format.h"
#include "tui/draw.h"
#include "tui/sparkline.h"


static const struct collector_status *collector(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; s && i < s->ncollectors; i++)
		if (!strcmp(s->collectors[i].info->name, name))
			return &s->collectors[i];
	return NULL;
}

/* " | 2 Xid errors, last Xid 79 on 0000:3b:00.0": NVIDIA's driver reported GPU errors. */
static bool xid_alert(const struct snapshot *s, char *buf, size_t size)
{
	const struct table *t = snapshot_table(s, "nvidia.xids");
	double last_seq = 0;
	size_t last = 0;

	if (!t || !t->nrows)
		return false;
	for (size_t i = 0; i < t->nrows; i++)
		if (table_num(t, i, "seq") > last_seq) {
			last_seq = table_num(t, i, "seq");
			last = i;
		}
	snprintf(buf, size, " | %.0f Xid error%s, last Xid %.0f on %.20s (4: NVIDIA)", last_seq,
		 last_seq == 1 ? "" : "s", table_num(t, last, "xid"), table_str(t, last, "dev"));
	return true;
}

/* " | self 0.4% CPU 3.4MiB, BPF 0.1%": what the monitor costs, from the self collector's table. */
static bool self_cost(const struct snapshot *s, char *buf, size_t size)
{
	const struct table *t = snapshot_table(s, "self.process");
	double cpu, rss, bpf;
	char mem[32] = "";

	if (!t || !t->nrows)
		return false;
	cpu = table_num(t, 0, "cpu_pct");
	rss = table_num(t, 0, "rss_bytes");
	bpf = table_num(t, 0, "bpf_cpu_pct");
	if (!isnan(rss))
		snprintf(mem, sizeof(mem), " %.1fMiB", rss / 1048576.0);
	if (isnan(cpu))
		snprintf(buf, size, " | self%s", mem);
	else
		snprintf(buf, size, " | self %.1f%% CPU%s", cpu, mem);
	if (!isnan(bpf))
		snprintf(buf + strlen(buf), size - strlen(buf), ", BPF %.2f%%", bpf);
	return true;
}

void draw_header(struct view *v, struct rect r)
{
	const struct snapshot *s = v->snap;
	unsigned int attached = 0, missing = 0, need_root = 0;
	uint64_t drops = 0;
	char up[32] = "-", state[300];
	int x, xid = -1, warn = -1;

	for (size_t i = 0; s && i < s->ncollectors; i++) {
		attached += s->collectors[i].info->state == COLLECTOR_ATTACHED;
		missing += s->collectors[i].info->state != COLLECTOR_ATTACHED;
		need_root += !strcmp(s->collectors[i].info->reason, PRIVILEGES_BPF_REASON);
		for (unsigned int d = 0; d < s->collectors[i].ndrops; d++)
			drops += s->collectors[i].drops[d].count;
	}
	if (s) {
		unsigned long t = (unsigned long)s->uptime_s;

		snprintf(up, sizeof(up), "%02lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	}
	if (v->feed->replay)
		snprintf(state, sizeof(state), "%s %s", v->paused ? "PAUSED" : "REPLAY", v->feed->name);
	else
		snprintf(state, sizeof(state), "%s", v->paused ? "PAUSED" : "LIVE");
	fill(r.y, 0, r.w, ROLE_HEADER);
	{
		/* Parts in order of need; one that does not fit whole is left out, never cut. */
		char parts[12][320];
		int n = 0;

		snprintf(parts[n++], sizeof(parts[0]), " gputop-bpf %s", GPUTOP_VERSION);
		snprintf(parts[n++], sizeof(parts[0]), " | %s", state);
		if (need_root) { /* an unprivileged start: what root adds, once */
			snprintf(parts[n], sizeof(parts[0]), " | no privilege: %u collectors need root (sudo)",
				 need_root);
			warn = n++;
		}
		if (xid_alert(s, parts[n], sizeof(parts[0])))
			xid = n++;
		if (drops)
			snprintf(parts[n++], sizeof(parts[0]), " | %llu dropped",
				 (unsigned long long)drops);
		snprintf(parts[n++], sizeof(parts[0]), " | every %gs", v->prefs.delay_s);
		if (self_cost(s, parts[n], sizeof(parts[0])))
			n++;
		snprintf(parts[n++], sizeof(parts[0]), " | %s (%s)", s ? s->hostname : "-",
			 s ? s->kernel : "-");
		snprintf(parts[n++], sizeof(parts[0]), " | up %s", up);
		snprintf(parts[n++], sizeof(parts[0]), " | collectors %u attached, %u missing",
			 attached, missing);
		x = 0;
		for (int i = 0; i < n; i++)
			x += put_whole(r.y, x, r.w - x,
				       i == xid ? ROLE_ERROR :
				       i == warn || (drops && i == 2 + (xid >= 0) + (warn >= 0)) ?
					       ROLE_WARNING : ROLE_HEADER,
				       parts[i]);
	}
	if (r.h < 2)
		return;
	fill(r.y + 1, 0, r.w, ROLE_NORMAL);
	x = 1;
	for (int i = 0; i < pane_screen_count(); i++)
		x += putf(r.y + 1, x, r.w - x, i == v->screen ? ROLE_SELECTED : ROLE_LABEL,
			  " %d %s ", i + 1, pane_for_screen(i)->title) + 1;
	/* the theme and the filter only whole: a part cut mid-word reads as something else */
	if (x + 8 + (int)strlen(v->theme.name) <= r.w)
		x += putf(r.y + 1, x, r.w - x, ROLE_DIM, "  theme %s", v->theme.name);
	if (v->filter[0])
		putf(r.y + 1, x, r.w - x, ROLE_WARNING, "  filter: %s", v->filter);
}

/* Jobs per second on the rings of device d, from the scheduler collector's table; NAN: no ring of it. */
static double device_jobs(const struct snapshot *s, const struct device_snap *d)
{
	const struct table *t = snapshot_table(s, "drm_sched.rings");
	double sum = NAN;

	for (size_t i = 0; t && d->bus_id[0] && i < t->nrows; i++)
		if (!strcmp(table_str(t, i, "dev"), d->bus_id))
			sum = (isnan(sum) ? 0 : sum) + fmax(0, table_num(t, i, "completed_per_s"));
	return sum;
}

/* The interrupt lines whose handler is driver's, from the irq collector's table; NAN: no line of it. */
static double driver_irqs(const struct snapshot *s, const char *driver)
{
	const struct table *t = snapshot_table(s, "irq.lines");
	int name = t ? table_col(t->desc, "name") : -1, rate = t ? table_col(t->desc, "per_s") : -1;
	double sum = NAN;

	for (size_t i = 0; name >= 0 && rate >= 0 && driver[0] && i < t->nrows; i++) {
		const struct cell *n = table_cell(t, i, (unsigned int)name);

		if (n->known && strstr(n->s, driver))
			sum = (isnan(sum) ? 0 : sum) +
			      fmax(0, cell_number(t->desc, table_row(t, i), (unsigned int)rate));
	}
	return sum;
}

/* PCI addresses "0000:3b:00.0" and NVML's "00000000:3B:00.0" name the same device. */
static bool same_pci(const char *a, const char *b)
{
	const char *ca = strchr(a, ':'), *cb = strchr(b, ':');

	return ca && cb && !strcasecmp(ca, cb) && strtoul(a, NULL, 16) == strtoul(b, NULL, 16);
}

/* One GPU's readings, from the sensors collector (DRM cards) or NVML (NVIDIA); NAN: unknown. */
struct gpu_readings {
	double busy, temp, power, cap, mhz;
};

static struct gpu_readings readings(const struct snapshot *s, const struct device_snap *d)
{
	const struct table *t = snapshot_table(s, "sensors.gpus");
	const struct table *nv = snapshot_table(s, "nvidia.gpus");
	struct gpu_readings g = { NAN, NAN, NAN, NAN, NAN };

	for (size_t i = 0; t && i < t->nrows; i++)
		if (!strcmp(table_str(t, i, "dev"), d->name)) {
			g.busy = table_num(t, i, "busy_pct");
			g.temp = table_num(t, i, "temp_c");
			g.power = table_num(t, i, "power_w");
			g.cap = table_num(t, i, "power_cap_w");
			g.mhz = table_num(t, i, "gfx_mhz");
		}
	for (size_t i = 0; nv && d->bus_id[0] && i < nv->nrows; i++)
		if (same_pci(table_str(nv, i, "bus_id"), d->bus_id)) {
			if (isnan(g.busy))
				g.busy = table_num(nv, i, "util_pct");
			if (isnan(g.temp))
				g.temp = table_num(nv, i, "temp_c");
			if (isnan(g.power))
				g.power = table_num(nv, i, "power_w");
			if (isnan(g.cap))
				g.cap = table_num(nv, i, "power_cap_w");
			if (isnan(g.mhz))
				g.mhz = table_num(nv, i, "gfx_mhz");
		}
	return g;
}

/* "  busy 42%  45°C  123/250W  1850MHz": what is known, each part whole or not at all. */
static int sensors_part(struct view *v, const struct device_snap *d, int y, int x, int right)
{
	struct gpu_readings g = readings(v->snap, d);
	char part[64];
	int x0 = x;

	if (!isnan(g.busy)) {
		snprintf(part, sizeof(part), "  busy %.0f%%", g.busy);
		x += put_whole(y, x, right - x, ROLE_VALUE, part);
	}
	if (!isnan(g.temp)) {
		snprintf(part, sizeof(part), "  %.0f%s", g.temp, v->utf8 ? "°C" : "C");
		x += put_whole(y, x, right - x, g.temp >= 90 ? ROLE_WARNING : ROLE_VALUE, part);
	}
	if (!isnan(g.power)) {
		if (isnan(g.cap))
			snprintf(part, sizeof(part), "  %.0fW", g.power);
		else
			snprintf(part, sizeof(part), "  %.0f/%.0fW", g.power, g.cap);
		x += put_whole(y, x, right - x, ROLE_VALUE, part);
	}
	if (!isnan(g.mhz)) {
		snprintf(part, sizeof(part), "  %.0fMHz", g.mhz);
		x += put_whole(y, x, right - x, ROLE_VALUE, part);
	}
	return x - x0;
}

/* "[███░░░] " of used over size, in a meter role by how full. */
static int meter(int y, int x, int w, double frac, bool utf8)
{
	char bar[64];
	enum role role = frac > 0.9 ? ROLE_METER_HIGH : frac > 0.6 ? ROLE_METER_MID : ROLE_METER_LOW;
	int n = 0, cells;

	if (w < 8)
		return 0;
	n += put(y, x, w, ROLE_DIM, "[");
	cells = (int)bar_render(frac, 6, utf8, bar, sizeof(bar));
	n += put(y, x + n, w - n, role, bar);
	fill(y, x + n, 6 - cells, ROLE_NORMAL); /* the empty part of the bar */
	n += 6 - cells;
	n += put(y, x + n, w - n, ROLE_DIM, "] ");
	return n;
}

/* An NVIDIA GPU's memory from NVML (nvidia.gpus), from *end; false when not there. */
static bool nvml_line(struct view *v, const struct device_snap *d, int y, int *end, int right)
{
	const struct table *t = snapshot_table(v->snap, "nvidia.gpus");
	char used[16], total[16];
	int x = *end;

	for (size_t i = 0; t && d->bus_id[0] && i < t->nrows; i++) {
		double u = table_num(t, i, "mem_used_bytes"), all = table_num(t, i, "mem_total_bytes");

		if (!same_pci(table_str(t, i, "bus_id"), d->bus_id) || isnan(u) || isnan(all) || all <= 0)
			continue;
		x += put(y, x, right - x, ROLE_LABEL, "  VRAM ");
		x += meter(y, x, right - x, u / all, v->utf8);
		x += putf(y, x, right - x, ROLE_VALUE, "%s/%s", format_bytes(u, used, sizeof(used)),
			  format_bytes(all, total, sizeof(total)));
		*end = x;
		return true;
	}
	return false;
}

/* "  VRAM [███   ] 2.0GiB/16.0GiB" (or "  VRAM 2.0GiB" with no size) whole at x, or nothing; cells used. */
static int region_part(struct view *v, int y, int x, int right, const char *label, double used,
		       double size)
{
	char a[16], b[16], text[48];
	bool bar = !isnan(used) && !isnan(size) && size > 0;

	if (bar)
		snprintf(text, sizeof(text), "%s/%s", format_bytes(used, a, sizeof(a)),
			 format_bytes(size, b, sizeof(b)));
	else if (isnan(used) && !isnan(size))
		snprintf(text, sizeof(text), "-/%s", format_bytes(size, b, sizeof(b))); /* size only (xe) */
	else
		snprintf(text, sizeof(text), "%s", isnan(used) ? "-" : format_bytes(used, a, sizeof(a)));
	if (x + (int)strlen(label) + (bar ? 9 : 0) + (int)strlen(text) > right)
		return 0;
	x += put(y, x, right - x, ROLE_LABEL, label);
	if (bar)
		x += meter(y, x, right - x, used / size, v->utf8);
	put(y, x, right - x, ROLE_VALUE, text);
	return (int)strlen(label) + (bar ? 9 : 0) + (int)strlen(text);
}

/*
 * The memory of device d from the memory collector, from *end: its first region (VRAM, or what the
 * driver has) with first, the others and its engine classes' use without; sysfs used / size with a
 * bar, else the clients' resident. Each part whole. False when it reported none.
 */
static bool memory_line(struct view *v, const struct device_snap *d, int y, int *end, int right,
			bool first)
{
	/* region names by driver: amdgpu vram, vis_vram, gtt; xe vram0, system; i915 local0, system0; msm, panfrost memory */
	static const char *const regions[][2] = {
		{ "vram", "  VRAM " },	  { "vram0", "  VRAM " },    { "local0", "  VRAM " },
		{ "vis_vram", "  vis " }, { "gtt", "  GTT " },	     { "system", "  SYS " },
		{ "system0", "  SYS " },  { "memory", "  MEM " },
	};
	const char *shown[sizeof(regions) / sizeof(regions[0])] = { NULL };
	size_t nshown = 0;
	const struct table *t = snapshot_table(v->snap, "memory.devices");
	const struct table *e = snapshot_table(v->snap, "memory.device_engines");
	const char *dev = d->bus_id[0] ? d->bus_id : d->driver;
	int x = *end;

	for (size_t k = 0; t && k < sizeof(regions) / sizeof(regions[0]); k++)
		for (size_t i = 0; i < t->nrows; i++) {
			double used = table_num(t, i, "used_bytes");
			bool dup = false;

			for (size_t j = 0; j < nshown; j++)
				dup |= !strcmp(shown[j], regions[k][1]);
			if (dup || strcmp(table_str(t, i, "dev"), dev) ||
			    strcmp(table_str(t, i, "region"), regions[k][0]))
				continue;
			shown[nshown++] = regions[k][1];
			if (isnan(used))
				used = table_num(t, i, "resident_bytes");
			if (isnan(used))
				used = table_num(t, i, "total_bytes");
			if (first == (nshown == 1))
				x += region_part(v, y, x, right, regions[k][1], used,
						 table_num(t, i, "size_bytes"));
			break;
		}
	for (size_t i = 0; !first && e && i < e->nrows; i++)
		if (!strcmp(table_str(e, i, "dev"), dev)) {
			char part[48];

			snprintf(part, sizeof(part), "  %s %.0f%%", table_str(e, i, "class"),
				 num_or_0(e, i, "busy_pct"));
			x += put_whole(y, x, right - x, ROLE_VALUE, part);
		}
	*end = x;
	return nshown > 0;
}

/* Where the example recordings are: installed (the package's, make install's), else the source tree's. */
static const char *examples_dir(void)
{
	static const char *const dirs[] = { "/usr/share/gputop-bpf/examples",
					    "/usr/local/share/gputop-bpf/examples" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!access(dirs[i], R_OK))
			return dirs[i];
	return "examples";
}

static void draw_devices(struct view *v, struct rect r)
{
	const struct snapshot *s = v->snap;
	const struct collector_status *c = collector(s, "devices");
	char a[16], b[16];

	for (int i = 0; i < r.h; i++)
		fill(r.y + i, r.x, r.w, ROLE_NORMAL);
	if (!s || !s->ndevices) {
		/* no GPU: say so and what to try, the longest telling that fits whole */
		const char *why = c && c->info->reason[0] ? c->info->reason : "no device found";
		const char *dir = examples_dir();
		char text[3][700];
		int k;

		snprintf(text[0], sizeof(text[0]),
			 "No supported GPU here: %s. To see gputop-bpf at work without one, play a recording: "
			 "gputop-bpf --replay %s/sysfs-fixtures.jsonl (AMD and Intel sensors), nvidia-h100.jsonl "
			 "(CUDA on an H100) or mockgpu-7.3.jsonl (the DRM scheduler).", why, dir);
		snprintf(text[1], sizeof(text[1]),
			 "No supported GPU here: %s. Try a recording: gputop-bpf --replay %s/sysfs-fixtures.jsonl",
			 why, dir);
		snprintf(text[2], sizeof(text[2]), "No supported GPU here. Try gputop-bpf --replay %s/sysfs-fixtures.jsonl",
			 dir);
		for (k = 0; k < 2 && wrapped_rows(text[k], r.w - 2) > r.h; k++)
			;
		put_wrapped((struct rect){ r.y, 1, r.h, r.w - 2 }, ROLE_WARNING, text[k]);
		return;
	}
	for (size_t i = 0; i < s->ndevices && (int)i < r.h; i++) {
		const struct device_snap *d = &s->devices[i];
		int x = 1, y = r.y + (int)i;
		char part[64];

		/* by need: the device, its memory, its sensors, then its work; each part whole */
		x += putf(y, x, r.w - x, ROLE_VALUE, "%-8s", d->name);
		x += putf(y, x, r.w - x, ROLE_NORMAL, " %-8s %-13s", d->driver, d->bus_id);
		if (!nvml_line(v, d, y, &x, r.w) && !memory_line(v, d, y, &x, r.w, true))
			x += put_whole(y, x, r.w - x, ROLE_DIM, "  (no memory reported)");
		x += sensors_part(v, d, y, x, r.w);
		memory_line(v, d, y, &x, r.w, false);
		/* its work where a collector measures it: no ring or line of it, nothing said (never 0) */
		if (!isnan(device_jobs(s, d))) {
			snprintf(part, sizeof(part), "  jobs/s %s", fmt_rate(device_jobs(s, d), a, sizeof(a)));
			x += put_whole(y, x, r.w - x, ROLE_LABEL, part);
		}
		if (!isnan(driver_irqs(s, d->driver))) {
			snprintf(part, sizeof(part), "  IRQ/s %s", fmt_rate(driver_irqs(s, d->driver), b, sizeof(b)));
			put_whole(y, x, r.w - x, ROLE_LABEL, part);
		}
	}
}

/* A declared pane's summary: a few columns of its table, the first history as a sparkline. */
static void draw_summary(struct view *v, struct rect in, const struct pane_decl *p)
{
	const struct table *t = snapshot_table(v->snap, p->summary_table);
	const struct table_desc *d = table_desc_find(p->summary_table);
	const struct collector_status *c = NULL;
	int y = in.y;

	for (size_t i = 0; v->snap && i < v->snap->ncollectors; i++)
		if (!strcmp(v->snap->collectors[i].info->name, p->collector))
			c = &v->snap->collectors[i];
	if (!d)
		return;
	if (c && c->info->state != COLLECTOR_ATTACHED) {
		char why[320];

		snprintf(why, sizeof(why), "%s unavailable: %s", c->info->name, c->info->reason);
		put_wrapped(in, ROLE_WARNING, why);
		return;
	}
	if (!t || !t->nrows) {
		char text[400];

		snprintf(text, sizeof(text), "%s%s%s%s%s", d->empty ? d->empty : "Nothing yet.",
			 c && c->detail[0] ? " [" : "", c ? c->info->name : "", c && c->detail[0] ? ": " : "",
			 c && c->detail[0] ? c->detail : "");
		if (c && c->detail[0])
			strncat(text, "]", sizeof(text) - strlen(text) - 1);
		put_wrapped(in, ROLE_DIM, text);
		return;
	}
	for (size_t r = 0; r < t->nrows && y < in.y + in.h; r++, y++) {
		const struct history *hist = NULL;
		int x = in.x;

		for (int k = 0; k < PANE_MAX_SUMMARY && p->summary_cols[k]; k++) {
			int col = table_col(d, p->summary_cols[k]);
			char raw[TABLE_STR_MAX], fit[TABLE_STR_MAX * 2];
			int w;

			if (col < 0)
				continue;
			w = d->cols[col].width;
			cell_format(&d->cols[col], table_cell(t, r, (unsigned int)col), raw, sizeof(raw));
			text_fit(raw, w, v->utf8, fit, sizeof(fit));
			if (x + w > in.x + in.w)
				break;
			putf(y, x, w + 1, ROLE_NORMAL, "%*s ", d->cols[col].type == COL_STR ? -w : w, fit);
			x += w + 1;
			if (!hist && (d->cols[col].flags & COL_HISTORY))
				hist = histories_get(v->histories, t, r, (unsigned int)col);
		}
		if (hist && in.x + in.w - x >= 4) {
			double vals[HISTORY_LEN];
			char spark[HISTORY_LEN * 4];
			size_t n = history_read(hist, vals, HISTORY_LEN);

			sparkline_render(vals, n, (size_t)(in.x + in.w - x), 0, v->utf8, spark,
					 sizeof(spark));
			put(y, x, in.x + in.w - x, ROLE_SPARK, spark);
		}
	}
}

static void draw_side(struct view *v, int which, struct rect r)
{
	static const char *const titles[3] = { "MEMORY", "INTERRUPTS", "DISPLAY" };
	struct rect in = frame(r, titles[which], v->utf8);

	if (!in.h)
		return;
	for (int i = 0; i < in.h; i++)
		fill(in.y + i, in.x, in.w, ROLE_NORMAL);
	if (!pane_for_side(which)) {
		put_wrapped(in, ROLE_DIM,
			    "VRAM and GTT totals and allocation rates will show here: they need a memory "
			    "collector (amdgpu, i915, xe tracepoints), which this version does not have.");
		return;
	}
	if (pane_for_side(which))
		draw_summary(v, in, pane_for_side(which));
}

void draw_main(struct view *v)
{
	struct layout *l = &v->layout;

	if (l->devices.h)
		draw_devices(v, l->devices);
	/* The main screen's declared tables: the first in the upper area, the second below. */
	if (l->rings.h)
		pane_table_draw(v, pane_for_screen(SCREEN_MAIN), 0,
				(struct rect){ l->rings.y, l->rings.x + 1, l->rings.h, l->rings.w - 1 });
	if (l->procs.h)
		pane_table_draw(v, pane_for_screen(SCREEN_MAIN), 1,
				(struct rect){ l->procs.y, l->procs.x + 1, l->procs.h, l->procs.w - 1 });
	for (int i = 0; i < 3; i++)
		if (l->side[i].h)
			draw_side(v, i, l->side[i]);
}

void draw_bottom(struct view *v)
{
	static const struct {
		const char *key, *what;
	} keys[] = {
		{ "F1", "Help" }, { "/", "Filter" }, { "F6", "Sort" }, { "Spc", "Pause" },
		{ "+-", "Delay" }, { "t", "Theme" }, { "Tab", "Panes" }, { "Enter", "Open" },
		{ "W", "Save" }, { "F10", "Quit" },
	};
	struct layout *l = &v->layout;
	int x = 0;

	fill(l->status.y, 0, l->status.w, ROLE_NORMAL);
	if (v->editing_filter)
		putf(l->status.y, 1, l->status.w - 1, ROLE_VALUE,
		     "Filter (name, device, comm or PID; Enter applies, Esc clears): %s_", v->edit);
	else if (v->message[0])
		put(l->status.y, 1, l->status.w - 1, v->message_error ? ROLE_ERROR : ROLE_LABEL,
		    v->message);
	else if (v->paused)
		put(l->status.y, 1, l->status.w - 1, ROLE_WARNING,
		    v->feed->replay ? "Paused: space resumes, n steps one snapshot" :
				      "Paused: the data is frozen; space resumes, n takes one update");
	fill(l->keybar.y, 0, l->keybar.w, ROLE_KEYBAR);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && x < l->keybar.w; i++) {
		x += put(l->keybar.y, x, l->keybar.w - x, ROLE_KEY, keys[i].key);
		x += putf(l->keybar.y, x, l->keybar.w - x, ROLE_KEYBAR, "%s ", keys[i].what);
	}
}
