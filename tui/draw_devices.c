// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Overview's GPU blocks: per device a line of what it is, its memory, its
 * sensors and its work, and, while expanded ('e') and there is room, a second
 * line of its engines' use as bars, its other temperatures, fan, memory clock,
 * what holds its clocks and its PCIe traffic. Every part is whole or absent;
 * nothing unknown is shown as 0. With no GPU, what to try instead.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/share_dir.h"
#include "core/pci.h"
#include "format/cell_format.h"
#include "tui/draw.h"
#include "tui/sparkline.h"

/* Jobs completed per second on the rings whose device is dev (done/s, as DONE/S); NAN: no ring of it. */
static double ring_jobs(const struct snapshot *s, const char *dev)
{
	const struct table *t = snapshot_table(s, "drm_sched.rings");
	double sum = NAN;

	for (size_t i = 0; t && dev[0] && i < t->nrows; i++)
		if (!strcmp(table_str(t, i, "dev"), dev))
			sum = (isnan(sum) ? 0 : sum) + fmax(0, table_num(t, i, "completed_per_s"));
	return sum;
}

int ring_only_devices(const struct snapshot *s, const char **out)
{
	const struct table *t = snapshot_table(s, "drm_sched.rings");
	int n = 0;

	for (size_t i = 0; t && i < t->nrows && n < RING_ONLY_MAX; i++) {
		const char *dev = table_str(t, i, "dev");
		bool known = !dev[0];

		for (size_t k = 0; !known && k < s->ndevices; k++)
			known = !strcmp(s->devices[k].name, dev) || !strcmp(s->devices[k].bus_id, dev) ||
				(s->devices[k].bus_id[0] && pci_same(s->devices[k].bus_id, dev));
		for (int k = 0; !known && k < n; k++)
			known = !strcmp(out[k], dev);
		if (!known)
			out[n++] = dev;
	}
	return n;
}

int devices_count(const struct view *v)
{
	const char *extra[RING_ONLY_MAX];

	return v->snap ? (int)v->snap->ndevices + ring_only_devices(v->snap, extra) : 0;
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
		if (pci_same(table_str(nv, i, "bus_id"), d->bus_id)) {
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

/* A part of the sensors' run: its text, the cells of its widest value, its role. */
struct steady {
	char text[48];
	int cells;
	enum role role;
};

static void steady_add(struct steady *p, int *n, int cells, enum role role, const char *fmt, double a, double b)
{
	snprintf(p[*n].text, sizeof(p[*n].text), fmt, a, b);
	p[*n].cells = cells;
	p[(*n)++].role = role;
}

/*
 * "  busy 42%  45°C  123/250W  gclk 1850MHz": what is known. Which parts show is decided by their widest
 * values ("  busy 100%", "  100°C", power at its cap, "  gclk 9999MHz") and by slack, the cells the parts before may yet
 * grow by; the first that does not fit ends the run, and the line (*cut). So a part never comes and goes
 * with the values.
 */
static int sensors_part(struct view *v, const struct device_snap *d, int y, int x, int right, int slack, bool *cut)
{
	struct gpu_readings g = readings(v->snap, d);
	struct steady p[4];
	char widest[48];
	int n = 0, x0 = x, room = right - x - slack;

	if (!isnan(g.busy))
		steady_add(p, &n, 11, ROLE_VALUE, "  busy %.0f%%", g.busy, 0);
	if (!isnan(g.temp))
		steady_add(p, &n, 7, g.temp >= 90 ? ROLE_WARNING : ROLE_VALUE, v->utf8 ? "  %.0f°C" : "  %.0fC", g.temp,
			   0);
	if (!isnan(g.power) && isnan(g.cap))
		steady_add(p, &n, 7, ROLE_VALUE, "  %.0fW", g.power, 0);
	else if (!isnan(g.power))
		steady_add(p, &n, snprintf(widest, sizeof(widest), "  %.0f/%.0fW", g.cap, g.cap), ROLE_VALUE,
			   "  %.0f/%.0fW", g.power, g.cap);
	if (!isnan(g.mhz))
		steady_add(p, &n, 14, ROLE_VALUE, "  gclk %.0fMHz", g.mhz, 0);
	*cut = false;
	for (int i = 0; i < n && !*cut; i++)
		if (!(*cut = (room -= p[i].cells) < 0))
			x += put_whole(y, x, right - x, p[i].role, p[i].text);
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

/*
 * An NVIDIA GPU's memory from NVML (nvidia.gpus), from *end; false when not there. *slack: the cells its
 * text may yet grow by (to "620.8MiB/<total>"), for the parts after it to keep their room.
 */
static bool nvml_line(struct view *v, const struct device_snap *d, int y, int *end, int right, int *slack)
{
	const struct table *t = snapshot_table(v->snap, "nvidia.gpus");
	char used[16], total[16];
	int x = *end;

	for (size_t i = 0; t && d->bus_id[0] && i < t->nrows; i++) {
		double u = table_num(t, i, "mem_used_bytes"), all = table_num(t, i, "mem_total_bytes");
		char text[40];

		if (!pci_same(table_str(t, i, "bus_id"), d->bus_id) || isnan(u) || isnan(all) || all <= 0)
			continue;
		snprintf(text, sizeof(text), "%s/%s", format_bytes(u, used, sizeof(used)),
			 format_bytes(all, total, sizeof(total)));
		/* whole or not at all: "79.6Gi" reads as another size */
		if (x + 7 + 9 + (int)strlen(text) <= right) {
			x += put(y, x, right - x, ROLE_LABEL, "  VRAM ");
			x += meter(y, x, right - x, u / all, v->utf8);
			x += put(y, x, right - x, ROLE_VALUE, text);
		} else if (x + 7 + (int)strlen(text) <= right) {
			x += put(y, x, right - x, ROLE_LABEL, "  VRAM ");
			x += put(y, x, right - x, ROLE_VALUE, text);
		}
		*slack = 8 - (int)strlen(used); /* "620.8MiB" (1000 to 1023.9 of a unit take one more) */
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
 * driver has) with first, the others without (and its engine classes' use with engines: the
 * one-line blocks); sysfs used / size with a
 * bar, else the clients' resident. Each part whole. False when it reported none.
 */
static bool memory_line(struct view *v, const struct device_snap *d, int y, int *end, int right,
			bool first, bool engines)
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
	for (size_t i = 0; !first && engines && e && i < e->nrows; i++)
		if (!strcmp(table_str(e, i, "dev"), dev)) {
			char part[48];

			snprintf(part, sizeof(part), "  %s %.0f%%", table_str(e, i, "class"),
				 num_or_0(e, i, "busy_pct"));
			x += put_whole(y, x, right - x, ROLE_VALUE, part);
		}
	*end = x;
	return nshown > 0;
}

/* "  label [██    ] 42%" whole at x, or nothing; cells used. */
static int bar_part(struct view *v, int y, int x, int right, const char *label, double pct)
{
	char text[32];
	int need;

	if (isnan(pct))
		return 0;
	snprintf(text, sizeof(text), "%.0f%%", pct);
	need = 2 + (int)strlen(label) + 1 + 9 + (int)strlen(text);
	if (x + need > right)
		return 0;
	put(y, x, right - x, ROLE_LABEL, "  ");
	put(y, x + 2, right - x - 2, ROLE_LABEL, label);
	meter(y, x + 3 + (int)strlen(label), right - x, fmin(fmax(pct, 0), 100) / 100, v->utf8);
	put(y, x + need - (int)strlen(text), right, ROLE_VALUE, text);
	return need;
}

/* A part of text whole at x in a role, or nothing; cells used. */
static int text_part(int y, int x, int right, enum role role, const char *fmt, double v)
{
	char text[64];

	if (isnan(v))
		return 0;
	snprintf(text, sizeof(text), fmt, v);
	return put_whole(y, x, right - x, role, text);
}

/* Row i of the table whose column col names device d (by card name or PCI address), or -1. */
static long device_row(const struct table *t, const char *col, const struct device_snap *d)
{
	for (size_t i = 0; t && i < t->nrows; i++) {
		const char *v = table_str(t, i, col);

		if (!strcmp(v, d->name) || (d->bus_id[0] && pci_same(v, d->bus_id)))
			return (long)i;
	}
	return -1;
}

/* Whether detail_line has anything to say of d. */
static bool has_detail(const struct snapshot *snap, const struct device_snap *d)
{
	static const char *const keys[] = { "mem_busy_pct", "idle_pct", "temp_hotspot_c", "temp_mem_c", "fan_rpm",
					    "mem_mhz" };
	const struct table *e = snapshot_table(snap, "memory.device_engines");
	const struct table *sg = snapshot_table(snap, "sensors.gpus");
	const char *dev = d->bus_id[0] ? d->bus_id : d->driver;
	long s = device_row(sg, "dev", d);

	if (device_row(snapshot_table(snap, "sensors.engines"), "dev", d) >= 0)
		return true;
	for (size_t i = 0; e && i < e->nrows; i++)
		if (!strcmp(table_str(e, i, "dev"), dev))
			return true;
	for (size_t k = 0; s >= 0 && k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!isnan(table_num(sg, (size_t)s, keys[k])))
			return true;
	return device_row(snapshot_table(snap, "nvidia.gpus"), "bus_id", d) >= 0;
}

int devices_rows(const struct view *v)
{
	int rows = devices_count(v) - (v->snap ? (int)v->snap->ndevices : 0);

	for (size_t i = 0; v->snap && i < v->snap->ndevices; i++)
		rows += 1 + has_detail(v->snap, &v->snap->devices[i]);
	return rows;
}

/* A line for a device only the scheduler's rings name: what it is not, and its jobs. */
static void ring_only_line(struct view *v, const char *dev, int y, int right)
{
	char part[64], a[16];
	int x = 1;

	x += putf(y, x, right - x, ROLE_VALUE, "%-8s", dev);
	x += put_whole(y, x, right - x, ROLE_DIM, " (no DRM card: its scheduler's rings)");
	snprintf(part, sizeof(part), "  done/s %s", fmt_rate(ring_jobs(v->snap, dev), a, sizeof(a)));
	put_whole(y, x, right - x, ROLE_LABEL, part);
}

/* The mean busy % of the engines of row i's class on row i's device, from row i on; NAN: none known. */
static double class_busy(const struct table *t, size_t i)
{
	const char *dev = table_str(t, i, "dev"), *cls = table_str(t, i, "class");
	double sum = 0, busy;
	int n = 0;

	for (size_t k = i; k < t->nrows; k++)
		if (!strcmp(table_str(t, k, "dev"), dev) && !strcmp(table_str(t, k, "class"), cls) &&
		    !isnan(busy = table_num(t, k, "busy_pct")))
			sum += busy, n++;
	return n ? sum / n : NAN;
}

/*
 * Engine classes as bars: from the Intel PMUs (sensors.engines, every client's work: the mean of a
 * class's engines) where the device has rows there, else from fdinfo (memory.device_engines).
 */
static int engine_bars(struct view *v, const struct device_snap *d, int y, int x, int right)
{
	const struct table *p = snapshot_table(v->snap, "sensors.engines");
	const struct table *e = snapshot_table(v->snap, "memory.device_engines");
	const char *dev = d->bus_id[0] ? d->bus_id : d->driver;
	int x0 = x;

	if (device_row(p, "dev", d) >= 0)
		for (size_t i = 0; i < p->nrows; i++) {
			bool seen = strcmp(table_str(p, i, "dev"), d->name) != 0;

			for (size_t k = 0; k < i && !seen; k++) /* each class once, where it first comes */
				seen = !strcmp(table_str(p, k, "dev"), d->name) &&
				       !strcmp(table_str(p, k, "class"), table_str(p, i, "class"));
			if (!seen)
				x += bar_part(v, y, x, right, table_str(p, i, "class"), class_busy(p, i));
		}
	else
		for (size_t i = 0; e && i < e->nrows; i++)
			if (!strcmp(table_str(e, i, "dev"), dev))
				x += bar_part(v, y, x, right, table_str(e, i, "class"), table_num(e, i, "busy_pct"));
	return x - x0;
}

/*
 * The expanded block's second line: engine classes as bars (Intel's PMUs, else fdinfo; NVML's
 * memory bandwidth; amdgpu's memory busy), the other temperatures, fan, memory clock, GT idle,
 * what holds the clocks, PCIe and NVLink traffic (has_detail: whether there is any).
 */
static void detail_line(struct view *v, const struct device_snap *d, int y, int right)
{
	const struct table *sg = snapshot_table(v->snap, "sensors.gpus");
	const struct table *nv = snapshot_table(v->snap, "nvidia.gpus");
	const char *deg = v->utf8 ? "°C" : "C";
	long s = device_row(sg, "dev", d), n = device_row(nv, "bus_id", d);
	int x = 10;
	char fmt[48], a[16], b[16];

	x += engine_bars(v, d, y, x, right);
	if (n >= 0) {
		/* its utilisation is the first line's busy: memory bandwidth alone here */
		x += bar_part(v, y, x, right, "membw", table_num(nv, (size_t)n, "mem_util_pct"));
	}
	if (s >= 0) {
		x += bar_part(v, y, x, right, "mem busy", table_num(sg, (size_t)s, "mem_busy_pct"));
		x += text_part(y, x, right, ROLE_VALUE, "  GT idle %.0f%%", table_num(sg, (size_t)s, "idle_pct"));
		snprintf(fmt, sizeof(fmt), "  hotspot %%.0f%s", deg);
		x += text_part(y, x, right, ROLE_VALUE, fmt, table_num(sg, (size_t)s, "temp_hotspot_c"));
		snprintf(fmt, sizeof(fmt), "  mem %%.0f%s", deg);
		x += text_part(y, x, right, ROLE_VALUE, fmt, table_num(sg, (size_t)s, "temp_mem_c"));
		x += text_part(y, x, right, ROLE_VALUE, "  fan %.0fRPM", table_num(sg, (size_t)s, "fan_rpm"));
		x += text_part(y, x, right, ROLE_VALUE, "  mclk %.0fMHz", table_num(sg, (size_t)s, "mem_mhz"));
	}
	if (n >= 0) {
		const char *held = table_str(nv, (size_t)n, "throttle");
		char part[TABLE_STR_MAX + 32];

		x += text_part(y, x, right, ROLE_VALUE, "  fan %.0f%%", table_num(nv, (size_t)n, "fan_pct"));
		x += text_part(y, x, right, ROLE_VALUE, "  mclk %.0fMHz", table_num(nv, (size_t)n, "mem_mhz"));
		if (!isnan(table_num(nv, (size_t)n, "pcie_tx_bytes_per_s")) &&
		    !isnan(table_num(nv, (size_t)n, "pcie_rx_bytes_per_s"))) {
			snprintf(part, sizeof(part), "  PCIe tx %s/s rx %s/s",
				 format_bytes(table_num(nv, (size_t)n, "pcie_tx_bytes_per_s"), a, sizeof(a)),
				 format_bytes(table_num(nv, (size_t)n, "pcie_rx_bytes_per_s"), b, sizeof(b)));
			x += put_whole(y, x, right - x, ROLE_VALUE, part);
		}
		/* only where it has an active link: unknown is left out, never 0 */
		if (!isnan(table_num(nv, (size_t)n, "nvlink_tx_bytes_per_s")) &&
		    !isnan(table_num(nv, (size_t)n, "nvlink_rx_bytes_per_s"))) {
			snprintf(part, sizeof(part), "  NVLink tx %s/s rx %s/s",
				 format_bytes(table_num(nv, (size_t)n, "nvlink_tx_bytes_per_s"), a, sizeof(a)),
				 format_bytes(table_num(nv, (size_t)n, "nvlink_rx_bytes_per_s"), b, sizeof(b)));
			x += put_whole(y, x, right - x, ROLE_VALUE, part);
		}
		if (held[0] && strcmp(held, "none")) {
			snprintf(part, sizeof(part), "  clocks held by %s", held);
			x += put_whole(y, x, right - x, ROLE_WARNING, part);
		}
	}
	(void)x;
}

/*
 * Where the example recordings are: beside the binary where it is installed (PREFIX/share/gputop-bpf/
 * examples, make install's, the package's); else, run from the source tree, an installed copy or the
 * tree's own (examples/).
 */
static const char *examples_dir(void)
{
	static const char *const dirs[] = { "/usr/share/gputop-bpf/examples",
					    "/usr/local/share/gputop-bpf/examples" };
	static char own[256]; /* a longer PREFIX: the fixed places, then the tree's */
	static const char *found;

	if (found)
		return found;
	if (share_dir("examples", own, sizeof(own)))
		return found = own;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!access(dirs[i], R_OK))
			return found = dirs[i];
	return found = "examples";
}

/* A device's line at y, within right: the device, its memory, its sensors, then its work; each part whole. */
static void device_line(struct view *v, const struct device_snap *d, int y, int right_end, int dw, bool expanded)
{
	const struct snapshot *s = v->snap;
	int x = 1, slack = 0, right;
	char part[64], a[16];
	bool cut;

	x += putf(y, x, right_end - x, ROLE_VALUE, "%-8s", d->name);
	x += putf(y, x, right_end - x, ROLE_NORMAL, " %-*.*s %-12s", dw, dw, d->driver[0] ? d->driver : "-", d->bus_id);
	if (!nvml_line(v, d, y, &x, right_end, &slack) && !memory_line(v, d, y, &x, right_end, true, false))
		x += put_whole(y, x, right_end - x, ROLE_DIM, "  (no memory reported)");
	x += sensors_part(v, d, y, x, right_end, slack, &cut);
	right = cut ? x : right_end; /* nothing after a reading left out: it would come and go in its place */
	memory_line(v, d, y, &x, right, false, !expanded);
	/* its work where a collector measures it: no ring or line of it, nothing said (never 0) */
	if (!isnan(ring_jobs(s, d->bus_id))) {
		snprintf(part, sizeof(part), "  done/s %s", fmt_rate(ring_jobs(s, d->bus_id), a, sizeof(a)));
		x += put_whole(y, x, right - x, ROLE_LABEL, part);
	}
	if (!isnan(driver_irqs(s, d->driver))) {
		snprintf(part, sizeof(part), "  IRQ/s %s", fmt_rate(driver_irqs(s, d->driver), a, sizeof(a)));
		put_whole(y, x, right - x, ROLE_LABEL, part);
	}
}

void draw_devices(struct view *v, struct rect r)
{
	const struct snapshot *s = v->snap;
	const struct collector_status *c = snapshot_collector(s, "devices");
	const char *extra[RING_ONLY_MAX];
	char more[32];
	bool expanded;
	int y = r.y, nextra, dw = 6, total, left;

	for (int i = 0; i < r.h; i++)
		fill(r.y + i, r.x, r.w, ROLE_NORMAL);
	if (!s || !s->ndevices) {
		/* no GPU: say so and what to try, the longest telling that fits whole */
		const char *why = c && c->info->reason[0] ? c->info->reason : "no device found";
		const char *dir = examples_dir();
		char text[3][1024];
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
		if (v->feed->replay) /* a recording: what it says, not what to try */
			snprintf(text[0], sizeof(text[0]), "No GPU in the recording's device list: %s.",
				 c ? why : "it has no devices table (the gputop-bpf that made it wrote none)");
		for (k = 0; k < 2 && !v->feed->replay && wrapped_rows(text[k], r.w - 2) > r.h; k++)
			;
		put_wrapped((struct rect){ r.y, 1, r.h, r.w - 2 }, ROLE_WARNING, text[k]);
		return;
	}
	/* the expanded blocks where all of them fit, else a line each; the drivers' column as wide as its longest */
	expanded = !v->brief_devices && r.h >= devices_rows(v);
	for (size_t i = 0; i < s->ndevices; i++)
		if ((int)strlen(s->devices[i].driver) > dw)
			dw = strlen(s->devices[i].driver) > 16 ? 16 : (int)strlen(s->devices[i].driver);
	nextra = ring_only_devices(s, extra);
	/* a line each while they last; where not all fit, the last row's right end says how many more */
	total = (int)s->ndevices + nextra;
	left = expanded || total <= r.h ? 0 : total - r.h;
	snprintf(more, sizeof(more), " +%d more", left);
	for (size_t i = 0; i < s->ndevices && y < r.y + r.h; i++, y++) {
		int rw = left && y == r.y + r.h - 1 ? r.w - (int)strlen(more) : r.w;

		if (expanded && has_detail(s, &s->devices[i]))
			detail_line(v, &s->devices[i], y + 1, r.w);
		device_line(v, &s->devices[i], y, rw, dw, expanded);
		if (expanded && has_detail(s, &s->devices[i]))
			y++;
	}
	for (int i = 0; i < nextra && y < r.y + r.h; i++, y++)
		ring_only_line(v, extra[i], y, left && y == r.y + r.h - 1 ? r.w - (int)strlen(more) : r.w);
	if (left)
		put(r.y + r.h - 1, r.w - (int)strlen(more), (int)strlen(more), ROLE_DIM, more);
}

/* A declared pane's summary: a few columns of its table, the first history as a sparkline. */
