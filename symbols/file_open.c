// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "core/sysroot.h"
#include "symbols/elf_file.h"
#include "symbols/file_open.h"

static const struct file_broker *broker; /* the symbolizing child's: it asks, the monitor opens */

void file_open_broker(const struct file_broker *b)
{
	broker = b;
}

/* Keeps fd if it is a regular file with the mapping's device and inode. */
static int check_same(int fd, const struct map *m)
{
	struct stat st;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || major(st.st_dev) != m->dev_major ||
	    minor(st.st_dev) != m->dev_minor || (uint64_t)st.st_ino != m->inode) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

static int open_map_files(pid_t pid, const struct map *m)
{
	char path[96];
	int fd;

	if (!proc_path(path, sizeof(path), "%d/map_files/%llx-%llx", (int)pid,
		       (unsigned long long)m->start, (unsigned long long)m->end))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	return fd < 0 ? -errno : fd;
}

/* path (absolute) inside root, no symlink followed on the way. */
static int open_beneath(const char *root, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int dir, fd;

	if (path[0] != '/')
		return -EINVAL;
	dir = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	fd = (int)syscall(SYS_openat2, dir, path + 1, &how, sizeof(how));
	if (fd < 0 &&
	    errno == ENOSYS) /* before 5.6: the last link refused, the inode checks the rest */
		fd = openat(dir, path + 1, (int)how.flags);
	if (fd < 0)
		fd = -errno;
	close(dir);
	return fd;
}

int map_file_open(pid_t pid, const struct map *m, const char *path)
{
	char root[64];
	int fd;

	if (m->kind != MAP_KIND_FILE)
		return -EINVAL;
	if (broker)
		return broker->map_file(broker->ctx, pid, m);
	fd = check_same(open_map_files(pid, m), m);
	if (fd >= 0 || m->deleted)
		return fd;
	if (proc_path(root, sizeof(root), "%d/root", (int)pid)) {
		fd = check_same(open_beneath(root, path), m);
		if (fd >= 0)
			return fd;
	}
	/* the process is gone (its root with it): the same file in ours, if it is that file */
	return check_same(open_beneath("/", path), m);
}

int debug_file_open(const char *debug_dir, const uint8_t *build_id, size_t len)
{
	char hex[2 * BUILD_ID_MAX + 1], path[4096];
	struct stat st;
	int fd, n;

	if (broker)
		return broker->debug_file(broker->ctx, build_id, len);
	if (len < 2 || len > BUILD_ID_MAX)
		return -EINVAL;
	build_id_hex(build_id, len, hex);
	n = snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", debug_dir, hex, hex + 2);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int perf_map_file_open(const char *dir, pid_t pid, uid_t owner, size_t max_bytes)
{
	char name[32];
	struct stat st;
	int dfd, fd, err = 0;

	if (broker)
		return broker->perf_map(broker->ctx, pid);
	snprintf(name, sizeof(name), "perf-%d.map", (int)pid);
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		err = -errno;
	close(dfd);
	if (err)
		return err == -ELOOP ? -EPERM : err;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -EINVAL;
	else if (st.st_uid != owner)
		err = -EPERM;
	else if ((uint64_t)st.st_size > max_bytes)
		err = -EFBIG;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int proc_owner(pid_t pid, uid_t *uid)
{
	char path[64];
	struct stat st;

	if (pid <= 0 || !proc_path(path, sizeof(path), "%d", (int)pid))
		return -EINVAL;
	if (stat(path, &st))
		return -errno;
	*uid = st.st_uid;
	return 0;
}
