// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A display client of known behaviour, for the VM tests of the display collector.
 *
 * DEVICE is a path (/dev/dri/card1) or a driver name (vkms: its first card).
 *
 *   vblank-client flip DEVICE FRAMES SKIP_EVERY
 *     Sets the first connected connector's first mode, then page-flips with
 *     DRM_MODE_PAGE_FLIP_EVENT every vblank for FRAMES flips; after every
 *     SKIP_EVERY-th flip it first waits one vblank without an event (a blocking
 *     DRM_IOCTL_WAIT_VBLANK), so the next flip lands one vblank late: a missed
 *     frame made on purpose.
 *   vblank-client wait DEVICE COUNT
 *     COUNT vblank waits with _DRM_VBLANK_EVENT (queued, then delivered).
 *
 * Prints what it saw, from the sequence numbers in the events themselves:
 *   device=card1 crtc_index=0 pid=123 events=300 deliberate=5 missed=5
 * "missed" counts every vblank between consecutive events beyond the first,
 * deliberate or not (a slow machine misses more than asked), from the fourth
 * event on (before that no cadence is known).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

struct state {
	unsigned int events;
	unsigned int last_seq;
	unsigned int missed;
	int pending;
};

static void on_event(int fd, unsigned int seq, unsigned int sec, unsigned int usec, void *data)
{
	struct state *st = data;

	(void)fd, (void)sec, (void)usec;
	/* From the fourth event on: a cadence needs two equal steps to be known. */
	if (st->events >= 3 && seq > st->last_seq + 1)
		st->missed += seq - st->last_seq - 1;
	st->last_seq = seq;
	st->events++;
	st->pending = 0;
}

static int wait_event(int fd, struct state *st)
{
	drmEventContext ev = { .version = 2, .vblank_handler = on_event,
			       .page_flip_handler = on_event };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (st->pending) {
		int n = poll(&pfd, 1, 2000);

		if (n <= 0) {
			fprintf(stderr, "vblank-client: no event within 2 s\n");
			return -1;
		}
		if (drmHandleEvent(fd, &ev))
			return -1;
	}
	return 0;
}

struct output {
	uint32_t crtc_id, conn_id;
	int crtc_index;
	drmModeModeInfo mode;
};

static int find_output(int fd, struct output *out)
{
	drmModeRes *res = drmModeGetResources(fd);

	if (!res)
		return -1;
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *conn = drmModeGetConnector(fd, res->connectors[i]);
		drmModeEncoder *enc;

		if (!conn)
			continue;
		if (conn->connection != DRM_MODE_CONNECTED || !conn->count_modes ||
		    !conn->count_encoders) {
			drmModeFreeConnector(conn);
			continue;
		}
		enc = drmModeGetEncoder(fd, conn->encoders[0]);
		for (int c = 0; enc && c < res->count_crtcs; c++) {
			if (!(enc->possible_crtcs & (1u << c)))
				continue;
			out->crtc_id = res->crtcs[c];
			out->crtc_index = c;
			out->conn_id = conn->connector_id;
			out->mode = conn->modes[0];
			drmModeFreeEncoder(enc);
			drmModeFreeConnector(conn);
			drmModeFreeResources(res);
			return 0;
		}
		drmModeFreeEncoder(enc);
		drmModeFreeConnector(conn);
	}
	drmModeFreeResources(res);
	return -1;
}

static int make_fb(int fd, const drmModeModeInfo *mode, uint32_t *fb)
{
	uint32_t handle, pitch;
	uint64_t size;

	if (drmModeCreateDumbBuffer(fd, mode->hdisplay, mode->vdisplay, 32, 0, &handle, &pitch,
				    &size))
		return -1;
	return drmModeAddFB(fd, mode->hdisplay, mode->vdisplay, 24, 32, pitch, handle, fb);
}

/* Blocks until the next vblank of the CRTC, without an event. */
static int skip_vblank(int fd, int crtc_index)
{
	drmVBlank vbl = { 0 };

	vbl.request.type = DRM_VBLANK_RELATIVE |
			   ((crtc_index << DRM_VBLANK_HIGH_CRTC_SHIFT) & DRM_VBLANK_HIGH_CRTC_MASK);
	vbl.request.sequence = 1;
	return drmWaitVBlank(fd, &vbl);
}

static int flip(int fd, const struct output *o, unsigned int frames, unsigned int skip_every,
		unsigned int *deliberate, struct state *st)
{
	uint32_t fb[2];

	if (make_fb(fd, &o->mode, &fb[0]) || make_fb(fd, &o->mode, &fb[1])) {
		fprintf(stderr, "vblank-client: cannot make framebuffers: %s\n", strerror(errno));
		return -1;
	}
	if (drmModeSetCrtc(fd, o->crtc_id, fb[0], 0, 0, (uint32_t *)&o->conn_id, 1,
			   (drmModeModeInfo *)&o->mode)) {
		fprintf(stderr, "vblank-client: cannot set the mode: %s\n", strerror(errno));
		return -1;
	}
	for (unsigned int i = 1; i <= frames; i++) {
		st->pending = 1;
		if (drmModePageFlip(fd, o->crtc_id, fb[i & 1], DRM_MODE_PAGE_FLIP_EVENT, st)) {
			fprintf(stderr, "vblank-client: page flip failed: %s\n", strerror(errno));
			return -1;
		}
		if (wait_event(fd, st))
			return -1;
		if (skip_every && i % skip_every == 0 && i < frames) {
			if (skip_vblank(fd, o->crtc_index))
				return -1;
			(*deliberate)++;
		}
	}
	return 0;
}

static int wait_vblanks(int fd, int crtc_index, unsigned int count, struct state *st)
{
	for (unsigned int i = 0; i < count; i++) {
		drmVBlank vbl = { 0 };

		vbl.request.type = DRM_VBLANK_RELATIVE | DRM_VBLANK_EVENT |
				   ((crtc_index << DRM_VBLANK_HIGH_CRTC_SHIFT) &
				    DRM_VBLANK_HIGH_CRTC_MASK);
		vbl.request.sequence = 1;
		vbl.request.signal = (unsigned long)st;
		st->pending = 1;
		if (drmWaitVBlank(fd, &vbl) || wait_event(fd, st)) {
			fprintf(stderr, "vblank-client: vblank wait failed: %s\n", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Opens DEVICE: a path, or the first /dev/dri/cardN whose driver is called DEVICE. */
static int open_device(const char *dev, char *path, size_t size)
{
	if (dev[0] == '/') {
		snprintf(path, size, "%s", dev);
		return open(dev, O_RDWR | O_CLOEXEC);
	}
	for (int i = 0; i < 16; i++) {
		drmVersionPtr ver;
		int fd;

		snprintf(path, size, "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		ver = drmGetVersion(fd);
		if (ver && !strcmp(ver->name, dev)) {
			drmFreeVersion(ver);
			return fd;
		}
		drmFreeVersion(ver);
		close(fd);
	}
	errno = ENODEV;
	return -1;
}

int main(int argc, char **argv)
{
	struct state st = { 0 };
	struct output o;
	unsigned int deliberate = 0;
	char path[256];
	int fd, rc;

	if (argc < 4 || (strcmp(argv[1], "flip") && strcmp(argv[1], "wait")) ||
	    (!strcmp(argv[1], "flip") && argc < 5)) {
		fprintf(stderr, "usage: vblank-client flip DEVICE FRAMES SKIP_EVERY\n"
				"       vblank-client wait DEVICE COUNT\n");
		return 2;
	}
	fd = open_device(argv[2], path, sizeof(path));
	if (fd < 0) {
		fprintf(stderr, "vblank-client: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (find_output(fd, &o)) {
		fprintf(stderr, "vblank-client: %s: no connected output\n", argv[2]);
		return 1;
	}
	if (!strcmp(argv[1], "flip"))
		rc = flip(fd, &o, (unsigned int)atoi(argv[3]), (unsigned int)atoi(argv[4]),
			  &deliberate, &st);
	else
		rc = wait_vblanks(fd, o.crtc_index, (unsigned int)atoi(argv[3]), &st);
	printf("device=%s crtc_index=%d pid=%d events=%u deliberate=%u missed=%u\n", basename(path),
	       o.crtc_index, (int)getpid(), st.events, deliberate, st.missed);
	close(fd);
	return rc ? 1 : 0;
}
