// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: a perf map (/tmp/perf-PID.map, any user's JIT) and the same bytes
 * as kallsyms. Every entry found must hold the address asked for (an entry
 * under more than a few nested ones may be not found: the lookup looks back a
 * bounded number of entries), and its name, escaped for a folded stack, must
 * hold no separator or line break; names are demangled as they would be.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/demangle.h"
#include "symbols/folded.h"
#include "symbols/kallsyms.h"
#include "symbols/perf_map.h"

/* As the symbolizer uses a name: demangled (perf map names may be mangled C++), then escaped. */
static void check_name(const char *name)
{
	char esc[4 * SYMTAB_NAME_MAX + 8], out[FRAME_NAME_MAX];

	demangle(name, out, sizeof(out));
	if (strlen(out) >= sizeof(out))
		abort();
	folded_escape(name, esc, sizeof(esc));
	if (strpbrk(esc, ";\n\r") || strlen(esc) >= sizeof(esc))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1);
	struct symtab t;
	struct kallsyms k;
	size_t i, bad;
	uint64_t off;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!perf_map_parse(&t, copy, size, &bad)) {
		for (i = 0; i < t.n; i++) {
			uint64_t last = t.syms[i].addr + t.syms[i].size - 1;
			const struct sym *s = symtab_find(&t, last);
			bool nested = i + 1 < t.n && t.syms[i + 1].addr <= last;

			/* what is found holds the address; what nothing overlaps is found */
			if ((s && (last < s->addr || last - s->addr >= s->size)) || (!s && !nested))
				abort();
			if (s)
				check_name(symtab_name(&t, s));
		}
	}
	symtab_free(&t);
	if (!kallsyms_parse(&k, copy, size)) {
		for (i = 0; i < k.syms.n; i++) {
			const char *name = kallsyms_find(&k, k.syms.syms[i].addr, &off);

			if (name && (off >= KALLSYMS_FUNC_MAX || k.hidden))
				abort();
			if (name)
				check_name(name);
		}
	}
	kallsyms_free(&k);
	free(copy);
	return 0;
}
