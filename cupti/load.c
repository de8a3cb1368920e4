// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Finds the program's own libcupti and loads it: GPUTOP_CUPTI_LIBRARY where set; a libcupti the
 * program has loaded already; one beside the CUDA runtime or PyTorch it loaded (a toolkit's
 * extras/CUPTI/lib64, a wheel's nvidia/cuda_cupti/lib); then the library path's libcupti.so.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti/cupti_lib.h"

#define DIRS 10

struct loaded_dirs {
	char dir[DIRS][PATH_MAX];
	int n;
};

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void add_dir(struct loaded_dirs *d, const char *dir, size_t len, const char *tail)
{
	if (d->n < DIRS && (size_t)snprintf(d->dir[d->n], PATH_MAX, "%.*s%s", (int)len, dir, tail) < PATH_MAX)
		d->n++;
}

/* dl_iterate_phdr's callback: the folders to look in, from the objects loaded (no dlopen in here). */
static int note_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char *path = info->dlpi_name, *base = path ? strrchr(path, '/') : NULL;
	struct loaded_dirs *d = arg;
	size_t len;

	(void)size;
	if (!base)
		return 0;
	len = (size_t)(base - path);
	base++;
	if (starts(base, "libcupti.so"))
		add_dir(d, path, strlen(path), ""); /* the program's own, loaded already: first */
	else if (starts(base, "libcudart.so") || starts(base, "libtorch_cuda.so")) {
		add_dir(d, path, len, "");
		add_dir(d, path, len, "/../extras/CUPTI/lib64"); /* a toolkit's lib64 */
		add_dir(d, path, len, "/../../nvidia/cuda_cupti/lib"); /* torch/lib in a wheel's site-packages */
		add_dir(d, path, len, "/../../nvidia/cu13/lib"); /* the same, CUDA 13's wheels */
		add_dir(d, path, len, "/../../cuda_cupti/lib"); /* nvidia/cuda_runtime/lib */
	}
	return 0;
}

/* The greatest libcupti.so* name in DIR (libcupti.so.12 over libcupti.so), in OUT. */
static int find_in_dir(const char *dir, char *out)
{
	char best[256] = "";
	struct dirent *e;
	DIR *dp = opendir(dir);

	if (!dp)
		return -1;
	while ((e = readdir(dp)))
		if (starts(e->d_name, "libcupti.so") && strlen(e->d_name) < sizeof(best) && strcmp(e->d_name, best) > 0)
			strcpy(best, e->d_name);
	closedir(dp);
	if (!best[0] || (size_t)snprintf(out, PATH_MAX, "%s/%s", dir, best) >= PATH_MAX)
		return -1;
	return 0;
}

static void *open_found(char *path)
{
	static const char *const names[] = { "libcupti.so", "libcupti.so.13", "libcupti.so.12", "libcupti.so.11.8" };
	struct loaded_dirs d = { .n = 0 };
	const char *env = getenv("GPUTOP_CUPTI_LIBRARY");
	void *h;

	if (env && *env && strlen(env) < PATH_MAX) {
		strcpy(path, env);
		return dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	dl_iterate_phdr(note_object, &d);
	for (int i = 0; i < d.n; i++) {
		const char *p = d.dir[i];

		if (strstr(p, "/libcupti.so")) /* a loaded libcupti itself */
			strcpy(path, p);
		else if (find_in_dir(p, path))
			continue;
		if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
			char real[PATH_MAX];

			if (realpath(path, real))
				strcpy(path, real);
			return h;
		}
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL))) {
			struct link_map *lm;

			snprintf(path, PATH_MAX, "%s", names[i]);
			if (!dlinfo(h, RTLD_DI_LINKMAP, &lm) && lm->l_name && *lm->l_name &&
			    !realpath(lm->l_name, path))
				snprintf(path, PATH_MAX, "%s", lm->l_name);
			return h;
		}
	return NULL;
}

#define SYM(field, name) ((*(void **)&api->field = dlsym(h, name)) != NULL)

int cupti_load(struct cupti_api *api)
{
	void *h = open_found(api->path);

	if (!h)
		return -1;
	if (SYM(subscribe, "cuptiSubscribe") && SYM(unsubscribe, "cuptiUnsubscribe") &&
	    SYM(enable, "cuptiActivityEnable") && SYM(disable, "cuptiActivityDisable") &&
	    SYM(register_callbacks, "cuptiActivityRegisterCallbacks") &&
	    SYM(next_record, "cuptiActivityGetNextRecord") && SYM(dropped, "cuptiActivityGetNumDroppedRecords") &&
	    SYM(flush_all, "cuptiActivityFlushAll") && SYM(timestamp, "cuptiGetTimestamp")) {
		*(void **)&api->enable_callback = dlsym(h, "cuptiEnableCallback"); /* launches' correlation ids */
		/* queued and submitted times: CUPTI 10 on; without it they stay 0 */
		*(void **)&api->latency_timestamps = dlsym(h, "cuptiActivityEnableLatencyTimestamps");
		return 0;
	}
	dlclose(h);
	return -2;
}
