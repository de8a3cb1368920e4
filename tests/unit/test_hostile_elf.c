// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Hostile ELF files (issue 41) cost the symbolizer and the unwinder bounded
 * time: crafted here (tests/unit/hostile_elf.h) and symbolized or unwound many
 * times, the CPU time measured (CLOCK_PROCESS_CPUTIME_ID) against a bound the
 * code before the fix passed many times over; the CFI check's bounds one by one.
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dwarf.h>
#include <fcntl.h>
#include "symbols/cfi_check.h"
#include "symbols/elf_file.h"
#include "symbols/stack_procs.h"
#include "symbols/symbolizer.h"
#include "symbols/unwind.h"
#include "tests/unit/hostile_elf.h"

static char dir[] = "/tmp/gputop-hostile-XXXXXX";

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A .symtab of 262,144 functions each named by one 1 KiB string (6 MB of table, 256 MiB once copied). */
#define BIG_SYMS 262144
#define BIG_NAME 1023
#define BIG_FRAMES 64
#define BIG_START 0x7f0000000000ull

static void write_big_symtab(const char *path)
{
	static const uint8_t text[16] = { 0xc3 };
	Elf64_Sym *syms = calloc(BIG_SYMS + 1, sizeof(*syms));
	char *strs = calloc(1, BIG_NAME + 2);
	struct hostile_section sec[] = {
		{ .name = ".text",
		  .type = SHT_PROGBITS,
		  .flags = SHF_ALLOC | SHF_EXECINSTR,
		  .data = text,
		  .size = sizeof(text) },
		{ .name = ".symtab",
		  .type = SHT_SYMTAB,
		  .link = 3,
		  .info = 1,
		  .entsize = sizeof(Elf64_Sym),
		  .data = syms,
		  .size = (BIG_SYMS + 1) * sizeof(*syms) },
		{ .name = ".strtab", .type = SHT_STRTAB, .data = strs, .size = BIG_NAME + 2 },
	};

	assert_true(syms && strs);
	memset(strs + 1, 'f', BIG_NAME);
	for (size_t i = 1; i <= BIG_SYMS; i++)
		syms[i] = (Elf64_Sym){ .st_name = 1,
				       .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				       .st_shndx = 1,
				       .st_value = HOSTILE_DATA_START + 16 * i,
				       .st_size = 16 };
	assert_int_equal(hostile_elf_write(path, sec, 3), 0);
	free(syms);
	free(strs);
}

/*
 * Its symbols pass the cache's byte bound: read once, the file kept as "too
 * large" (said in each frame's module), every later frame a lookup: no re-read.
 */
static void symtab_too_large_read_once(void **state)
{
	char path[128], text[FRAME_NAME_MAX + FRAME_MODULE_MAX + 32];
	struct symbolizer s;
	struct sym_process p;
	struct frame f;
	double t0, first, rest;

	(void)state;
	snprintf(path, sizeof(path), "%s/libbig.so", dir);
	write_big_symtab(path);
	assert_int_equal(symbolizer_init(&s, NULL), 0);
	assert_int_equal(hostile_process(&p, (const char *const[]){ path }, 1, BIG_START), 0);
	t0 = cpu_ms();
	symbolize_user(&s, &p, BIG_START + HOSTILE_DATA_START + 16, &f);
	first = cpu_ms() - t0;
	t0 = cpu_ms();
	for (size_t i = 1; i < BIG_FRAMES; i++)
		symbolize_user(&s, &p, BIG_START + HOSTILE_DATA_START + 16 * (i * 4093 % BIG_SYMS + 1), &f);
	rest = cpu_ms() - t0;
	print_message("a 6 MB .symtab of 1 KiB names: first frame %.1f ms of CPU, %d more %.3f ms\n", first,
		      BIG_FRAMES - 1, rest);
	frame_text(&f, false, text, sizeof(text));
	assert_string_equal(f.name, "");
	assert_non_null(strstr(text, "libbig.so [symbols too large]+0x"));
	assert_int_equal(s.files_opened, 1);
	assert_int_equal(elf_cache_stats(&s.cache).too_large, 1);
	assert_true(rest < 50.0); /* a lookup each: microseconds (a re-read was 100s of ms) */
	sym_process_free(&p);
	symbolizer_free(&s);
	unlink(path);
}

/* A shared object whose one function's FDE is prog[0..len); its text's address into *text. */
static void write_cfi_file(const char *path, const uint8_t *prog, size_t len, uint64_t *text)
{
	static uint8_t code[64];
	struct hostile_section sec[] = {
		{ .name = ".text",
		  .type = SHT_PROGBITS,
		  .flags = SHF_ALLOC | SHF_EXECINSTR,
		  .data = code,
		  .size = sizeof(code) },
		{ .name = ".eh_frame", .type = SHT_PROGBITS, .flags = SHF_ALLOC },
	};
	uint8_t *eh;

	memset(code, 0x90, sizeof(code));
	code[sizeof(code) - 1] = 0xc3;
	eh = hostile_eh_frame(HOSTILE_DATA_START, sizeof(code), prog, len, &sec[1].size); /* .text is at the start */
	assert_non_null(eh);
	sec[1].data = eh;
	assert_int_equal(hostile_elf_write(path, sec, 2), 0);
	assert_int_equal(sec[0].addr, HOSTILE_DATA_START);
	*text = sec[0].addr;
	free(eh);
}

#define BOMB_OPS (1u << 20)
#define BOMB_START 0x7e0000000000ull
/* The sanitizer build (clang's -fsanitize=address; gcc's defines __SANITIZE_ADDRESS__). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define BOMB_UNWINDS 20

/* A process mapping a file of one FDE, prog[0..len), beside the stand-in libcuda. */
struct cfi_run {
	char path[128];
	struct sym_process p;
	struct unwind_proc *u;
	double ms; /* CPU time of BOMB_UNWINDS unwinds at the FDE's function */
};

static void cfi_run(struct cfi_run *c, const char *name, const uint8_t *prog, size_t len)
{
	static const uint8_t stack[256];
	struct unwind_result r;
	char abs[4096];
	uint64_t text, ip;
	double t0;

	snprintf(c->path, sizeof(c->path), "%s/%s", dir, name);
	write_cfi_file(c->path, prog, len, &text);
	assert_non_null(realpath(UNWIND_FIXTURE "libcuda.so.1", abs));
	assert_int_equal(hostile_process(&c->p, (const char *const[]){ c->path, abs }, 2, BOMB_START), 0);
	c->u = unwind_proc_new(c->p.pid, &c->p.maps);
	assert_non_null(c->u);
	ip = BOMB_START + text + 8;
	t0 = cpu_ms();
	for (size_t i = 0; i < BOMB_UNWINDS; i++) {
		unwind_stack(c->u,
			     &(struct unwind_input){ .ip = ip, .sp = 0x7ffd0000, .stack = stack, .len = sizeof(stack) },
			     &r);
		assert_true(r.n >= 1 && r.ips[0] == ip);
	}
	c->ms = cpu_ms() - t0;
	print_message("%s, an FDE of %zu bytes: %d unwinds in %.1f ms of CPU\n", name, len, BOMB_UNWINDS, c->ms);
}

static void cfi_run_end(struct cfi_run *c)
{
	unwind_proc_free(c->u);
	sym_process_free(&c->p);
	unlink(c->path);
}

/*
 * An FDE of 1 Mi DW_CFA_remember_state (the had 4 Mi: 274 ms a copy):
 * refused at its first sight, said why, and its frames cost a frame-pointer
 * step; the stand-in libcuda beside it keeps its CFI.
 */
static void cfi_bomb_refused(void **state)
{
	uint8_t *prog = malloc(BOMB_OPS);
	char note[STACK_NOTE_MAX];
	struct stack_proc sp;
	struct cfi_run c;
	const char *why;

	(void)state;
	assert_non_null(prog);
	memset(prog, DW_CFA_remember_state, BOMB_OPS);
	cfi_run(&c, "libbomb.so", prog, BOMB_OPS);
	free(prog);
	assert_int_equal(unwind_cfi_refused(c.u, &why), 1);
	assert_string_equal(why, "a CFI program over 65536 bytes");
	assert_int_equal(unwind_files_opened(c.u), 2); /* the bomb once (libdwfl asks no more), libcuda once */
	assert_true(c.ms < 100.0); /* each was some 54 ms */
	/* said on the process's DWARF rows, with what was sampled */
	sp = (struct stack_proc){ .cfi_refused = 1, .dwarf_events = 5, .dwarf_samples = 2 };
	snprintf(sp.cfi_why, sizeof(sp.cfi_why), "%s", why);
	stack_proc_sampled(&sp, "launches", note, sizeof(note));
	assert_string_equal(note,
			    "DWARF: 2 of 5 launches unwound; 1 file's CFI refused (a CFI program over 65536 bytes)");
	sp.dwarf_samples = 5;
	stack_proc_sampled(&sp, "launches", note, sizeof(note));
	assert_string_equal(note, "DWARF: 1 file's CFI refused (a CFI program over 65536 bytes)");
	cfi_run_end(&c);
}

/*
 * A program at the bounds, taken: 256 registers, 2,048 remember_state, the
 * rest DW_CFA_nop to 65,532 bytes (and 3 of padding): libdw runs it at each
 * frame, within a bound of CPU time (0.16 to 0.3 ms a frame measured).
 */
static void cfi_at_bounds_taken(void **state)
{
	uint8_t *prog = malloc(CFI_PROGRAM_MAX - 3);
	struct cfi_run c;

	(void)state;
	assert_non_null(prog);
	memset(prog, DW_CFA_nop, CFI_PROGRAM_MAX - 3);
	prog[0] = DW_CFA_offset_extended, prog[1] = 0xff, prog[2] = 0x01, prog[3] = 1; /* register 255 */
	for (size_t i = 0; i < CFI_REMEMBER_MAX; i++)
		prog[4 + 2 * i] = DW_CFA_remember_state, prog[5 + 2 * i] = DW_CFA_restore_state;
	cfi_run(&c, "libbounds.so", prog, CFI_PROGRAM_MAX - 3);
	free(prog);
	assert_int_equal(unwind_cfi_refused(c.u, NULL), 0);
#if !UNDER_ASAN
	assert_true(c.ms < BOMB_UNWINDS * 15.0); /* 15 ms a frame at most (0.2 ms measured) */
#else
	/*
	 * Not bounded in the sanitizer build: its allocator's quarantine sets the time there, not libdw (whose
	 * remember states are allocated at each frame): 0.8 ms a frame with the quarantine off, 3 ms at 8 MB,
	 * 22 to 26 ms at its 256 MB default on one machine, some 4.4 ms on another.
	 */
	print_message("(not bounded in the sanitizer build: the allocator's quarantine sets its time)\n");
#endif
	cfi_run_end(&c);
}

/* cfi_check_elf's verdict on the file at path. */
static enum cfi_verdict file_verdict(const char *path)
{
	int fd = open(path, O_RDONLY);
	enum cfi_verdict v;
	Elf *e;

	assert_true(fd >= 0);
	e = elf_file_open(fd);
	assert_non_null(e);
	v = cfi_check_elf(e);
	elf_end(e);
	close(fd);
	return v;
}

/*
 * .eh_frame_hdr's table, which libdw searches: an entry must point at an FDE
 * the check read, not into the middle of an entry (bytes it read as operands).
 */
static void cfi_hdr_into_an_entry(void **state)
{
	static const uint8_t code[64], prog[] = { DW_CFA_nop };
	struct hostile_section sec[] = {
		{ .name = ".text",
		  .type = SHT_PROGBITS,
		  .flags = SHF_ALLOC | SHF_EXECINSTR,
		  .data = code,
		  .size = sizeof(code) },
		{ .name = ".eh_frame", .type = SHT_PROGBITS, .flags = SHF_ALLOC },
		{ .name = ".eh_frame_hdr", .type = SHT_PROGBITS, .flags = SHF_ALLOC },
	};
	uint8_t hdr[20] = { 1, DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_udata4, DW_EH_PE_datarel | DW_EH_PE_sdata4 };
	uint64_t eh_addr = HOSTILE_DATA_START + sizeof(code), hdr_addr;
	uint8_t *eh = hostile_eh_frame(HOSTILE_DATA_START, sizeof(code), prog, sizeof(prog), &sec[1].size);
	char path[128];

	(void)state;
	assert_non_null(eh);
	snprintf(path, sizeof(path), "%s/libhdr.so", dir);
	hdr_addr = (eh_addr + sec[1].size + 15) & ~15ull; /* where hostile_elf_write puts it */
	sec[1].data = eh;
	sec[2].data = hdr;
	sec[2].size = sizeof(hdr);
	hostile_put_u32(hdr, 4, (uint32_t)(eh_addr - (hdr_addr + 4)));
	hostile_put_u32(hdr, 8, 1);
	hostile_put_u32(hdr, 12, (uint32_t)(HOSTILE_DATA_START - hdr_addr));
	for (uint32_t fde = 24; fde <= 32; fde += 8) { /* the FDE (after the CIE's 24 bytes), then 8 into it */
		hostile_put_u32(hdr, 16, (uint32_t)(eh_addr + fde - hdr_addr));
		assert_int_equal(hostile_elf_write(path, sec, 3), 0);
		assert_int_equal(sec[1].addr, eh_addr);
		assert_int_equal(sec[2].addr, hdr_addr);
		assert_int_equal(file_verdict(path), fde == 24 ? CFI_OK : CFI_MALFORMED);
	}
	free(eh);
	unlink(path);
}

/* Programs past each bound refused; within them, and a real file's, taken. */
static void cfi_programs(void **state)
{
	static const uint8_t high_reg[] = { DW_CFA_offset_extended, 0xc0, 0x84, 0x3d, 1, DW_CFA_remember_state };
	static const uint8_t ok[] = { DW_CFA_advance_loc | 4,
				      DW_CFA_def_cfa_offset,
				      16,
				      DW_CFA_offset | 6,
				      2,
				      DW_CFA_remember_state,
				      DW_CFA_def_cfa,
				      7,
				      8,
				      DW_CFA_restore_state,
				      DW_CFA_def_cfa_expression,
				      2,
				      0x77,
				      8,
				      DW_CFA_nop };
	static const uint8_t cut[] = { DW_CFA_def_cfa, 7, 0x88 }; /* a LEB128 past the end */
	static const uint8_t unknown[] = { 0x3f };
	static uint8_t many[2 * (CFI_REMEMBER_MAX + 1)], deep[CFI_NESTING_MAX + 1], longp[CFI_PROGRAM_MAX + 1];

	(void)state;
	assert_int_equal(cfi_check_program(ok, sizeof(ok)), CFI_OK);
	assert_int_equal(cfi_check_program(high_reg, sizeof(high_reg)), CFI_REGISTER_HIGH); /* register 1,000,000 */
	assert_int_equal(cfi_check_program(cut, sizeof(cut)), CFI_MALFORMED);
	assert_int_equal(cfi_check_program(unknown, sizeof(unknown)), CFI_MALFORMED);
	for (size_t i = 0; i < sizeof(many); i += 2)
		many[i] = DW_CFA_remember_state, many[i + 1] = DW_CFA_restore_state;
	assert_int_equal(cfi_check_program(many, sizeof(many)), CFI_NESTING_DEEP);
	assert_int_equal(cfi_check_program(many, sizeof(many) - 2), CFI_OK);
	memset(deep, DW_CFA_remember_state, sizeof(deep));
	assert_int_equal(cfi_check_program(deep, sizeof(deep)), CFI_NESTING_DEEP);
	assert_int_equal(cfi_check_program(deep, sizeof(deep) - 1), CFI_OK);
	assert_int_equal(cfi_check_program(longp, sizeof(longp)), CFI_PROGRAM_LONG); /* DW_CFA_nop */
	assert_int_equal(cfi_check_program(longp, sizeof(longp) - 1), CFI_OK);
	/* the fuzz seed: the stand-in libcuda's .eh_frame as raw bytes; cut, refused as not decoded */
	{
		FILE *f = fopen("tests/fuzz/corpus/cfi/libcuda-eh_frame", "rb");
		static uint8_t seed[1 << 16];
		size_t n;

		assert_non_null(f);
		n = fread(seed, 1, sizeof(seed), f);
		fclose(f);
		assert_true(n > 64);
		assert_int_equal(cfi_check_frames(seed + 1, n - 1, true), CFI_OK);
		assert_int_equal(cfi_check_frames(seed + 1, 30, true), CFI_MALFORMED);
	}
	/* the stand-in libcuda (gcc -O2) and the fixture's client: every entry read, taken */
	assert_int_equal(file_verdict(UNWIND_FIXTURE "libcuda.so.1"), CFI_OK);
	assert_int_equal(file_verdict(UNWIND_FIXTURE "cuda-client"), CFI_OK);
}

/*
 * What could not be read is said in the frame: a file whose section headers pass its end, one whose
 * .symtab lies past it, one cut in its ELF header: "libx.so [not read]+0x..."; the same file whole is named.
 */
static void unread_said(void **state)
{
	static const uint8_t text[16] = { 0xc3 };
	static const char strs[] = "\0whole";
	const Elf64_Sym syms[2] = { { 0 },
				    { .st_name = 1,
				      .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				      .st_shndx = 1,
				      .st_value = HOSTILE_DATA_START,
				      .st_size = 16 } };
	struct hostile_section sec[] = {
		{ .name = ".text", .type = SHT_PROGBITS, .flags = SHF_ALLOC | SHF_EXECINSTR, .data = text, .size = 16 },
		{ .name = ".symtab",
		  .type = SHT_SYMTAB,
		  .link = 3,
		  .info = 1,
		  .entsize = sizeof(Elf64_Sym),
		  .data = syms,
		  .size = sizeof(syms) },
		{ .name = ".strtab", .type = SHT_STRTAB, .data = strs, .size = sizeof(strs) },
	};
	const uint64_t far = 1ull << 40;
	char path[128], text_out[FRAME_NAME_MAX + FRAME_MODULE_MAX + 32];
	Elf64_Ehdr eh;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/libcut.so", dir);
	for (int k = 0; k < 4; k++) { /* whole, section headers cut, .symtab past the end, ELF header cut */
		struct symbolizer s;
		struct sym_process p;
		struct frame fr;

		assert_int_equal(hostile_elf_write(path, sec, 3), 0);
		assert_non_null(f = fopen(path, "r+b"));
		assert_int_equal(fread(&eh, sizeof(eh), 1, f), 1);
		if (k == 2) { /* .symtab's sh_offset */
			fseek(f, (long)(eh.e_shoff + 2 * sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, sh_offset)),
			      SEEK_SET);
			fwrite(&far, sizeof(far), 1, f);
		}
		fclose(f);
		if (k == 1 || k == 3)
			assert_int_equal(truncate(path, k == 1 ? (off_t)eh.e_shoff + 80 : 40), 0);
		assert_int_equal(symbolizer_init(&s, NULL), 0);
		assert_int_equal(hostile_process(&p, (const char *const[]){ path }, 1, BIG_START), 0);
		symbolize_user(&s, &p, BIG_START + (k == 3 ? 4 : HOSTILE_DATA_START + 4), &fr); /* 40 bytes: a page */
		frame_text(&fr, true, text_out, sizeof(text_out));
		if (k)
			assert_non_null(strstr(text_out, "libcut.so [not read]+0x"));
		else
			assert_string_equal(text_out, "whole+0x4");
		sym_process_free(&p);
		symbolizer_free(&s);
	}
	unlink(path);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(symtab_too_large_read_once), cmocka_unit_test(cfi_bomb_refused),
		cmocka_unit_test(cfi_at_bounds_taken),	      cmocka_unit_test(cfi_programs),
		cmocka_unit_test(cfi_hdr_into_an_entry),      cmocka_unit_test(unread_said),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
