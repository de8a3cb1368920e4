// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include "bpf_util.h"

void tp_progs_autoload(struct tp_prog *tps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tps[i].prog)
			bpf_program__set_autoload(tps[i].prog, tps[i].wanted);
}

size_t tp_progs_attach(struct collector *c, struct tp_prog *tps, size_t n)
{
	size_t attached = 0;

	for (size_t i = 0; i < n; i++) {
		char note[96];

		if (!tps[i].wanted || !tps[i].prog)
			continue;
		tps[i].link = bpf_program__attach(tps[i].prog);
		if (!tps[i].link) {
			snprintf(note, sizeof(note), "attach failed: %s", strerror(errno));
			collector_set_tracepoint(c, tps[i].group, tps[i].event, TRACEPOINT_FAILED,
						 note);
			continue;
		}
		collector_set_tracepoint(c, tps[i].group, tps[i].event, TRACEPOINT_ATTACHED, NULL);
		attached++;
	}
	return attached;
}

uint64_t tp_progs_recursion_misses(const struct tp_prog *tps, size_t n)
{
	uint64_t misses = 0;

	for (size_t i = 0; i < n; i++) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd;

		if (!tps[i].link)
			continue;
		fd = bpf_program__fd(tps[i].prog);
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			misses += info.recursion_misses;
	}
	return misses;
}

void tp_progs_detach(struct tp_prog *tps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bpf_link__destroy(tps[i].link);
		tps[i].link = NULL;
	}
}

void collector_set_drops(struct collector *c, const char *const *names, const __u64 *counts,
			 size_t n)
{
	for (size_t i = 0; i < n; i++)
		collector_set_drop(c, names[i], counts[i]);
}

void collector_load_failed(struct collector *c, int err)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "loading the BPF programs failed: %s", strerror(err < 0 ? -err : err));
	collector_set_state(c, COLLECTOR_FAILED, msg,
			    "run with -v to see libbpf's and the verifier's messages");
}
