// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/svg.h"
#include "symbols/flame_svg.h"

#define WIDTH 1200.0
#define ROW 16 /* px a frame's row */
#define TOP 40 /* px above the tallest stack: the title */
#define CHAR_PX 7.2 /* a 12 px monospace character's advance */
#define DEPTH_MAX 1024 /* frames of a line beyond this are counted in the frame above */

/* A frame under its caller: node 0 is the root of every stack ("all"). */
struct node {
	char *name;
	uint64_t weight;
	size_t child, next; /* first callee and next sibling, 0: none */
};

struct flame {
	struct node *nodes;
	size_t n, cap;
	unsigned int depth; /* of the tallest stack, the root 0 */
};

/* The callee of parent named name[0..len), made when new; parent itself when no room is left. */
static size_t callee(struct flame *f, size_t parent, const char *name, size_t len)
{
	struct node *n;
	char *copy;
	size_t i;

	for (i = f->nodes[parent].child; i; i = f->nodes[i].next)
		if (strlen(f->nodes[i].name) == len && !memcmp(f->nodes[i].name, name, len))
			return i;
	if (f->n >= FLAME_NODES_MAX || !(copy = strndup(name, len)))
		return parent;
	n = array_push(&f->nodes, &f->n, &f->cap, sizeof(*n));
	if (!n) {
		free(copy);
		return parent;
	}
	i = f->n - 1;
	*n = (struct node){ .name = copy, .next = f->nodes[parent].child };
	f->nodes[parent].child = i; /* newest first */
	return i;
}

/* One line, "a;b;c weight" (root first): its weight added along its path. false: not such a line. */
static bool add_line(struct flame *f, char *line)
{
	char *space = strrchr(line, ' '), *end, *frame = line;
	unsigned long long w;
	unsigned int d = 0;
	size_t at = 0;

	if (!space || space == line)
		return false;
	errno = 0;
	w = strtoull(space + 1, &end, 10);
	if (errno || end == space + 1 || (*end && *end != '\n') || !w)
		return false;
	*space = '\0';
	f->nodes[0].weight += w;
	while (frame) {
		char *semi = strchr(frame, ';');
		size_t len = semi ? (size_t)(semi - frame) : strlen(frame), next;

		if (d < DEPTH_MAX && (next = callee(f, at, frame, len)) != at) {
			at = next;
			f->nodes[at].weight += w;
			if (++d > f->depth)
				f->depth = d;
		}
		frame = semi ? semi + 1 : NULL;
	}
	return true;
}

/* A warm colour from the frame's name: the same frame the same colour everywhere. */
static void colour(const char *name, unsigned int rgb[3])
{
	uint32_t h = svg_name_hash(name);

	rgb[0] = 205 + h % 50;
	rgb[1] = 80 + (h >> 8) % 130;
	rgb[2] = 30 + (h >> 16) % 50;
}

static void draw(FILE *out, const struct flame *f, size_t i, double x, unsigned int d, double height, const char *unit)
{
	const struct node *n = &f->nodes[i];
	double w = WIDTH * (double)n->weight / (double)f->nodes[0].weight, y = height - ROW * (d + 1.0);
	size_t fits = (size_t)((w - 6) / CHAR_PX);
	unsigned int rgb[3];

	if (w < 0.1)
		return;
	colour(n->name, rgb);
	fputs("<g><title>", out);
	svg_put_text(out, n->name, SIZE_MAX / 2);
	fprintf(out, " (%" PRIu64 " ", n->weight);
	svg_put_text(out, unit, 64);
	fprintf(out,
		", %.2f%%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		"fill=\"rgb(%u,%u,%u)\" rx=\"2\"/>",
		100.0 * (double)n->weight / (double)f->nodes[0].weight, x, y, w, ROW - 1, rgb[0], rgb[1], rgb[2]);
	if (fits >= 3) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + ROW - 4);
		svg_put_text(out, n->name, fits);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
	for (size_t c = n->child; c; c = f->nodes[c].next) {
		draw(out, f, c, x, d + 1, height, unit);
		x += WIDTH * (double)f->nodes[c].weight / (double)f->nodes[0].weight;
	}
}

static void write_svg(FILE *out, const struct flame *f, const char *title, const char *unit)
{
	double height = TOP + ROW * (f->depth + 1.0) + 8;

	svg_begin(out, WIDTH, height, 12, 16, 24);
	svg_put_text(out, title, 160);
	fprintf(out, " (%" PRIu64 " in all)</text>\n", f->nodes[0].weight);
	if (f->nodes[0].weight)
		draw(out, f, 0, 0, 0, height - 8, unit);
	fputs("</svg>\n", out);
}

int flame_svg_write(FILE *in, FILE *out, const char *title, const char *unit)
{
	struct flame f = { 0 };
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	if (!array_push(&f.nodes, &f.n, &f.cap, sizeof(*f.nodes)))
		return -ENOMEM;
	f.nodes[0] = (struct node){ .name = strdup("all") };
	if (!f.nodes[0].name)
		err = -ENOMEM;
	while (!err && getline(&line, &cap, in) > 0)
		add_line(&f, line);
	if (!err && ferror(in))
		err = -EIO;
	if (!err) {
		write_svg(out, &f, title, unit);
		if (fflush(out) || ferror(out))
			err = -EIO;
	}
	for (size_t i = 0; i < f.n; i++)
		free(f.nodes[i].name);
	free(f.nodes);
	free(line);
	return err;
}
