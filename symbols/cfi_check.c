// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The bounds (cfi_check.h), measured on 2,283 ELF files of a Debian 12 host
 * (/usr/lib/x86_64-linux-gnu, /usr/bin, GCC's cc1plus, libLLVM-14 and -15,
 * Rust's libLLVM-22 and librustc_driver, node, libpython): the longest CIE or
 * FDE program 33,659 bytes (librustc_driver; lto-dump's 20,051), the highest
 * register 32, 444 remember_state in one program (node), nested 1 deep; none
 * of 2,355 (with /usr/sbin) refused. The bounds are twice to eight times
 * those: a program costs libdw at most 64 Ki ops a frame, and 2048 copies of
 * at most 256 registers, 16 of them kept.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/cfi_check.h"
#include "symbols/elf_file.h"

#define CFI_STR2(x) #x
#define CFI_STR(x) CFI_STR2(x)

/* A ULEB128 (or the bytes of an SLEB128) at *p before end; false where it runs past end or 64 bits. */
static bool leb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (unsigned int shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

static bool skip(const uint8_t **p, const uint8_t *end, uint64_t n)
{
	if ((uint64_t)(end - *p) < n)
		return false;
	*p += n;
	return true;
}

/* A register operand, then another LEB (an offset, or a second register when both_regs). */
static bool reg_and_leb(const uint8_t **p, const uint8_t *end, uint64_t *reg, bool both_regs)
{
	uint64_t b;

	if (!leb(p, end, reg) || !leb(p, end, &b))
		return false;
	if (both_regs && b > *reg)
		*reg = b;
	return true;
}

/* A block: its length, then its bytes (a DWARF expression, evaluated by libdw only at its frame). */
static bool block(const uint8_t **p, const uint8_t *end)
{
	uint64_t len;

	return leb(p, end, &len) && skip(p, end, len);
}

/* remember_state and restore_state counted: how many in the program, how deep. */
struct nesting {
	unsigned int depth, count;
};

/* The operands of an op below 0x40: *reg the highest register it names (0: none). */
static enum cfi_verdict operands(uint8_t op, const uint8_t **p, const uint8_t *end, uint64_t *reg, struct nesting *n)
{
	uint64_t v;
	bool ok;

	switch (op) {
	case DW_CFA_nop:
	case DW_CFA_GNU_window_save:
		return CFI_OK;
	case DW_CFA_remember_state:
		return ++n->depth > CFI_NESTING_MAX || ++n->count > CFI_REMEMBER_MAX ? CFI_NESTING_DEEP : CFI_OK;
	case DW_CFA_restore_state:
		n->depth -= n->depth > 0;
		return CFI_OK;
	case DW_CFA_advance_loc1:
		ok = skip(p, end, 1);
		break;
	case DW_CFA_advance_loc2:
		ok = skip(p, end, 2);
		break;
	case DW_CFA_advance_loc4:
		ok = skip(p, end, 4);
		break;
	case DW_CFA_MIPS_advance_loc8:
		ok = skip(p, end, 8);
		break;
	case DW_CFA_def_cfa_offset:
	case DW_CFA_def_cfa_offset_sf:
	case DW_CFA_GNU_args_size:
		ok = leb(p, end, &v);
		break;
	case DW_CFA_restore_extended:
	case DW_CFA_undefined:
	case DW_CFA_same_value:
	case DW_CFA_def_cfa_register:
		ok = leb(p, end, reg);
		break;
	case DW_CFA_register:
		ok = reg_and_leb(p, end, reg, true);
		break;
	case DW_CFA_offset_extended:
	case DW_CFA_def_cfa:
	case DW_CFA_offset_extended_sf:
	case DW_CFA_def_cfa_sf:
	case DW_CFA_val_offset:
	case DW_CFA_val_offset_sf:
	case DW_CFA_GNU_negative_offset_extended:
		ok = reg_and_leb(p, end, reg, false);
		break;
	case DW_CFA_def_cfa_expression:
		ok = block(p, end);
		break;
	case DW_CFA_expression:
	case DW_CFA_val_expression:
		ok = leb(p, end, reg) && block(p, end);
		break;
	default:
		return CFI_MALFORMED; /* DW_CFA_set_loc too: its operand's size is the FDE's encoding */
	}
	return ok ? CFI_OK : CFI_MALFORMED;
}

enum cfi_verdict cfi_check_program(const uint8_t *p, size_t len)
{
	const uint8_t *end = p + len;
	struct nesting n = { 0 };

	if (len > CFI_PROGRAM_MAX)
		return CFI_PROGRAM_LONG;
	while (p < end) {
		uint8_t op = *p++;
		uint64_t reg = 0, off;
		enum cfi_verdict v = CFI_OK;

		if ((op & 0xc0) == DW_CFA_offset)
			reg = op & 0x3f, v = leb(&p, end, &off) ? CFI_OK : CFI_MALFORMED;
		else if ((op & 0xc0) == DW_CFA_restore)
			reg = op & 0x3f;
		else if ((op & 0xc0) != DW_CFA_advance_loc)
			v = operands(op, &p, end, &reg, &n);
		if (v != CFI_OK)
			return v;
		if (reg > CFI_REGISTER_MAX)
			return CFI_REGISTER_HIGH;
	}
	return CFI_OK;
}

/* Bytes of a pointer of encoding enc (its low 4 bits); 0 for one not decoded here (LEB128s). */
static size_t enc_size(uint8_t enc, size_t addr_size)
{
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
	case DW_EH_PE_signed:
		return addr_size;
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		return 2;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return 4;
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return 8;
	default:
		return 0;
	}
}

/* What a CIE tells of its FDEs: where their instructions start. */
struct cie_form {
	Dwarf_Off off; /* the CIE's offset + 1: 0 is an empty slot */
	size_t ptr; /* bytes of an FDE's initial location, and of its range */
	bool z; /* an augmentation length follows them */
};

/* The form of cie's FDEs; false where not decoded here (an augmentation other than GCC's "z[LPRSB]*"). */
static bool cie_form(const Dwarf_CIE *cie, bool eh, size_t addr_size, struct cie_form *f)
{
	const uint8_t *d = cie->augmentation_data, *end = d + cie->augmentation_data_size;
	const char *a = cie->augmentation;
	size_t n;

	f->ptr = addr_size;
	f->z = false;
	if (!eh || !a[0]) /* .debug_frame: addresses of the file's size */
		return !a[0];
	if (a[0] != 'z' || strnlen(a, 8) > 6)
		return false;
	f->z = true;
	for (a++; *a; a++) {
		if (*a == 'S' || *a == 'B')
			continue;
		if (d >= end)
			return false;
		if (*a == 'L')
			d++;
		else if (*a == 'R' && (f->ptr = enc_size(*d++, addr_size)))
			continue;
		else if (*a != 'P' || (*d & 0x70) == DW_EH_PE_aligned || !(n = enc_size(*d, addr_size)) ||
			 !skip(&d, end, 1 + n))
			return false;
	}
	return true;
}

/* The CFI sections being checked: their data, kind and what was read of them. */
struct cfi_scan {
	const unsigned char *ident; /* the file's: its byte order */
	Elf_Data *data;
	bool eh;
	size_t addr_size, work;
	struct cie_form seen[16]; /* the CIEs last seen, by offset */
	uint8_t *fdes; /* a bit per byte offset where an FDE starts (.eh_frame_hdr's check); NULL: not kept */
};

/* The form of the CIE at off: one seen, or read again (the bytes counted against CFI_CHECK_WORK_MAX). */
static enum cfi_verdict form_of(struct cfi_scan *s, Dwarf_Off off, struct cie_form **f)
{
	Dwarf_CFI_Entry e;
	Dwarf_Off next;
	enum cfi_verdict v;

	*f = &s->seen[off % 16];
	if ((*f)->off == off + 1)
		return CFI_OK;
	if (dwarf_next_cfi(s->ident, s->data, s->eh, off, &next, &e) || !dwarf_cfi_cie_p(&e) || next <= off)
		return CFI_MALFORMED;
	s->work += next - off;
	if (s->work > CFI_CHECK_WORK_MAX)
		return CFI_TOO_COSTLY;
	if (!cie_form(&e.cie, s->eh, s->addr_size, *f))
		return CFI_MALFORMED;
	v = cfi_check_program(e.cie.initial_instructions,
			      (size_t)(e.cie.initial_instructions_end - e.cie.initial_instructions));
	if (v != CFI_OK) /* a CIE the walk did not meet (inside another entry): libdw would run it */
		return v;
	(*f)->off = off + 1;
	return CFI_OK;
}

/* An FDE's instructions, past its location, range and augmentation. */
static enum cfi_verdict check_fde(struct cfi_scan *s, const Dwarf_FDE *fde)
{
	const uint8_t *p = fde->start;
	struct cie_form *f;
	enum cfi_verdict v = form_of(s, fde->CIE_pointer, &f);
	uint64_t len;

	if (v != CFI_OK)
		return v;
	if (!skip(&p, fde->end, 2 * f->ptr) || (f->z && (!leb(&p, fde->end, &len) || !skip(&p, fde->end, len))))
		return CFI_MALFORMED;
	return cfi_check_program(p, (size_t)(fde->end - p));
}

/* Every entry of one section, once each. */
static enum cfi_verdict check_section(struct cfi_scan *s)
{
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;
	int r;

	while (!(r = dwarf_next_cfi(s->ident, s->data, s->eh, off, &next, &e))) {
		enum cfi_verdict v;

		if (next <= off)
			return CFI_MALFORMED;
		if (dwarf_cfi_cie_p(&e)) {
			v = cfi_check_program(e.cie.initial_instructions,
					      (size_t)(e.cie.initial_instructions_end - e.cie.initial_instructions));
		} else {
			v = check_fde(s, &e.fde);
			if (s->fdes)
				s->fdes[off / 8] |= (uint8_t)(1u << (off % 8));
		}
		if (v != CFI_OK)
			return v;
		off = next;
	}
	return r < 0 ? CFI_MALFORMED : CFI_OK;
}

enum cfi_verdict cfi_check_frames(const void *buf, size_t size, bool eh)
{
	static const unsigned char ident[EI_NIDENT] = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB };
	Elf_Data data = { .d_buf = (void *)buf, .d_type = ELF_T_BYTE, .d_size = size, .d_version = EV_CURRENT };
	struct cfi_scan s = { .ident = ident, .data = &data, .eh = eh, .addr_size = 8 };

	return check_section(&s);
}

/* A 4-byte field of the file's byte order. */
static uint32_t read32(const struct cfi_scan *s, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return s->ident[EI_DATA] == ELFDATA2MSB ? __builtin_bswap32(v) : v;
}

/*
 * .eh_frame_hdr: libdw looks an address up in its table, whose entries point
 * into .eh_frame; each must point at an FDE the scan read (not into the middle
 * of an entry, where bytes the scan took as operands would be read as an FDE).
 * Only the form the linkers write: .eh_frame by pc-relative sdata4, a udata4
 * count, a table of datarel sdata4 pairs (or none).
 */
static enum cfi_verdict check_hdr(const struct cfi_scan *s, Elf_Data *hdr, uint64_t hdr_addr, uint64_t eh_addr)
{
	const uint8_t *p = hdr->d_buf;
	uint64_t n, off;

	if (hdr->d_size < 8 || p[0] != 1 || p[1] != (DW_EH_PE_pcrel | DW_EH_PE_sdata4) ||
	    hdr_addr + 4 + (int32_t)read32(s, p + 4) != eh_addr)
		return CFI_MALFORMED;
	if (p[3] == DW_EH_PE_omit)
		return CFI_OK;
	if (hdr->d_size < 12 || p[2] != DW_EH_PE_udata4 || p[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
		return CFI_MALFORMED;
	n = read32(s, p + 8);
	if (n > (hdr->d_size - 12) / 8)
		return CFI_MALFORMED;
	for (uint64_t i = 0; i < n; i++) {
		off = hdr_addr + (int32_t)read32(s, p + 12 + 8 * i + 4) - eh_addr;
		if (off >= s->data->d_size || !(s->fdes[off / 8] & (1u << (off % 8))))
			return CFI_MALFORMED;
	}
	return CFI_OK;
}

/* The sections libdw reads CFI from, as it finds them (by name). */
struct cfi_sections {
	Elf_Scn *eh, *hdr;
	GElf_Shdr eh_sh, hdr_sh;
	size_t n_eh, n_hdr;
};

/* .eh_frame, and .eh_frame_hdr where there is one; the FDEs' offsets marked for it. */
static enum cfi_verdict check_eh_frame(struct cfi_scan *s, const struct cfi_sections *c)
{
	enum cfi_verdict v;
	Elf_Data *hdr;

	s->eh = true;
	memset(s->seen, 0, sizeof(s->seen));
	if (c->eh_sh.sh_type == SHT_NOBITS || (c->eh_sh.sh_flags & SHF_COMPRESSED) ||
	    c->eh_sh.sh_size > ELF_TABLE_MAX || !(s->data = elf_getdata(c->eh, NULL)) ||
	    !(s->fdes = calloc(1, s->data->d_size / 8 + 1)))
		return CFI_MALFORMED; /* not read here: libdw is not to read it either */
	v = check_section(s);
	if (v == CFI_OK && c->hdr)
		v = c->hdr_sh.sh_type == SHT_NOBITS || c->hdr_sh.sh_size > ELF_TABLE_MAX ||
				    !(hdr = elf_getdata(c->hdr, NULL)) ?
			    CFI_MALFORMED :
			    check_hdr(s, hdr, c->hdr_sh.sh_addr, c->eh_sh.sh_addr);
	free(s->fdes);
	s->fdes = NULL;
	return v;
}

/* Each .debug_frame (read by libdw where .eh_frame leaves a frame unwound). */
static enum cfi_verdict check_debug_frame(struct cfi_scan *s, Elf_Scn *scn, const GElf_Shdr *sh)
{
	s->eh = false;
	memset(s->seen, 0, sizeof(s->seen));
	if (sh->sh_type == SHT_NOBITS || (sh->sh_flags & SHF_COMPRESSED) || sh->sh_size > ELF_TABLE_MAX ||
	    !(s->data = elf_getdata(scn, NULL)))
		return CFI_MALFORMED;
	return check_section(s);
}

/* Whether e has a PT_GNU_EH_FRAME: libdw reads CFI through it where no section is named .eh_frame. */
static bool has_eh_segment(Elf *e)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &n))
		return false;
	for (size_t i = 0; i < n && i < 4096; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_GNU_EH_FRAME)
			return true;
	return false;
}

enum cfi_verdict cfi_check_elf(Elf *e)
{
	struct cfi_scan s = { .addr_size = gelf_getclass(e) == ELFCLASS32 ? 4 : 8 };
	struct cfi_sections c = { 0 };
	enum cfi_verdict v = CFI_NONE;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	s.ident = (const unsigned char *)elf_getident(e, NULL);
	if (!s.ident)
		return CFI_NONE;
	if (elf_getshdrstrndx(e, &shstrndx))
		return has_eh_segment(e) ? CFI_MALFORMED : CFI_NONE;
	while ((scn = elf_nextscn(e, scn)) && (v == CFI_OK || v == CFI_NONE)) {
		const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;

		if (name && !strcmp(name, ".eh_frame") && !c.n_eh++)
			c.eh = scn, c.eh_sh = sh;
		else if (name && !strcmp(name, ".eh_frame_hdr") && !c.n_hdr++)
			c.hdr = scn, c.hdr_sh = sh;
		else if (name && !strcmp(name, ".debug_frame"))
			v = check_debug_frame(&s, scn, &sh);
	}
	if (v != CFI_OK && v != CFI_NONE)
		return v;
	if (c.n_eh > 1 || c.n_hdr > 1 || (c.hdr && !c.eh) || (!c.eh && has_eh_segment(e)))
		return CFI_MALFORMED; /* CFI libdw could find another way than the one checked */
	return c.eh ? check_eh_frame(&s, &c) : v;
}

const char *cfi_verdict_text(enum cfi_verdict v)
{
	switch (v) {
	case CFI_OK:
	case CFI_NONE:
		return "";
	case CFI_PROGRAM_LONG:
		return "a CFI program over " CFI_STR(CFI_PROGRAM_MAX) " bytes";
	case CFI_REGISTER_HIGH:
		return "a CFI register past " CFI_STR(CFI_REGISTER_MAX);
	case CFI_NESTING_DEEP:
		return "CFI states nested over " CFI_STR(CFI_NESTING_MAX) " deep";
	case CFI_MALFORMED:
		return "CFI not decoded";
	case CFI_TOO_COSTLY:
		return "CFI too costly to check";
	}
	return "";
}
