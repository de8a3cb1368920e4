// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>
#include "core/version.h"
#include "output/metrics.h"

#define PREFIX "gputop_"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Appends src to dst (size bytes), '.' and anything not [a-zA-Z0-9_] as '_'. */
static void append_name(char *dst, size_t size, const char *src, size_t len)
{
	size_t n = strlen(dst);

	for (size_t i = 0; i < len && src[i] && n + 1 < size; i++) {
		char c = src[i];

		dst[n++] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9')) ?
				   c :
				   '_';
	}
	dst[n] = 0;
}

/* stem without suffix when it ends in it; returns the length kept. */
static size_t strip(const char *stem, const char *suffix)
{
	size_t n = strlen(stem);

	return ends_with(stem, suffix) ? n - strlen(suffix) : n;
}

/* Each unit: our own spelling at the end of a key, the base unit's suffix, the factor to it. */
static const struct {
	enum col_unit unit;
	const char *in_key, *suffix;
	double scale;
} units[] = {
	{ UNIT_NS, "_ns", "_seconds", 1e-9 },
	{ UNIT_BYTES, "_bytes", "_bytes", 1 },
	{ UNIT_BYTES_PER_S, "_bytes", "_bytes", 1 }, /* a rate: named as bytes, as rates of counts are */
	{ UNIT_PCT, "_pct", "_ratio", 0.01 },
	{ UNIT_HZ, "_hz", "_hertz", 1 },
	{ UNIT_CELSIUS, "_c", "_celsius", 1 },
	{ UNIT_WATTS, "_w", "_watts", 1 },
	{ UNIT_MHZ, "_mhz", "_hertz", 1e6 },
	{ UNIT_RPM, "_rpm", "_rpm", 1 },
};

static int unit_index(enum col_unit u)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (units[i].unit == u)
			return (int)i;
	return -1;
}

static const char *unit_suffix(enum col_unit u)
{
	return unit_index(u) < 0 ? "" : units[unit_index(u)].suffix;
}

static double unit_scale(enum col_unit u)
{
	return unit_index(u) < 0 ? 1.0 : units[unit_index(u)].scale;
}

static const char *unit_in_key(enum col_unit u)
{
	return unit_index(u) < 0 ? "" : units[unit_index(u)].in_key;
}

/* gputop_<table>_<stem><unit>: the stem's own unit spelling replaced by the base unit's. */
static void family_name(const struct table_desc *t, const char *stem, size_t len, enum col_unit u,
			char *out, size_t size)
{
	char s[METRICS_NAME_MAX] = "";
	const char *own = unit_in_key(u);

	append_name(s, sizeof(s), stem, len);
	if (*own && ends_with(s, own))
		s[strlen(s) - strlen(own)] = 0;
	else if (*own && !strncmp(s, own + 1, strlen(own) - 1) && s[strlen(own) - 1] == '_')
		memmove(s, s + strlen(own), strlen(s + strlen(own)) + 1); /* ns_per_event */
	snprintf(out, size, PREFIX);
	append_name(out, size, t->name, SIZE_MAX);
	if (!strcmp(s, own + (*own ? 1 : 0)))
		*s = 0; /* the key is the unit alone: "ns_total" */
	if (*s)
		append_name(out, size, "_", 1);
	append_name(out, size, s, SIZE_MAX);
	append_name(out, size, unit_suffix(u), SIZE_MAX);
}

/* A label naming a process or its container: another user's may be private. */
static bool private_label(const struct col_desc *c)
{
	return !strcmp(c->key, "comm") || !strcmp(c->key, "cgroup");
}

int metrics_label_name(const struct table_desc *t, unsigned int col, char *name, size_t size)
{
	const struct col_desc *c = &t->cols[col];
	const char *what;

	if (!(c->flags & COL_KEY) && !private_label(c))
		return -1;
	if (c->type != COL_STR && c->type != COL_U64)
		return -1;
	*name = 0;
	if (!strcmp(c->key, "cgroup")) {
		append_name(name, size, "container", SIZE_MAX);
	} else if (!strcmp(c->key, "dev")) {
		append_name(name, size, "device", SIZE_MAX);
	} else if (!strcmp(c->key, "name")) { /* what the table lists, singular: rings -> ring */
		what = strrchr(t->name, '.');
		what = what ? what + 1 : t->name;
		append_name(name, size, what,
			    ends_with(what, "sses") ? strlen(what) - 2 :
			    ends_with(what, "s")    ? strlen(what) - 1 :
						      strlen(what));
	} else {
		append_name(name, size, c->key, SIZE_MAX);
	}
	return 0;
}

/* Whether the column is a rate: "<stem>_per_s" or "per_s", or in UNIT_PER_S. */
static bool is_rate(const struct col_desc *c)
{
	return c->unit == UNIT_PER_S || ends_with(c->key, "_per_s") || !strcmp(c->key, "per_s");
}

/* The rate's stem: "jobs_per_s" -> "jobs", "per_s" -> "". */
static size_t rate_stem(const char *key)
{
	return !strcmp(key, "per_s") ? 0 : strip(key, "_per_s");
}

/* Whether t has the counter "<stem>_total" (or "total") the rate comes from. */
static bool has_total_for_rate(const struct table_desc *t, const char *rate_key)
{
	char total[METRICS_NAME_MAX];
	size_t n = rate_stem(rate_key);

	snprintf(total, sizeof(total), "%.*s%stotal", (int)n, rate_key, n ? "_" : "");
	return table_col(t, total) >= 0;
}

int metrics_column(const struct table_desc *t, unsigned int col, struct metric_column *out)
{
	const struct col_desc *c = &t->cols[col];
	const char *dot = strchr(c->key, '.');
	char stem[METRICS_NAME_MAX];

	if (c->type == COL_STR || !metrics_label_name(t, col, stem, sizeof(stem)))
		return -1;
	out->scale = unit_scale(c->unit);
	if (c->type == COL_HIST) { /* exec_hist_total -> exec_seconds */
		size_t n = strip(c->key, "_total");

		snprintf(stem, sizeof(stem), "%.*s", (int)n, c->key);
		out->kind = METRIC_HISTOGRAM;
		family_name(t, stem, strip(stem, "_hist"), c->unit, out->family, sizeof(out->family));
		return 0;
	}
	if (dot) { /* wait_ns.p50 -> wait_p50_seconds; since-start summaries have histograms */
		char base[METRICS_NAME_MAX];

		snprintf(base, sizeof(base), "%.*s", (int)(dot - c->key), c->key);
		if (ends_with(base, "_total") || !strcmp(dot + 1, "count"))
			return -1;
		snprintf(stem, sizeof(stem), "%.*s_%s", (int)strip(base, unit_in_key(c->unit)), base,
			 dot + 1);
		out->kind = METRIC_GAUGE;
		family_name(t, stem, SIZE_MAX, c->unit, out->family, sizeof(out->family));
		return 0;
	}
	if (ends_with(c->key, "_total") || !strcmp(c->key, "total") || (c->flags & COL_CUMULATIVE)) {
		out->kind = METRIC_COUNTER;
		family_name(t, c->key, !strcmp(c->key, "total") ? 0 : strip(c->key, "_total"),
			    c->unit, out->family, sizeof(out->family));
		return 0;
	}
	out->kind = METRIC_GAUGE;
	if (is_rate(c)) { /* rate() of the counter says it; else the rate as a gauge */
		size_t n = rate_stem(c->key);

		if (has_total_for_rate(t, c->key))
			return -1;
		snprintf(stem, sizeof(stem), "%.*s%sper_second", (int)n, c->key, n ? "_" : "");
		out->scale = 1;
		family_name(t, stem, SIZE_MAX, UNIT_NONE, out->family, sizeof(out->family));
		return 0;
	}
	family_name(t, c->key, SIZE_MAX, c->unit, out->family, sizeof(out->family));
	return 0;
}

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 :
		(s[0] & 0xf8) == 0xf0 ? 4 : 0;

	if (n == 2 && s[0] < 0xc2)
		return 0; /* overlong */
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0; /* overlong, surrogate */
	if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || s[0] > 0xf4 || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return n;
}

void metrics_escape_label(const char *in, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	while (*s) {
		char esc[4] = "";
		int n = utf8_len(s);

		if (*s == '\\' || *s == '"')
			snprintf(esc, sizeof(esc), "\\%c", *s);
		else if (*s == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else if (!n || *s < 0x20 || *s == 0x7f || (s[0] == 0xc2 && s[1] < 0xa0))
			snprintf(esc, sizeof(esc), "?"); /* C0, DEL, C1, invalid */
		if (*esc) {
			size_t l = strlen(esc);

			if (o + l >= size)
				break;
			memcpy(out + o, esc, l);
			o += l;
			s += n ? n : 1;
			continue;
		}
		if (o + (size_t)n >= size)
			break;
		memcpy(out + o, s, (size_t)n);
		o += (size_t)n;
		s += n;
	}
	out[o] = 0;
}

void metrics_histogram_buckets(const struct histogram *h, uint64_t le_ns[METRICS_BUCKETS],
			       uint64_t cum[METRICS_BUCKETS])
{
	uint64_t below = 0;
	unsigned int slot = 0;

	for (unsigned int b = 0; b < METRICS_BUCKETS; b++) {
		le_ns[b] = 1ULL << (METRICS_LE_LOG2_MIN + b);
		/* the slots are [low, high): every slot whose high is at most le lies below it */
		while (slot < HIST_SLOTS - 1 && histogram_slot_high(slot) <= le_ns[b])
			below += h->slots[slot++];
		cum[b] = below;
	}
}

const char *metrics_ns_as_seconds(uint64_t ns, char *buf, size_t size)
{
	char frac[16];
	int n;

	snprintf(frac, sizeof(frac), "%09" PRIu64, (uint64_t)(ns % 1000000000ULL));
	n = (int)strlen(frac);
	while (n > 0 && frac[n - 1] == '0')
		n--;
	if (n)
		snprintf(buf, size, "%" PRIu64 ".%.*s", (uint64_t)(ns / 1000000000ULL), n, frac);
	else
		snprintf(buf, size, "%" PRIu64, (uint64_t)(ns / 1000000000ULL));
	return buf;
}

/* A sample value: whole numbers as such, else 15 significant digits; non-finite as the formats spell it. */
static void print_value(FILE *out, double v)
{
	if (isnan(v))
		fputs("NaN", out);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", out);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(out, "%.0f", v);
	else
		fprintf(out, "%.15g", v);
}

/* HELP text: '\\' and newline escaped (and '"' in OpenMetrics). */
static void print_help(FILE *out, enum metrics_format f, const char *family, const char *help)
{
	fprintf(out, "# HELP %s ", family);
	for (const char *p = help; *p; p++) {
		if (*p == '"' && f == METRICS_OPENMETRICS) /* OpenMetrics escapes it; the text format must not */
			fputs("\\\"", out);
		else if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	}
	fputc('\n', out);
}

static void print_meta(FILE *out, enum metrics_format f, const char *family, enum metric_kind k,
		       const char *help)
{
	static const char *const types[] = { "gauge", "counter", "histogram" };
	char name[METRICS_NAME_MAX + 8];

	/* the text format names a counter's family with its _total; OpenMetrics without */
	snprintf(name, sizeof(name), "%s%s", family,
		 k == METRIC_COUNTER && f == METRICS_TEXT ? "_total" : "");
	print_help(out, f, name, help);
	fprintf(out, "# TYPE %s %s\n", name, types[k]);
}

static int proc_owner(uint32_t pid, uint32_t *uid)
{
	char path[32];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%u", pid);
	if (stat(path, &st))
		return -1;
	*uid = st.st_uid;
	return 0;
}

/* Whether the row's process names may be exported: always, or it is the viewer's. */
static bool names_shown(const struct table *t, size_t row, const struct metrics_export *x)
{
	int col = table_col(t->desc, "pid");
	const struct cell *pid;
	uint32_t uid;

	if (!x || !x->private_names)
		return true;
	if (col < 0 || !(pid = table_cell(t, row, (unsigned int)col))->known || pid->u > UINT32_MAX)
		return false;
	if ((x->owner ? x->owner : proc_owner)((uint32_t)pid->u, &uid))
		return false;
	return uid == x->viewer_uid;
}

/* Whether a row must be left out whole: a private label is its key and may not show. */
static bool row_hidden(const struct table *t, size_t row, const struct metrics_export *x)
{
	for (unsigned int c = 0; c < t->desc->ncols; c++)
		if ((t->desc->cols[c].flags & COL_KEY) && private_label(&t->desc->cols[c]))
			return !names_shown(t, row, x);
	return false;
}

/*
 * A row's labels, "{a=\"x\",b=\"y\"" without the closing brace (le may follow); malloc'd.
 * Its comm and container only where names_shown.
 */
static char *row_labels(const struct table *t, size_t row, const struct metrics_export *x)
{
	const struct table_desc *d = t->desc;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	bool first = true, names = names_shown(t, row, x);

	if (!f)
		return NULL;
	fputc('{', f);
	for (unsigned int c = 0; c < d->ncols; c++) {
		const struct cell *cell = table_cell(t, row, c);
		char name[METRICS_NAME_MAX], value[METRICS_LABEL_MAX], raw[32];

		if (metrics_label_name(d, c, name, sizeof(name)) || !cell->known ||
		    (!names && private_label(&d->cols[c])))
			continue;
		if (d->cols[c].type == COL_STR) {
			metrics_escape_label(cell->s, value, sizeof(value));
		} else {
			snprintf(raw, sizeof(raw), "%" PRIu64, cell->u);
			metrics_escape_label(raw, value, sizeof(value));
		}
		fprintf(f, "%s%s=\"%s\"", first ? "" : ",", name, value);
		first = false;
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void print_sample(FILE *out, const char *family, const char *suffix, const char *labels,
			 const char *extra, double v)
{
	bool any = strcmp(labels, "{") || *extra;

	fprintf(out, "%s%s", family, suffix);
	if (any)
		fprintf(out, "%s%s%s}", labels, strcmp(labels, "{") && *extra ? "," : "", extra);
	fputc(' ', out);
	print_value(out, v);
	fputc('\n', out);
}

/* The histogram's sum: mean x count of its sibling summary ("<stem>_ns_total.mean"), else midpoints. */
static double histogram_sum_s(const struct table *t, size_t row, const struct col_desc *c,
			      const struct histogram *h)
{
	char key[METRICS_NAME_MAX];
	double mean, count, sum = 0;

	snprintf(key, sizeof(key), "%.*s_ns_total.mean", (int)strip(c->key, "_hist_total"), c->key);
	mean = table_num(t, row, key);
	key[strlen(key) - strlen("mean")] = 0;
	strcat(key, "count");
	count = table_num(t, row, key);
	if (isfinite(mean) && isfinite(count) && count == (double)histogram_count(h))
		return mean * count * 1e-9;
	for (unsigned int i = 0; i < HIST_SLOTS; i++)
		sum += (double)h->slots[i] *
		       ((double)histogram_slot_low(i) + (double)histogram_slot_high(i)) / 2;
	return sum * 1e-9;
}

static void print_histogram(FILE *out, const struct table *t, size_t row, unsigned int col,
			    const char *family, const char *labels)
{
	const struct cell *cell = table_cell(t, row, col);
	uint64_t le_ns[METRICS_BUCKETS], cum[METRICS_BUCKETS];
	char le[64], secs[32];

	metrics_histogram_buckets(cell->h, le_ns, cum);
	for (unsigned int b = 0; b < METRICS_BUCKETS; b++) {
		snprintf(le, sizeof(le), "le=\"%s\"", metrics_ns_as_seconds(le_ns[b], secs, sizeof(secs)));
		print_sample(out, family, "_bucket", labels, le, (double)cum[b]);
	}
	print_sample(out, family, "_bucket", labels, "le=\"+Inf\"", (double)histogram_count(cell->h));
	print_sample(out, family, "_sum", labels, "",
		     histogram_sum_s(t, row, &t->desc->cols[col], cell->h));
	print_sample(out, family, "_count", labels, "", (double)histogram_count(cell->h));
}

/* The rows exported: the busiest max_rows, by the table's default sort. */
static size_t rows_kept(const struct table *t, const struct metrics_export *d)
{
	return d && d->max_rows && t->nrows > d->max_rows ? d->max_rows : t->nrows;
}

/* A table keyed by long text (a call stack): no label could hold it whole, so rows would merge. */
static bool long_keyed(const struct table_desc *d)
{
	for (unsigned int c = 0; c < d->ncols; c++)
		if ((d->cols[c].flags & COL_KEY) && (d->cols[c].flags & COL_LONG))
			return true;
	return false;
}

static int write_table(FILE *out, const struct table *t, enum metrics_format f,
		       const struct metrics_export *d)
{
	const struct table_desc *desc = t->desc;
	size_t keep = rows_kept(t, d), *order, done = 0;
	char **labels;
	int err = -1;

	if (!t->nrows || long_keyed(desc)) /* nvidia.stacks, drm_sched.stacks: JSON and recordings only */
		return 0;
	order = calloc(t->nrows, sizeof(*order));
	labels = calloc(keep, sizeof(*labels));
	if (!order || !labels)
		goto out;
	table_sort(t, desc->sort_col, false, order);
	if (d && d->private_names) { /* rows that cannot show without their private key go */
		size_t w = 0;

		for (size_t i = 0; i < t->nrows; i++)
			if (!row_hidden(t, order[i], d))
				order[w++] = order[i];
		keep = keep < w ? keep : w;
	}
	for (; done < keep; done++)
		if (!(labels[done] = row_labels(t, order[done], d)))
			goto out;
	for (unsigned int c = 0; c < desc->ncols; c++) {
		struct metric_column m;
		bool meta = false;

		if (metrics_column(desc, c, &m))
			continue;
		for (size_t i = 0; i < keep; i++) {
			const struct cell *cell = table_cell(t, order[i], c);
			double v;

			if (!cell->known)
				continue;
			if (!meta) {
				print_meta(out, f, m.family, m.kind, desc->cols[c].help);
				meta = true;
			}
			if (m.kind == METRIC_HISTOGRAM) {
				print_histogram(out, t, order[i], c, m.family, labels[i]);
				continue;
			}
			v = desc->cols[c].type == COL_F64 ? cell->f : (double)cell->u;
			print_sample(out, m.family, m.kind == METRIC_COUNTER ? "_total" : "", labels[i],
				     "", v * m.scale);
		}
	}
	err = 0;
out:
	for (size_t i = 0; labels && i < done; i++)
		free(labels[i]);
	free(order);
	free(labels);
	return err;
}

static size_t registry_index(const struct table_desc *desc)
{
	size_t n;
	const struct table_desc *const *reg = table_registry(&n);

	for (size_t i = 0; i < n; i++)
		if (reg[i] == desc)
			return i;
	return SIZE_MAX;
}

int metrics_count_drops(const struct snapshot *s, struct metrics_export *d)
{
	if (!d->dropped) {
		table_registry(&d->ntables);
		d->dropped = calloc(d->ntables ? d->ntables : 1, sizeof(*d->dropped));
		if (!d->dropped)
			return -1;
	}
	for (size_t i = 0; i < s->ntables; i++) {
		size_t idx = registry_index(s->tables[i]->desc);

		if (idx < d->ntables && !long_keyed(s->tables[i]->desc))
			d->dropped[idx] += s->tables[i]->nrows - rows_kept(s->tables[i], d);
	}
	return 0;
}

void metrics_export_free(struct metrics_export *d)
{
	free(d->dropped);
	d->dropped = NULL;
}

static void write_self(FILE *out, const struct snapshot *s, enum metrics_format f,
		       const struct metrics_export *d)
{
	static const enum collector_state states[] = { COLLECTOR_ATTACHED, COLLECTOR_UNAVAILABLE,
						       COLLECTOR_FAILED };
	char a[METRICS_LABEL_MAX], b[METRICS_LABEL_MAX], c[METRICS_LABEL_MAX], l[4 * METRICS_LABEL_MAX];
	size_t n;
	const struct table_desc *const *reg = table_registry(&n);

	print_meta(out, f, PREFIX "build_info", METRIC_GAUGE, "gputop-bpf's version (always 1)");
	print_sample(out, PREFIX "build_info", "", "{version=\"" GPUTOP_VERSION "\"", "", 1);
	print_meta(out, f, PREFIX "snapshots", METRIC_COUNTER, "snapshots taken since the monitor started");
	print_sample(out, PREFIX "snapshots", "_total", "{", "", (double)s->seq);
	print_meta(out, f, PREFIX "snapshot_timestamp_seconds", METRIC_GAUGE,
		   "when the snapshot served was taken (Unix time)");
	print_sample(out, PREFIX "snapshot_timestamp_seconds", "", "{", "",
		     (double)s->wall.tv_sec + (double)s->wall.tv_nsec * 1e-9);
	print_meta(out, f, PREFIX "snapshot_interval_seconds", METRIC_GAUGE,
		   "length of the interval the snapshot's rates and interval statistics cover");
	print_sample(out, PREFIX "snapshot_interval_seconds", "", "{", "", s->interval_s);
	print_meta(out, f, PREFIX "collector_up", METRIC_GAUGE,
		   "1 when the collector is attached and its data live, else 0");
	for (size_t i = 0; i < s->ncollectors; i++) {
		metrics_escape_label(s->collectors[i].info->name, a, sizeof(a));
		snprintf(l, sizeof(l), "{collector=\"%s\"", a);
		print_sample(out, PREFIX "collector_up", "", l, "",
			     s->collectors[i].info->state == COLLECTOR_ATTACHED);
	}
	print_meta(out, f, PREFIX "collector_state", METRIC_GAUGE,
		   "the collector's state: attached, unavailable (its sources do not exist here) or failed; 1 for the current one");
	for (size_t i = 0; i < s->ncollectors; i++) {
		metrics_escape_label(s->collectors[i].info->name, a, sizeof(a));
		for (size_t k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
			snprintf(l, sizeof(l), "{collector=\"%s\",state=\"%s\"", a,
				 collector_state_name(states[k]));
			print_sample(out, PREFIX "collector_state", "", l, "",
				     s->collectors[i].info->state == states[k]);
		}
	}
	print_meta(out, f, PREFIX "collector_lost_events", METRIC_COUNTER,
		   "events the collector lost, by kind, since the monitor started");
	for (size_t i = 0; i < s->ncollectors; i++) {
		metrics_escape_label(s->collectors[i].info->name, a, sizeof(a));
		for (size_t k = 0; k < s->collectors[i].ndrops; k++) {
			metrics_escape_label(s->collectors[i].drops[k].name, b, sizeof(b));
			snprintf(l, sizeof(l), "{collector=\"%s\",kind=\"%s\"", a, b);
			print_sample(out, PREFIX "collector_lost_events", "_total", l, "",
				     (double)s->collectors[i].drops[k].count);
		}
	}
	if (s->ndevices)
		print_meta(out, f, PREFIX "device_info", METRIC_GAUGE,
			   "a GPU or display device and its driver (always 1)");
	for (size_t i = 0; i < s->ndevices; i++) {
		metrics_escape_label(s->devices[i].name, a, sizeof(a));
		metrics_escape_label(s->devices[i].driver, b, sizeof(b));
		metrics_escape_label(s->devices[i].bus_id, c, sizeof(c));
		snprintf(l, sizeof(l), "{device=\"%s\",driver=\"%s\",bus_id=\"%s\"", a, b, c);
		print_sample(out, PREFIX "device_info", "", l, "", 1);
	}
	if (!d || !d->dropped)
		return;
	print_meta(out, f, PREFIX "exporter_max_rows", METRIC_GAUGE,
		   "rows exported per table at most (--metrics-max-rows); the busiest are kept");
	print_sample(out, PREFIX "exporter_max_rows", "", "{", "", (double)d->max_rows);
	print_meta(out, f, PREFIX "exporter_rows_dropped", METRIC_COUNTER,
		   "rows left out because their table had more than the cap, summed over snapshots");
	for (size_t i = 0; i < d->ntables && i < n; i++) {
		metrics_escape_label(reg[i]->name, a, sizeof(a));
		snprintf(l, sizeof(l), "{table=\"%s\"", a);
		print_sample(out, PREFIX "exporter_rows_dropped", "_total", l, "", (double)d->dropped[i]);
	}
}

int metrics_write(FILE *out, const struct snapshot *s, enum metrics_format f,
		  const struct metrics_export *d)
{
	write_self(out, s, f, d);
	for (size_t i = 0; i < s->ntables; i++)
		if (write_table(out, s->tables[i], f, d))
			return -1;
	if (f == METRICS_OPENMETRICS)
		fputs("# EOF\n", out);
	return ferror(out) ? -1 : 0;
}

/* The q of one media range's parameters ("version=1.0.0;q=0.5"): 1 when not given. */
static double range_q(const char *params, size_t len)
{
	for (size_t i = 0; i + 2 <= len; i++) {
		if ((i == 0 || params[i - 1] == ';' || params[i - 1] == ' ') &&
		    (params[i] == 'q' || params[i] == 'Q') && params[i + 1] == '=') {
			char num[16];
			size_t n = 0;
			double q;

			for (size_t k = i + 2; k < len && n + 1 < sizeof(num) && params[k] != ';'; k++)
				num[n++] = params[k];
			num[n] = 0;
			q = strtod(num, NULL);
			return isfinite(q) && q >= 0 && q <= 1 ? q : 0;
		}
	}
	return 1;
}

enum metrics_format metrics_negotiate(const char *accept)
{
	double om = 0, text = 0;

	while (accept && *accept) {
		size_t len = strcspn(accept, ","), type_len;
		const char *type = accept, *semi;
		double q;

		while (len && (*type == ' ' || *type == '\t')) {
			type++;
			len--;
		}
		semi = memchr(type, ';', len);
		type_len = semi ? (size_t)(semi - type) : len;
		while (type_len && (type[type_len - 1] == ' ' || type[type_len - 1] == '\t'))
			type_len--;
		q = semi ? range_q(semi + 1, len - (size_t)(semi + 1 - type)) : 1;
#define IS(t) (type_len == strlen(t) && !strncasecmp(type, t, type_len))
		if (IS("application/openmetrics-text"))
			om = q > om ? q : om;
		else if (IS("text/plain") || IS("text/*") || IS("*/*"))
			text = q > text ? q : text;
#undef IS
		accept = type + len;
		if (*accept == ',')
			accept++;
	}
	return om > 0 && om >= text ? METRICS_OPENMETRICS : METRICS_TEXT;
}
