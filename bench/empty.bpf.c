// SPDX-License-Identifier: GPL-2.0
/*
 * The floor: empty programs attached the way gputop-bpf's scheduler programs are
 * (raw tracepoints, by name at run time), one per event.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("raw_tp")
int empty_queue(void *ctx) { return 0; }
SEC("raw_tp")
int empty_run(void *ctx) { return 0; }
SEC("raw_tp")
int empty_done(void *ctx) { return 0; }

/*
 * What the primitives cost on this machine: one each, on the done event (its
 * argument, the job's fence address, is the key). Not attached by default:
 * bpf_cost --primitives.
 */
__u64 counter;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u64);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u64);
} lru SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} pcpu SEC(".maps");

SEC("raw_tp")
int prim_ktime(__u64 *ctx) { counter += bpf_ktime_get_ns() & 1; return 0; }
SEC("raw_tp")
int prim_probe_read(__u64 *ctx)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)ctx[0]);
	counter += v & 1;
	return 0;
}
SEC("raw_tp")
int prim_atomic(__u64 *ctx) { __sync_fetch_and_add(&counter, 1); return 0; }
SEC("raw_tp")
int prim_pcpu(__u64 *ctx)
{
	__u32 zero = 0;
	__u64 *v = bpf_map_lookup_elem(&pcpu, &zero);

	if (v)
		*v += 1;
	return 0;
}
SEC("raw_tp")
int prim_hash_look(__u64 *ctx)
{
	__u64 key = ctx[0];

	counter += bpf_map_lookup_elem(&hash, &key) != 0;
	return 0;
}
SEC("raw_tp")
int prim_hash_updel(__u64 *ctx)
{
	__u64 key = ctx[0], v = 1;

	bpf_map_update_elem(&hash, &key, &v, BPF_ANY);
	bpf_map_delete_elem(&hash, &key);
	return 0;
}
SEC("raw_tp")
int prim_lru_updel(__u64 *ctx)
{
	__u64 key = ctx[0], v = 1;

	bpf_map_update_elem(&lru, &key, &v, BPF_ANY);
	bpf_map_delete_elem(&lru, &key);
	return 0;
}
