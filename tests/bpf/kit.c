// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The collector kit's map helpers on real BPF hash maps (root: creating maps
 * needs CAP_BPF): the walk hands every entry over once and deletes what it was
 * told to after the walk; map_delta hands over each entry's value at the last
 * read (zeros when new, and again when the entry was made anew), keeps the
 * collector's state beside it, aligned, and deletes gone entries; the sweep
 * removes only the entries of threads that exited.
 */
#include "tests/unit/cmocka_all.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "collectors/kit/map_delta.h"
#include "collectors/kit/map_walk.h"

struct counters {
	uint64_t count, ns;
};

static int new_map(size_t key_size, size_t value_size)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, "kit_test", (__u32)key_size, (__u32)value_size,
				4096, NULL);

	assert_true(fd >= 0);
	return fd;
}

static void put(int fd, uint32_t key, uint64_t count)
{
	struct counters v = { count, count * 1000 };

	assert_int_equal(bpf_map_update_elem(fd, &key, &v, BPF_ANY), 0);
}

struct walked {
	unsigned int seen[1000];
	uint32_t drop_below;
};

static bool note(const void *key, void *value, void *arg)
{
	struct walked *w = arg;
	uint32_t k = *(const uint32_t *)key;

	assert_true(k < 1000);
	assert_int_equal(((struct counters *)value)->count, k + 1);
	w->seen[k]++;
	return k < w->drop_below;
}

static void walk_hands_over_each_entry_once_and_deletes_after(void **state)
{
	int fd = new_map(sizeof(uint32_t), sizeof(struct counters));
	struct walked w = { .drop_below = 500 };
	uint32_t k, next;
	long deleted;
	unsigned int left = 0;

	(void)state;
	for (k = 0; k < 1000; k++)
		put(fd, k, k + 1);
	deleted = map_walk(fd, sizeof(uint32_t), sizeof(struct counters), note, &w);
	assert_int_equal(deleted, 500);
	for (k = 0; k < 1000; k++)
		assert_int_equal(w.seen[k], 1); /* a delete during the walk would restart it */
	for (bool first = true; !bpf_map_get_next_key(fd, first ? NULL : &k, &next); first = false) {
		k = next;
		assert_true(k >= 500);
		left++;
	}
	assert_int_equal(left, 500);
	close(fd);
}

/* Every entry chosen; meanwhile the "program" deletes the odd keys the walk has passed (calls that returned). */
struct meanwhile {
	int fd;
	uint32_t prev;
	bool any;
	long taken; /* deleted by the "program" */
};

static bool taken_meanwhile(const void *key, void *value, void *arg)
{
	struct meanwhile *m = arg;

	(void)value;
	if (m->any && m->prev % 2) { /* not the key the walk stands on: that would restart it */
		assert_int_equal(bpf_map_delete_elem(m->fd, &m->prev), 0);
		m->taken++;
	}
	m->prev = *(const uint32_t *)key;
	m->any = true;
	return true;
}

static void walk_counts_only_what_it_deleted(void **state)
{
	int fd = new_map(sizeof(uint32_t), sizeof(struct counters));
	struct meanwhile m = { .fd = fd };
	long deleted;
	uint32_t k;

	(void)state;
	for (k = 0; k < 100; k++)
		put(fd, k, k + 1);
	deleted = map_walk(fd, sizeof(uint32_t), 0, taken_meanwhile, &m);
	assert_true(m.taken >= 49);
	assert_int_equal(deleted, 100 - m.taken); /* the 100 chosen, less those gone before its deletes */
	close(fd);
}

struct seen_delta {
	uint64_t before[16], now[16], state[16];
	bool aligned;
	uint32_t gone; /* this key's process "exited" */
	uint64_t next_id;
};

static bool delta(const void *key, const void *now, const void *before, void *state, void *arg)
{
	struct seen_delta *s = arg;
	uint32_t k = *(const uint32_t *)key;
	uint64_t *id = state;

	s->aligned &= !((uintptr_t)now % 8) && !((uintptr_t)before % 8) && !((uintptr_t)state % 8);
	s->before[k] = ((const struct counters *)before)->count;
	s->now[k] = ((const struct counters *)now)->count;
	if (!*id)
		*id = ++s->next_id;
	s->state[k] = *id;
	return k == s->gone;
}

static void delta_keeps_the_last_read_and_state(void **state)
{
	int fd = new_map(sizeof(uint32_t), sizeof(struct counters));
	struct map_delta d;
	struct seen_delta s = { .aligned = true, .gone = 99 };
	uint32_t k = 3;
	uint64_t id1;

	(void)state;
	assert_int_equal(map_delta_init(&d, sizeof(uint32_t), sizeof(struct counters),
					sizeof(uint64_t)),
			 0);
	put(fd, 1, 10);
	put(fd, 2, 20);
	put(fd, 3, 30);
	assert_int_equal(map_delta_read(&d, fd, delta, &s), 3);
	assert_int_equal(s.before[1], 0); /* new: zeros */
	assert_int_equal(s.now[2], 20);
	assert_true(s.state[1] && s.state[2] && s.state[3]);
	assert_true(s.aligned);
	id1 = s.state[1];

	put(fd, 1, 15);
	put(fd, 2, 25);
	assert_int_equal(bpf_map_delete_elem(fd, &k), 0); /* 3 went away ... */
	s.gone = 2; /* ... and 2's process exited: shown once more, then deleted */
	memset(s.state, 0, sizeof(s.state));
	assert_int_equal(map_delta_read(&d, fd, delta, &s), 1);
	assert_int_equal(s.before[1], 10);
	assert_int_equal(s.now[1], 15);
	assert_int_equal(s.before[2], 20);
	assert_int_equal(s.state[1], id1); /* the state stayed with its entry */
	assert_true(bpf_map_lookup_elem(fd, &(uint32_t){ 2 }, &(struct counters){ 0 }) < 0);

	put(fd, 3, 5); /* made anew: a new entry, its last read forgotten */
	s.gone = 99;
	memset(s.before, 0xff, sizeof(s.before));
	memset(s.state, 0, sizeof(s.state));
	assert_int_equal(map_delta_read(&d, fd, delta, &s), 2);
	assert_int_equal(s.before[3], 0);
	assert_int_equal(s.state[3], 4); /* a new id: its old state went with it */
	assert_true(s.aligned);
	map_delta_free(&d);
	close(fd);
}

static void sweep_removes_exited_threads_only(void **state)
{
	int fd = new_map(sizeof(uint64_t), sizeof(uint64_t));
	uint64_t mine = (uint64_t)getpid() << 32 | (uint64_t)getpid(), v = 1, gone;
	pid_t child = fork();

	(void)state;
	if (!child)
		_exit(0);
	waitpid(child, NULL, 0);
	gone = (uint64_t)child << 32 | (uint64_t)child;
	assert_int_equal(bpf_map_update_elem(fd, &mine, &v, BPF_ANY), 0);
	assert_int_equal(bpf_map_update_elem(fd, &gone, &v, BPF_ANY), 0);
	assert_int_equal(map_sweep_gone_threads(fd), 1);
	assert_int_equal(bpf_map_lookup_elem(fd, &mine, &v), 0);
	assert_true(bpf_map_lookup_elem(fd, &gone, &v) < 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(walk_hands_over_each_entry_once_and_deletes_after),
		cmocka_unit_test(walk_counts_only_what_it_deleted),
		cmocka_unit_test(delta_keeps_the_last_read_and_state),
		cmocka_unit_test(sweep_removes_exited_threads_only),
	};
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, "kit_probe", 4, 4, 1, NULL);

	if (fd < 0) {
		printf("SKIP kit tests: cannot create a BPF map (%s): run as root ('sudo make test-bpf')\n",
		       strerror(errno));
		return 0;
	}
	close(fd);
	return cmocka_run_group_tests_name("collector kit on BPF maps", tests, NULL, NULL);
}
