// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Decoding tests of the amdgpu, Intel (i915, xe) and calls collectors' BPF
 * handlers on synthetic records of every record layout the reference lists
 * (../shared/reference/GPU_TRACEPOINTS.md 4, 5, 6, 8). For each kernel
 * generation a BTF is built here with that generation's record structs
 * (names, field types and offsets); the programs are loaded with it as their
 * CO-RE target (btf_custom_path), so their field reads and layout choices
 * (bpf_core_field_exists) relocate as they would against that kernel's module
 * BTF. Each handler runs in a syscall program (BPF_PROG_RUN) on a record laid
 * out by the same table, and the maps must hold what the record says.
 * Needs root (or CAP_BPF and CAP_PERFMON) and Linux 5.14+ (syscall programs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "tests/unit/cmocka_all.h"
#include "tests/bpf/decode/decode.h"
#include "bpf/amdgpu.h"
#include "bpf/calls.h"
#include "bpf/intel.h"
#include "decode_amdgpu.skel.h"
#include "decode_calls.skel.h"
#include "decode_intel.skel.h"

/* ---- record layouts: one table builds both the BTF and the records ---- */

enum ftype { U8, U16, U32, U64, S32, LONG, ULONG, BOOL, PTR, LOC, XE_CLASS, CHAR12 };

struct field {
	const char *name;
	enum ftype type;
	unsigned int off;
};

#define MAX_FIELDS 12
struct layout {
	const char *name; /* the BTF struct: trace_event_raw_<class> */
	unsigned int size;
	struct field f[MAX_FIELDS];
};

/* amdgpu: 4.1 (cs_ioctl and sched_run_job by generation), 4.2 */
static const struct layout amd_cs_616 = { "trace_event_raw_amdgpu_cs_ioctl", 48,
	{ { "sched_job_id", U64, 8 }, { "__data_loc_timeline", LOC, 16 }, { "context", U32, 20 },
	  { "seqno", U32, 24 }, { "fence", PTR, 32 }, { "__data_loc_ring", LOC, 40 },
	  { "num_ibs", U32, 44 } } };
static const struct layout amd_run_616 = { "trace_event_raw_amdgpu_sched_run_job", 40,
	{ { "sched_job_id", U64, 8 }, { "__data_loc_timeline", LOC, 16 }, { "context", U32, 20 },
	  { "seqno", U32, 24 }, { "__data_loc_ring", LOC, 28 }, { "num_ibs", U32, 32 } } };
static const struct layout amd_cs_617 = { "trace_event_raw_amdgpu_cs_ioctl", 48,
	{ { "__data_loc_timeline", LOC, 8 }, { "context", U64, 16 }, { "seqno", U64, 24 },
	  { "fence", PTR, 32 }, { "__data_loc_ring", LOC, 40 }, { "num_ibs", U32, 44 } } };
static const struct layout amd_run_617 = { "trace_event_raw_amdgpu_sched_run_job", 40,
	{ { "__data_loc_timeline", LOC, 8 }, { "context", U64, 16 }, { "seqno", U64, 24 },
	  { "__data_loc_ring", LOC, 32 }, { "num_ibs", U32, 36 } } };
static const struct layout amd_bo_create = { "trace_event_raw_amdgpu_bo_create", 40,
	{ { "bo", PTR, 8 }, { "pages", U32, 16 }, { "type", U32, 20 }, { "prefer", U32, 24 },
	  { "allow", U32, 28 }, { "visible", U32, 32 } } };
static const struct layout amd_bo_move = { "trace_event_raw_amdgpu_bo_move", 32,
	{ { "bo", PTR, 8 }, { "bo_size", U64, 16 }, { "new_placement", U32, 24 },
	  { "old_placement", U32, 28 } } };
static const struct layout amd_iv = { "trace_event_raw_amdgpu_iv", 64,
	{ { "ih", U32, 8 }, { "client_id", U32, 12 }, { "src_id", U32, 16 }, { "ring_id", U32, 20 },
	  { "vmid", U32, 24 }, { "vmid_src", U32, 28 }, { "timestamp", U64, 32 },
	  { "timestamp_src", U32, 40 }, { "pasid", U32, 44 } } };
static const struct layout amd_vm_flush = { "trace_event_raw_amdgpu_vm_flush", 32,
	{ { "__data_loc_ring", LOC, 8 }, { "vmid", U32, 12 }, { "vm_hub", U32, 16 },
	  { "pd_addr", U64, 24 } } };
static const struct layout amd_vm_map = { "trace_event_raw_amdgpu_vm_bo_map", 48,
	{ { "bo", PTR, 8 }, { "start", LONG, 16 }, { "last", LONG, 24 }, { "offset", U64, 32 },
	  { "flags", U64, 40 } } };
static const struct layout amd_vm_unmap = { "trace_event_raw_amdgpu_vm_bo_unmap", 48,
	{ { "bo", PTR, 8 }, { "start", LONG, 16 }, { "last", LONG, 24 }, { "offset", U64, 32 },
	  { "flags", U64, 40 } } };
static const struct layout amd_pasid = { "trace_event_raw_amdgpu_pasid", 16, { { "pasid", U32, 8 } } };

/* i915: 5.1, 5.2 (one layout 5.15 -> 7.3) */
#define RQ_FIELDS { "dev", U32, 8 }, { "ctx", U64, 16 }, { "class", U16, 24 }, \
	{ "instance", U16, 26 }, { "seqno", U32, 28 }
static const struct layout i915_rq = { "trace_event_raw_i915_request", 40, { RQ_FIELDS, { "tail", U32, 32 } } };
static const struct layout i915_wait = { "trace_event_raw_i915_request_wait_begin", 40,
	{ RQ_FIELDS, { "flags", U32, 32 } } };
static const struct layout i915_in = { "trace_event_raw_i915_request_in", 40,
	{ RQ_FIELDS, { "port", U32, 32 }, { "prio", S32, 36 } } };
static const struct layout i915_out = { "trace_event_raw_i915_request_out", 40,
	{ RQ_FIELDS, { "completed", U32, 32 } } };
static const struct layout i915_create = { "trace_event_raw_i915_gem_object_create", 24,
	{ { "obj", PTR, 8 }, { "size", U64, 16 } } };
static const struct layout i915_bind = { "trace_event_raw_i915_vma_bind", 48,
	{ { "obj", PTR, 8 }, { "vm", PTR, 16 }, { "offset", U64, 24 }, { "size", U64, 32 },
	  { "flags", U32, 40 } } };
static const struct layout i915_fault = { "trace_event_raw_i915_gem_object_fault", 32,
	{ { "obj", PTR, 8 }, { "index", U64, 16 }, { "gtt", BOOL, 24 }, { "write", BOOL, 25 } } };
static const struct layout i915_pwrite = { "trace_event_raw_i915_gem_object_pwrite", 32,
	{ { "obj", PTR, 8 }, { "offset", U64, 16 }, { "len", U64, 24 } } };
static const struct layout i915_shrink = { "trace_event_raw_i915_gem_shrink", 32,
	{ { "dev", S32, 8 }, { "target", ULONG, 16 }, { "flags", U32, 24 } } };
static const struct layout i915_evict = { "trace_event_raw_i915_gem_evict", 48,
	{ { "dev", U32, 8 }, { "vm", PTR, 16 }, { "size", U64, 24 }, { "align", U64, 32 },
	  { "flags", U32, 40 } } };

/* xe: 6 (6.8, 6.12, 6.17) */
static const struct layout xe_job_68 = { "trace_event_raw_xe_sched_job", 48,
	{ { "seqno", U32, 8 }, { "guc_id", U16, 12 }, { "guc_state", U32, 16 }, { "flags", U32, 20 },
	  { "error", S32, 24 }, { "fence", U64, 32 }, { "batch_addr", U64, 40 } } };
static const struct layout xe_job_612 = { "trace_event_raw_xe_sched_job", 56,
	{ { "__data_loc_dev", LOC, 8 }, { "seqno", U32, 12 }, { "lrc_seqno", U32, 16 },
	  { "guc_id", U16, 20 }, { "guc_state", U32, 24 }, { "flags", U32, 28 }, { "error", S32, 32 },
	  { "fence", PTR, 40 }, { "batch_addr", U64, 48 } } };
static const struct layout xe_job_617 = { "trace_event_raw_xe_sched_job", 56,
	{ { "__data_loc_dev", LOC, 8 }, { "seqno", U32, 12 }, { "lrc_seqno", U32, 16 },
	  { "gt_id", U8, 20 }, { "guc_id", U16, 22 }, { "guc_state", U32, 24 }, { "flags", U32, 28 },
	  { "error", S32, 32 }, { "fence", PTR, 40 }, { "batch_addr", U64, 48 } } };
static const struct layout xe_queue_68 = { "trace_event_raw_xe_exec_queue", 32,
	{ { "class", XE_CLASS, 8 }, { "logical_mask", U32, 12 }, { "gt_id", U8, 16 },
	  { "width", U16, 18 }, { "guc_id", U16, 20 }, { "guc_state", U32, 24 }, { "flags", U32, 28 } } };
static const struct layout xe_queue_612 = { "trace_event_raw_xe_exec_queue", 40,
	{ { "__data_loc_dev", LOC, 8 }, { "class", XE_CLASS, 12 }, { "logical_mask", U32, 16 },
	  { "gt_id", U8, 20 }, { "width", U16, 22 }, { "guc_id", U16, 24 }, { "guc_state", U32, 28 },
	  { "flags", U32, 32 } } };
static const struct layout xe_move_68 = { "trace_event_raw_xe_bo_move", 48,
	{ { "bo", PTR, 8 }, { "size", ULONG, 16 }, { "new_placement", U32, 24 },
	  { "old_placement", U32, 28 }, { "device_id", CHAR12, 32 }, { "move_lacks_source", BOOL, 44 } } };
static const struct layout xe_move_612 = { "trace_event_raw_xe_bo_move", 40,
	{ { "bo", PTR, 8 }, { "size", ULONG, 16 }, { "__data_loc_new_placement_name", LOC, 24 },
	  { "__data_loc_old_placement_name", LOC, 28 }, { "__data_loc_device_id", LOC, 32 },
	  { "move_lacks_source", BOOL, 36 } } };
static const struct layout xe_bo_617 = { "trace_event_raw_xe_bo", 40,
	{ { "__data_loc_dev", LOC, 8 }, { "size", ULONG, 16 }, { "flags", U32, 24 }, { "vm", PTR, 32 } } };
static const struct layout xe_vma_68 = { "trace_event_raw_xe_vma", 48,
	{ { "vma", PTR, 8 }, { "asid", U32, 16 }, { "start", U64, 24 }, { "end", U64, 32 },
	  { "ptr", U64, 40 } } };
static const struct layout xe_vma_612 = { "trace_event_raw_xe_vma", 56,
	{ { "__data_loc_dev", LOC, 8 }, { "vma", PTR, 16 }, { "asid", U32, 24 }, { "start", U64, 32 },
	  { "end", U64, 40 }, { "ptr", U64, 48 } } };
static const struct layout xe_vma_617 = { "trace_event_raw_xe_vma", 64,
	{ { "__data_loc_dev", LOC, 8 }, { "vma", PTR, 16 }, { "vm", PTR, 24 }, { "asid", U32, 32 },
	  { "start", U64, 40 }, { "end", U64, 48 }, { "ptr", U64, 56 } } };

/* dma_fence: 8 (one layout 5.15 -> 7.3) */
static const struct layout dma_fence = { "trace_event_raw_dma_fence", 24,
	{ { "__data_loc_driver", LOC, 8 }, { "__data_loc_timeline", LOC, 12 }, { "context", U32, 16 },
	  { "seqno", U32, 20 } } };

/* ---- the BTF of one generation ---- */

struct btf_types {
	int u8, u16, u32, u64, s32, lng, ulng, boolean, ptr, xe_class, char12;
};

static int type_of(const struct btf_types *t, enum ftype f)
{
	switch (f) {
	case U8: return t->u8;
	case U16: return t->u16;
	case U32: case LOC: return t->u32;
	case U64: return t->u64;
	case S32: return t->s32;
	case LONG: return t->lng;
	case ULONG: return t->ulng;
	case BOOL: return t->boolean;
	case PTR: return t->ptr;
	case XE_CLASS: return t->xe_class;
	case CHAR12: return t->char12;
	}
	return -1;
}

/* Writes a raw BTF file with the layouts (NULL-terminated list) and returns its path. */
static char *btf_file(const struct layout *const *layouts)
{
	static char path[64];
	struct btf *btf = btf__new_empty();
	struct btf_types t;
	const void *raw;
	__u32 size;
	FILE *f;
	int chr;

	assert_non_null(btf);
	t.u8 = btf__add_int(btf, "unsigned char", 1, 0);
	t.u16 = btf__add_int(btf, "unsigned short", 2, 0);
	t.u32 = btf__add_int(btf, "unsigned int", 4, 0);
	t.u64 = btf__add_int(btf, "long long unsigned int", 8, 0);
	t.s32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	t.lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	t.ulng = btf__add_int(btf, "long unsigned int", 8, 0);
	t.boolean = btf__add_int(btf, "_Bool", 1, BTF_INT_BOOL);
	chr = btf__add_int(btf, "char", 1, BTF_INT_SIGNED);
	t.ptr = btf__add_ptr(btf, 0);
	t.xe_class = btf__add_enum(btf, "xe_engine_class", 4);
	btf__add_enum_value(btf, "XE_ENGINE_CLASS_RENDER", 0);
	btf__add_enum_value(btf, "XE_ENGINE_CLASS_COPY", 3);
	t.char12 = btf__add_array(btf, t.u32, chr, 12);
	for (; *layouts; layouts++) {
		const struct layout *l = *layouts;

		assert_true(btf__add_struct(btf, l->name, l->size) > 0);
		for (int i = 0; i < MAX_FIELDS && l->f[i].name; i++)
			assert_int_equal(btf__add_field(btf, l->f[i].name, type_of(&t, l->f[i].type),
							l->f[i].off * 8, 0), 0);
	}
	raw = btf__raw_data(btf, &size);
	assert_non_null(raw);
	snprintf(path, sizeof(path), "/tmp/gputop-decode-%d.btf", getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(raw, 1, size, f), size);
	fclose(f);
	btf__free(btf);
	return path;
}

/* ---- records ---- */

static const struct field *field_of(const struct layout *l, const char *name)
{
	for (int i = 0; i < MAX_FIELDS && l->f[i].name; i++)
		if (!strcmp(l->f[i].name, name))
			return &l->f[i];
	fail_msg("%s has no field %s", l->name, name);
	return NULL;
}

/* Sets a number field of the record in a. */
static void set(struct decode_args *a, const struct layout *l, const char *name, __u64 v)
{
	const struct field *f = field_of(l, name);
	size_t sz = f->type == U8 || f->type == BOOL ? 1 : f->type == U16 ? 2 :
		    f->type == U32 || f->type == S32 || f->type == XE_CLASS || f->type == LOC ? 4 : 8;

	memcpy(a->rec + f->off, &v, sz); /* little-endian: the low bytes */
}

/* Sets a __data_loc string: the text after the record's fixed part, at *tail. */
static void set_str(struct decode_args *a, const struct layout *l, const char *name,
		    const char *s, unsigned int *tail)
{
	unsigned int len = (unsigned int)strlen(s) + 1;

	if (!*tail)
		*tail = l->size;
	assert_true(*tail + len <= DECODE_RECORD);
	memcpy(a->rec + *tail, s, len);
	set(a, l, name, (__u64)len << 16 | *tail);
	*tail += len;
}

static void run(struct bpf_program *prog, struct decode_args *a)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = a, .ctx_size_in = sizeof(*a));

	assert_int_equal(bpf_prog_test_run_opts(bpf_program__fd(prog), &opts), 0);
	assert_int_equal(opts.retval, 0);
	memset(a->rec, 0, sizeof(a->rec));
}

/* Only these programs load (the others' layouts may be absent from this generation's BTF). */
static void only(struct bpf_object *obj, struct bpf_program *const *keep)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		bool k = false;

		for (struct bpf_program *const *q = keep; *q; q++)
			k |= *q == p;
		bpf_program__set_autoload(p, k);
	}
}

#define ID(tgid, pid) ((__u64)(tgid) << 32 | (pid))

/* ---- amdgpu ---- */

/* wide: context and seqno are u64 (6.17+): jobs whose contexts differ only above bit 31 stay apart */
static void amdgpu_generation(const struct layout *cs, const struct layout *rj, bool wide)
{
	const struct layout *const all[] = { cs, rj, &amd_bo_create, &amd_bo_move, &amd_iv,
					     &amd_vm_flush, &amd_vm_map, &amd_vm_unmap, &amd_pasid,
					     NULL };
	char *path = btf_file(all);
	LIBBPF_OPTS(bpf_object_open_opts, o, .btf_custom_path = path);
	struct decode_amdgpu_bpf *s = decode_amdgpu_bpf__open_opts(&o);
	struct decode_args a = { .id = ID(4242, 4243), .now = 1000000 };
	struct amd_submitter_key sk = { .tgid = 4242 };
	struct amd_submitter sub;
	struct amd_ring ring;
	struct amd_proc proc;
	struct amd_iv_key ik = { .client_id = 20, .src_id = 181, .pasid = 7 };
	struct amd_iv iv;
	unsigned int tail = 0;
	__u32 idx = 0, tgid, pasid = 7;

	assert_non_null(s);
	only(s->obj, (struct bpf_program *const[]){ s->progs.cs_ioctl_rec, s->progs.run_job_rec,
		s->progs.bo_create_rec, s->progs.bo_move_rec, s->progs.iv_rec, s->progs.vm_flush_rec,
		s->progs.vm_map_rec, s->progs.vm_unmap_rec, s->progs.pasid_rec, NULL });
	assert_int_equal(decode_amdgpu_bpf__load(s), 0);

	/* a submission of 3 IBs on gfx_0.0.0, its run 250 us later; a run with no submission */
	set_str(&a, cs, "__data_loc_timeline", "gfx_0.0.0", &tail);
	set(&a, cs, "context", 77);
	set(&a, cs, "seqno", 5);
	set_str(&a, cs, "__data_loc_ring", "gfx_0.0.0", &tail);
	set(&a, cs, "num_ibs", 3);
	run(s->progs.cs_ioctl_rec, &a);
	tail = 0;
	a.now += 250000;
	set_str(&a, rj, "__data_loc_timeline", "gfx_0.0.0", &tail);
	set(&a, rj, "context", 77);
	set(&a, rj, "seqno", 5);
	set_str(&a, rj, "__data_loc_ring", "gfx_0.0.0", &tail);
	run(s->progs.run_job_rec, &a);
	tail = 0;
	set_str(&a, rj, "__data_loc_ring", "sdma0", &tail);
	set(&a, rj, "context", 78);
	set(&a, rj, "seqno", 1);
	run(s->progs.run_job_rec, &a);
	if (wide) { /* two submissions on contexts equal in their low 32 bits; the first runs */
		__u64 t0 = a.now;

		for (__u64 c = 1; c <= 2; c++) {
			tail = 0;
			set_str(&a, cs, "__data_loc_ring", "gfx_0.0.0", &tail);
			set(&a, cs, "context", c << 32 | 77);
			set(&a, cs, "seqno", 6);
			run(s->progs.cs_ioctl_rec, &a);
			a.now += 100000;
		}
		tail = 0;
		set_str(&a, rj, "__data_loc_ring", "gfx_0.0.0", &tail);
		set(&a, rj, "context", 1ULL << 32 | 77);
		set(&a, rj, "seqno", 6);
		run(s->progs.run_job_rec, &a);
		idx = 0;
		assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.rings), &idx, &ring), 0);
		assert_int_equal(ring.latency_ns, 250000 + (a.now - t0));
		assert_int_equal(ring.submissions, 3);
		a.now = t0;
	}
	assert_int_equal(s->bss->next_ring, 2);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.rings), &idx, &ring), 0);
	assert_int_equal(ring.submissions, wide ? 3 : 1);
	assert_int_equal(ring.ibs, 3);
	assert_int_equal(ring.runs, wide ? 2 : 1);
	assert_int_equal(ring.kernel_runs, 0);
	assert_int_equal(ring.latency_hist[hist_slot(250000)], 1);
	idx = 1;
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.rings), &idx, &ring), 0);
	assert_int_equal(ring.runs, 1);
	assert_int_equal(ring.kernel_runs, 1);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.submitters), &sk, &sub), 0);
	assert_int_equal(sub.submissions, wide ? 3 : 1);
	assert_int_equal(sub.ibs, 3);

	/* buffers: 16 pages in VRAM (2), 1 page in GTT (1); a VRAM -> GTT move of 1 MiB */
	set(&a, &amd_bo_create, "pages", 16);
	set(&a, &amd_bo_create, "type", 2);
	run(s->progs.bo_create_rec, &a);
	set(&a, &amd_bo_create, "pages", 1);
	set(&a, &amd_bo_create, "type", 1);
	run(s->progs.bo_create_rec, &a);
	set(&a, &amd_bo_move, "bo_size", 1 << 20);
	set(&a, &amd_bo_move, "new_placement", 1);
	set(&a, &amd_bo_move, "old_placement", 2);
	run(s->progs.bo_move_rec, &a);
	/* a mapping of pages 0x100..0x10f, an unmapping */
	set(&a, &amd_vm_map, "start", 0x100);
	set(&a, &amd_vm_map, "last", 0x10f);
	run(s->progs.vm_map_rec, &a);
	run(s->progs.vm_unmap_rec, &a);
	tgid = 4242;
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.procs), &tgid, &proc), 0);
	assert_int_equal(proc.created[2], 1);
	assert_int_equal(proc.created_bytes[2], 16 * 4096);
	assert_int_equal(proc.created[1], 1);
	assert_int_equal(proc.created_bytes[1], 4096);
	assert_int_equal(proc.maps, 1);
	assert_int_equal(proc.unmaps, 1);
	assert_int_equal(proc.mapped_bytes, 16 * 4096);
	assert_int_equal(s->bss->moves[2][1].count, 1);
	assert_int_equal(s->bss->moves[2][1].bytes, 1 << 20);
	assert_int_equal(s->bss->moves[1][2].count, 0);

	/* interrupts: CP end of pipe of PASID 7, opened by 4242; a VM flush on sdma0 */
	set(&a, &amd_pasid, "pasid", 7);
	run(s->progs.pasid_rec, &a);
	set(&a, &amd_iv, "client_id", 20);
	set(&a, &amd_iv, "src_id", 181);
	set(&a, &amd_iv, "ring_id", 3);
	set(&a, &amd_iv, "vmid", 9);
	set(&a, &amd_iv, "pasid", 7);
	run(s->progs.iv_rec, &a);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.ivs), &ik, &iv), 0);
	assert_int_equal(iv.count, 1);
	assert_int_equal(iv.vmid, 9);
	assert_int_equal(iv.ring_id, 3);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.pasids), &pasid, &tgid), 0);
	assert_int_equal(tgid, 4242);
	tail = 0;
	set_str(&a, &amd_vm_flush, "__data_loc_ring", "sdma0", &tail);
	run(s->progs.vm_flush_rec, &a);
	idx = 1;
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.rings), &idx, &ring), 0);
	assert_int_equal(ring.flushes, 1);
	for (int i = 0; i < AMD_DROP_MAX; i++)
		assert_int_equal(s->bss->drops[i], 0);
	decode_amdgpu_bpf__destroy(s);
	unlink(path);
}

static void amdgpu_616(void **state)
{
	(void)state;
	amdgpu_generation(&amd_cs_616, &amd_run_616, false);
}

static void amdgpu_617(void **state)
{
	(void)state;
	amdgpu_generation(&amd_cs_617, &amd_run_617, true);
}

/* ---- i915 ---- */

static void i915_all(void **state)
{
	const struct layout *const all[] = { &i915_rq, &i915_wait, &i915_in, &i915_out,
					     &i915_create, &i915_bind, &i915_fault, &i915_pwrite,
					     &i915_shrink, &i915_evict, NULL };
	char *path = btf_file(all);
	LIBBPF_OPTS(bpf_object_open_opts, o, .btf_custom_path = path);
	struct decode_intel_bpf *s = decode_intel_bpf__open_opts(&o);
	struct decode_args a = { .id = ID(515, 516), .now = 5000000 };
	struct intel_engine_key ek = { .dev = 1, .class = 1, .instance = 2 };
	struct intel_engine e;
	struct intel_proc p;
	struct intel_dev d;
	__u32 idx, tgid = 515, dev = 1;

	(void)state;
	assert_non_null(s);
	only(s->obj, (struct bpf_program *const[]){ s->progs.request_add_rec,
		s->progs.request_retire_rec, s->progs.wait_begin_rec, s->progs.wait_end_rec,
		s->progs.request_in_rec, s->progs.request_out_rec, s->progs.object_create_rec,
		s->progs.vma_bind_rec, s->progs.fault_rec, s->progs.pwrite_rec, s->progs.shrink_rec,
		s->progs.evict_rec, NULL });
	assert_int_equal(decode_intel_bpf__load(s), 0);

#define RQ(l, seq)                                   \
	do {                                         \
		set(&a, l, "dev", 1);                \
		set(&a, l, "ctx", 0x1234567890ULL);  \
		set(&a, l, "class", 1);              \
		set(&a, l, "instance", 2);           \
		set(&a, l, "seqno", seq);            \
	} while (0)
	/* bcs2 of card1: two requests added, one retired; a wait of 3 ms; one on the hardware 40 us */
	RQ(&i915_rq, 10);
	run(s->progs.request_add_rec, &a);
	RQ(&i915_rq, 11);
	run(s->progs.request_add_rec, &a);
	RQ(&i915_rq, 10);
	run(s->progs.request_retire_rec, &a);
	RQ(&i915_wait, 11);
	run(s->progs.wait_begin_rec, &a);
	a.now += 3000000;
	RQ(&i915_rq, 11);
	run(s->progs.wait_end_rec, &a);
	RQ(&i915_in, 11);
	run(s->progs.request_in_rec, &a);
	a.now += 40000;
	RQ(&i915_out, 11);
	run(s->progs.request_out_rec, &a);
	assert_int_equal(s->bss->next_engine, 1);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.engine_ids), &ek, &idx), 0);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.engines), &idx, &e), 0);
	assert_int_equal(e.added, 2);
	assert_int_equal(e.retired, 1);
	assert_int_equal(e.waits, 1);
	assert_int_equal(e.wait_ns, 3000000);
	assert_int_equal(e.in, 1);
	assert_int_equal(e.out, 1);
	assert_int_equal(e.exec_ns, 40000);
	assert_int_equal(e.exec_hist[hist_slot(40000)], 1);

	/* objects, binds, faults, pwrite; shrinker and eviction on card1 */
	set(&a, &i915_create, "size", 8192);
	run(s->progs.object_create_rec, &a);
	set(&a, &i915_bind, "size", 65536);
	run(s->progs.vma_bind_rec, &a);
	for (int i = 0; i < 2; i++) {
		set(&a, &i915_fault, "gtt", 1);
		set(&a, &i915_fault, "write", 0);
		run(s->progs.fault_rec, &a);
	}
	set(&a, &i915_fault, "gtt", 0);
	set(&a, &i915_fault, "write", 1);
	run(s->progs.fault_rec, &a);
	set(&a, &i915_pwrite, "len", 300);
	run(s->progs.pwrite_rec, &a);
	set(&a, &i915_shrink, "dev", 1);
	set(&a, &i915_shrink, "target", 512);
	run(s->progs.shrink_rec, &a);
	set(&a, &i915_evict, "dev", 1);
	run(s->progs.evict_rec, &a);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.procs), &tgid, &p), 0);
	assert_int_equal(p.requests, 2);
	assert_int_equal(p.waits, 1);
	assert_int_equal(p.wait_ns, 3000000);
	assert_int_equal(p.wait_hist[hist_slot(3000000)], 1);
	assert_int_equal(p.objects, 1);
	assert_int_equal(p.object_bytes, 8192);
	assert_int_equal(p.binds, 1);
	assert_int_equal(p.bind_bytes, 65536);
	assert_int_equal(p.faults[2], 2); /* gtt, read */
	assert_int_equal(p.faults[1], 1); /* cpu, write */
	assert_int_equal(p.faults[0] + p.faults[3], 0);
	assert_int_equal(p.pwrites, 1);
	assert_int_equal(p.pwrite_bytes, 300);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.devs), &dev, &d), 0);
	assert_int_equal(d.shrinks, 1);
	assert_int_equal(d.shrink_pages, 512);
	assert_int_equal(d.evictions, 1);
	for (int i = 0; i < INTEL_DROP_MAX; i++)
		assert_int_equal(s->bss->drops[i], 0);
	decode_intel_bpf__destroy(s);
	unlink(path);
}

/* ---- xe ---- */

static void xe_generation(const struct layout *job, const struct layout *queue,
			  const struct layout *move, const struct layout *vma, const struct layout *bo,
			  bool gt)
{
	const struct layout *const all[] = { job, queue, move, vma, bo, NULL };
	char *path = btf_file(all);
	LIBBPF_OPTS(bpf_object_open_opts, o, .btf_custom_path = path);
	struct decode_intel_bpf *s = decode_intel_bpf__open_opts(&o);
	struct decode_args a = { .id = ID(600, 601), .now = 7000000 };
	struct xe_queue_key qk = { .guc_id = 33, .gt_id = gt ? 1 : 0 };
	struct xe_move_key mk = {};
	struct xe_queue q;
	struct xe_move m;
	struct intel_proc p;
	unsigned int tail = 0;
	bool dev = !strcmp(job->f[0].name, "__data_loc_dev");
	__u32 tgid = 600;

	assert_non_null(s);
	only(s->obj, (struct bpf_program *const[]){ s->progs.xe_exec_rec, s->progs.xe_run_rec,
		s->progs.xe_timedout_rec, s->progs.xe_queue_rec, s->progs.xe_bo_move_rec,
		s->progs.xe_vma_bind_rec, bo ? s->progs.xe_bo_create_rec : NULL, NULL });
	assert_int_equal(decode_intel_bpf__load(s), 0);

	/* queue 33 (on GT 1 where the layout says) is a copy queue; a job pushed, run 120 us later */
	if (dev)
		set_str(&a, queue, "__data_loc_dev", "0000:00:02.0", &tail);
	set(&a, queue, "class", 3);
	set(&a, queue, "guc_id", 33);
	set(&a, queue, "gt_id", gt ? 1 : 0);
	run(s->progs.xe_queue_rec, &a);
#define JOB()                                                                  \
	do {                                                                   \
		tail = 0;                                                      \
		if (dev)                                                       \
			set_str(&a, job, "__data_loc_dev", "0000:00:02.0", &tail); \
		set(&a, job, "guc_id", 33);                                    \
		if (gt)                                                        \
			set(&a, job, "gt_id", 1);                              \
		set(&a, job, "fence", 0xffff888012345600ULL);                  \
	} while (0)
	JOB();
	run(s->progs.xe_exec_rec, &a);
	a.now += 120000;
	JOB();
	run(s->progs.xe_run_rec, &a);
	JOB();
	run(s->progs.xe_timedout_rec, &a);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.queues), &qk, &q), 0);
	assert_int_equal(q.class1, 3 + 1);
	assert_int_equal(q.pushed, 1);
	assert_int_equal(q.ran, 1);
	assert_int_equal(q.timedout, 1);
	assert_int_equal(q.latency_ns, 120000);
	assert_int_equal(q.latency_hist[hist_slot(120000)], 1);

	/* a move of 2 MiB from system memory to VRAM (6.8: memory types 0 -> 2) */
	tail = 0;
	if (move == &xe_move_68) {
		set(&a, move, "new_placement", 2);
		set(&a, move, "old_placement", 0);
		memcpy(mk.from, "#0", 2);
		memcpy(mk.to, "#2", 2);
	} else {
		set_str(&a, move, "__data_loc_new_placement_name", "vram0", &tail);
		set_str(&a, move, "__data_loc_old_placement_name", "system", &tail);
		set_str(&a, move, "__data_loc_device_id", "0000:00:02.0", &tail);
		memcpy(mk.from, "system", 6);
		memcpy(mk.to, "vram0", 5);
	}
	set(&a, move, "size", 2 << 20);
	run(s->progs.xe_bo_move_rec, &a);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.moves), &mk, &m), 0);
	assert_int_equal(m.count, 1);
	assert_int_equal(m.bytes, 2 << 20);

	/* a bind of 0x10000..0x1ffff (end inclusive); a buffer of 1 MiB where the event exists */
	tail = 0;
	if (dev)
		set_str(&a, vma, "__data_loc_dev", "0000:00:02.0", &tail);
	set(&a, vma, "start", 0x10000);
	set(&a, vma, "end", 0x1ffff);
	run(s->progs.xe_vma_bind_rec, &a);
	if (bo) {
		set(&a, bo, "size", 1 << 20);
		run(s->progs.xe_bo_create_rec, &a);
	}
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.procs), &tgid, &p), 0);
	assert_int_equal(p.xe_jobs, 1);
	assert_int_equal(p.binds, 1);
	assert_int_equal(p.bind_bytes, 0x10000);
	assert_int_equal(p.object_bytes, bo ? 1 << 20 : 0);
	for (int i = 0; i < INTEL_DROP_MAX; i++)
		assert_int_equal(s->bss->drops[i], 0);
	decode_intel_bpf__destroy(s);
	unlink(path);
}

static void xe_68(void **state)
{
	(void)state;
	xe_generation(&xe_job_68, &xe_queue_68, &xe_move_68, &xe_vma_68, NULL, false);
}

static void xe_612(void **state)
{
	(void)state;
	xe_generation(&xe_job_612, &xe_queue_612, &xe_move_612, &xe_vma_612, NULL, false);
}

static void xe_617(void **state)
{
	(void)state;
	xe_generation(&xe_job_617, &xe_queue_612, &xe_move_612, &xe_vma_617, &xe_bo_617, true);
}

/* ---- fence waits and ioctls ---- */

static void calls(void **state)
{
	const struct layout *const all[] = { &dma_fence, NULL };
	char *path = btf_file(all);
	LIBBPF_OPTS(bpf_object_open_opts, o, .btf_custom_path = path);
	struct decode_calls_bpf *s = decode_calls_bpf__open_opts(&o);
	struct decode_args a = { .id = ID(700, 702), .now = 1000 };
	struct wait_key wk = { .tgid = 700 };
	struct ioctl_key ik = { .tgid = 700, .rdev = 226 << 20 | 128, .cmd = 0xc010640c };
	struct call_stats c;
	unsigned int tail = 0;

	(void)state;
	assert_non_null(s);
	only(s->obj, (struct bpf_program *const[]){ s->progs.wait_start_rec, s->progs.wait_end_rec,
		s->progs.ioctl_enter_rec, s->progs.ioctl_exit_rec, NULL });
	assert_int_equal(decode_calls_bpf__load(s), 0);

	/* a wait of 20 ms on an amdgpu fence; at its end the kernel names the driver differently */
	set_str(&a, &dma_fence, "__data_loc_driver", "amdgpu", &tail);
	set_str(&a, &dma_fence, "__data_loc_timeline", "gfx_0.0.0", &tail);
	run(s->progs.wait_start_rec, &a);
	a.now += 20000000;
	tail = 0;
	set_str(&a, &dma_fence, "__data_loc_driver", "detached-driver", &tail);
	run(s->progs.wait_end_rec, &a);
	memcpy(wk.driver, "amdgpu", 6);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.waits), &wk, &c), 0);
	assert_int_equal(c.count, 1);
	assert_int_equal(c.ns, 20000000);
	assert_int_equal(c.max_ns, 20000000);
	assert_int_equal(c.hist[hist_slot(20000000)], 1);

	/* GET_CAP on renderD128 (226:128): 10 us, then one that fails */
	a.arg = ik.rdev;
	a.ret = ik.cmd;
	run(s->progs.ioctl_enter_rec, &a);
	a.now += 10000;
	a.ret = 0;
	run(s->progs.ioctl_exit_rec, &a);
	a.ret = ik.cmd;
	run(s->progs.ioctl_enter_rec, &a);
	a.ret = -22;
	run(s->progs.ioctl_exit_rec, &a);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.ioctls), &ik, &c), 0);
	assert_int_equal(c.count, 2);
	assert_int_equal(c.errors, 1);
	assert_int_equal(c.ns, 10000);

	/* twins (arg bit 31): each runs after its primary and handles only what it skipped */
#define TWIN_ARG (1U << 31)
	/* 1: both copies of each event ran: counted once, nothing rescued */
	a.ret = ik.cmd;
	a.arg = ik.rdev;
	run(s->progs.ioctl_enter_rec, &a);
	a.arg = ik.rdev | TWIN_ARG;
	a.ret = ik.cmd;
	run(s->progs.ioctl_enter_rec, &a);
	a.now += 1000;
	a.ret = 0;
	a.arg = ik.rdev;
	run(s->progs.ioctl_exit_rec, &a);
	a.arg = ik.rdev | TWIN_ARG;
	a.ret = 0;
	run(s->progs.ioctl_exit_rec, &a);
	/* 2: the primary enter skipped, its twin wrote the call; the primary exit ran */
	a.arg = ik.rdev | TWIN_ARG;
	a.ret = ik.cmd;
	run(s->progs.ioctl_enter_rec, &a);
	a.now += 2000;
	a.arg = ik.rdev;
	a.ret = 0;
	run(s->progs.ioctl_exit_rec, &a);
	/* 3: the primary enter ran, its twin saw it fresh; the primary exit skipped, its twin counted */
	a.arg = ik.rdev;
	a.ret = ik.cmd;
	run(s->progs.ioctl_enter_rec, &a);
	a.arg = ik.rdev | TWIN_ARG;
	a.ret = ik.cmd;
	run(s->progs.ioctl_enter_rec, &a);
	a.now += 4000;
	a.arg = ik.rdev | TWIN_ARG;
	a.ret = 0;
	run(s->progs.ioctl_exit_rec, &a);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.ioctls), &ik, &c), 0);
	assert_int_equal(c.count, 5);
	assert_int_equal(c.ns, 10000 + 1000 + 2000 + 4000);
	assert_int_equal(s->bss->rescued[CALLS_IOCTL_ENTER][1], 1);
	assert_int_equal(s->bss->rescued[CALLS_IOCTL_EXIT][1], 1);
	/* a wait whose primary start was skipped, its end's twin after the primary: once */
	tail = 0;
	a.arg = TWIN_ARG;
	set_str(&a, &dma_fence, "__data_loc_driver", "amdgpu", &tail);
	run(s->progs.wait_start_rec, &a);
	a.now += 5000000;
	a.arg = 0;
	run(s->progs.wait_end_rec, &a);
	a.arg = TWIN_ARG;
	run(s->progs.wait_end_rec, &a);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(s->maps.waits), &wk, &c), 0);
	assert_int_equal(c.count, 2);
	assert_int_equal(c.ns, 25000000);
	assert_int_equal(s->bss->rescued[CALLS_WAIT_START][1], 1);
	assert_int_equal(s->bss->rescued[CALLS_WAIT_END][1], 0);
	for (int i = 0; i < CALLS_DROP_MAX; i++)
		assert_int_equal(s->bss->drops[i], 0);
	decode_calls_bpf__destroy(s);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(amdgpu_616), cmocka_unit_test(amdgpu_617),
		cmocka_unit_test(i915_all),   cmocka_unit_test(xe_68),
		cmocka_unit_test(xe_612),     cmocka_unit_test(xe_617),
		cmocka_unit_test(calls),
	};

	if (geteuid()) {
		printf("SKIP decode tests: they load BPF programs (run as root; CI does)\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
