// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: any bytes as an ELF file (a mapped library or a debug file of
 * another user's making), read as the symbolizer reads one: segments, build
 * id, function symbols, lookups at each symbol and through each segment,
 * names demangled and escaped for a folded stack.
 */
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/demangle.h"
#include "symbols/elf_file.h"
#include "symbols/folded.h"
#include "symbols/frame.h"

static void use_name(const char *name)
{
	char out[FRAME_NAME_MAX], esc[4 * FRAME_NAME_MAX];

	demangle(name, out, sizeof(out));
	folded_escape(out, esc, sizeof(esc));
	if (strpbrk(esc, ";\n"))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *image = malloc(size ? size : 1);
	struct elf_info info;
	struct symtab t;
	uint64_t vaddr;
	size_t i;
	Elf *e;

	if (!image)
		return 0;
	memcpy(image, data, size);
	e = elf_file_memory(image, size);
	if (e && !elf_file_info(e, &info)) {
		symtab_init(&t, 1u << 16, 1u << 22);
		if (!elf_file_syms(e, &t))
			for (i = 0; i < t.n && i < 64; i++) {
				const struct sym *s = symtab_find(&t, t.syms[i].addr);

				if (!s)
					abort(); /* every symbol holds its own address */
				use_name(symtab_name(&t, s));
			}
		for (i = 0; i < info.n_loads; i++)
			if (elf_offset_to_vaddr(&info, info.loads[i].offset, &vaddr))
				symtab_find(&t, vaddr);
		symtab_free(&t);
	}
	if (e)
		elf_end(e);
	free(image);
	return 0;
}
