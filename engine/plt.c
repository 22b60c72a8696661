/* PLT stubs: a synthetic NAME@plt function for each entry of the PLT
 * sections, named by the dynamic relocation of the GOT slot it jumps
 * through (see engine/symbols-priv.h). */
#include "engine/symbols-priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A GOT slot that PLT entries jump through, from the dynamic relocations:
 * JUMP_SLOT (.rela.plt), GLOB_DAT (.rela.dyn: the .plt.got entries) and
 * IRELATIVE (a local ifunc, no symbol: objdump's *ABS*+0xADDR@plt). */
struct got_slot {
	uint64_t got, addend;
	const char *name;  /* the symbol's; NULL for IRELATIVE */
};

static int slot_cmp(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

static bool is_plt_section(const char *name)
{
	return name && (strcmp(name, ".plt") == 0 || strcmp(name, ".plt.sec") == 0 ||
			strcmp(name, ".plt.got") == 0);
}

/* The kind of a dynamic relocation of MACHINE's: 1 a named GOT slot
 * (JUMP_SLOT, GLOB_DAT), 2 an IRELATIVE one, 0 another. */
static int slot_kind(uint16_t machine, uint64_t type)
{
	if (machine == EM_AARCH64)
		return type == R_AARCH64_JUMP_SLOT || type == R_AARCH64_GLOB_DAT ? 1
		       : type == R_AARCH64_IRELATIVE ? 2 : 0;
	return type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT ? 1
	       : type == R_X86_64_IRELATIVE ? 2 : 0;
}

/* The relocation section SCN's slots, appended to OUT (room for them all). */
static size_t rela_slots(Elf *elf, uint16_t machine, Elf_Scn *scn, const GElf_Shdr *sh,
			 struct got_slot *out)
{
	Elf_Scn *symscn = elf_getscn(elf, sh->sh_link);
	GElf_Shdr symsh;
	Elf_Data *d = elf_getdata(scn, NULL), *syms;
	size_t k = 0;

	if (!d || !symscn || !gelf_getshdr(symscn, &symsh) || symsh.sh_type != SHT_DYNSYM ||
	    !(syms = elf_getdata(symscn, NULL)))
		return 0;
	for (int i = 0; (size_t)i < sh->sh_size / sh->sh_entsize; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name = NULL;
		if (!gelf_getrela(d, i, &r))
			break;
		switch (slot_kind(machine, GELF_R_TYPE(r.r_info))) {
		case 1:
			if (!gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym) ||
			    !(name = elf_strptr(elf, symsh.sh_link, sym.st_name)) || !name[0])
				continue;
			break;
		case 2:
			break;
		default:
			continue;
		}
		out[k++] = (struct got_slot){ r.r_offset, (uint64_t)r.r_addend, name };
	}
	return k;
}

/* Every GOT slot of the ELF's dynamic relocations, sorted; N in *N. */
static struct got_slot *got_slots(Elf *elf, uint16_t machine, size_t *n)
{
	struct got_slot *s = NULL;
	size_t cap = 0;

	*n = 0;
	for (int pass = 0; pass < 2; pass++) {  /* count, then fill */
		for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize)
				continue;
			if (pass == 0)
				cap += sh.sh_size / sh.sh_entsize;
			else
				*n += rela_slots(elf, machine, scn, &sh, s + *n);
		}
		if (pass == 0 && (cap == 0 || !(s = malloc(cap * sizeof(*s)))))
			return NULL;
	}
	qsort(s, *n, sizeof(*s), slot_cmp);
	return s;
}

static const struct got_slot *find_slot(const struct got_slot *s, size_t n, uint64_t got)
{
	struct got_slot key = { .got = got };

	return bsearch(&key, s, n, sizeof(*s), slot_cmp);
}

/* The GOT slot the x86-64 PLT entry P (LEN bytes at vaddr ADDR) jumps
 * through: the operand of its `jmp *disp32(%rip)` (ff 25), after an
 * endbr64 and a bnd prefix in IBT entries.  PLT0's jump reads a GOT slot
 * without relocation, and IBT .plt entries jump to PLT0: both stay
 * unnamed, as objdump leaves them. */
static bool plt_entry_got_x86(const uint8_t *p, size_t len, uint64_t addr, uint64_t *got)
{
	for (size_t i = 0; i + 6 <= len; i++) {
		if (p[i] != 0xff || p[i + 1] != 0x25)
			continue;
		uint32_t disp = (uint32_t)p[i + 2] | (uint32_t)p[i + 3] << 8 |
				(uint32_t)p[i + 4] << 16 | (uint32_t)p[i + 5] << 24;
		*got = addr + i + 6 + (uint64_t)(int64_t)(int32_t)disp;
		return true;
	}
	return false;
}

/* The GOT slot the AArch64 PLT entry P (LEN bytes at vaddr ADDR) loads:
 * `adrp x16, PAGE; ldr x17, [x16, #OFF]` (binutils' elfNN-aarch64.c
 * elfNN_aarch64_small_plt_entry, after a `bti c` in BTI entries) reads
 * PAGE + OFF.  PLT0 loads a slot without relocation: unnamed, as perf and
 * objdump leave it. */
static bool plt_entry_got_arm64(const uint8_t *p, size_t len, uint64_t addr, uint64_t *got)
{
	for (size_t i = 0; i + 8 <= len; i += 4) {
		uint32_t adrp = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
				(uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
		uint32_t ldr = (uint32_t)p[i + 4] | (uint32_t)p[i + 5] << 8 |
			       (uint32_t)p[i + 6] << 16 | (uint32_t)p[i + 7] << 24;
		/* ADRP: op 1, bits 28-24 10000; LDR (immediate, unsigned offset), 64-bit */
		if ((adrp & 0x9f000000u) != 0x90000000u || (ldr & 0xffc00000u) != 0xf9400000u)
			continue;
		int64_t imm = (int64_t)((((adrp >> 5) & 0x7ffff) << 2) | ((adrp >> 29) & 3));
		if (imm & (1 << 20))
			imm -= 1 << 21;  /* 21-bit signed page count */
		*got = ((addr + i) & ~0xfffull) + (uint64_t)(imm * 4096) +
		       (uint64_t)((ldr >> 10) & 0xfff) * 8;
		return true;
	}
	return false;
}

static bool plt_entry_got(uint16_t machine, const uint8_t *p, size_t len, uint64_t addr,
			  uint64_t *got)
{
	return machine == EM_AARCH64 ? plt_entry_got_arm64(p, len, addr, got)
				     : plt_entry_got_x86(p, len, addr, got);
}

/* SLOT's PLT entry [START, START + SIZE): NAME@plt of its symbol (named
 * on its first lookup, func_shown), or "*ABS*+0xADDEND@plt" interned in
 * POOL; false when out of memory. */
static bool plt_func(struct strpool *pool, const struct got_slot *slot, uint64_t start,
		     uint64_t size, struct func_sym *s)
{
	char abs[64];

	*s = (struct func_sym){ .start = start, .end = start + size, .name = slot->name,
				.idx = UINT32_MAX, .bind = STB_LOCAL, .kind = FUNC_PLT };
	if (slot->name)
		return true;
	snprintf(abs, sizeof(abs), "*ABS*+0x%" PRIx64 "@plt", slot->addend);
	s->kind = FUNC_NAMED;
	return (s->name = strpool_intern(pool, abs)) != NULL;
}

/* The entries of PLT section SCN named by SLOTS, appended to S. */
static size_t plt_funcs(struct strpool *pool, uint16_t machine, Elf_Scn *scn,
			const GElf_Shdr *sh, Dwarf_Addr bias, const struct got_slot *slots,
			size_t nslots, struct func_sym *s)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	uint64_t ent = sh->sh_entsize ? sh->sh_entsize : 16, got;
	size_t k = 0;

	if (!d || !d->d_buf)
		return 0;
	for (uint64_t off = 0; off + ent <= d->d_size; off += ent) {
		const struct got_slot *slot;
		if (plt_entry_got(machine, (const uint8_t *)d->d_buf + off, ent, sh->sh_addr + off,
				  &got) &&
		    (slot = find_slot(slots, nslots, got)) &&
		    plt_func(pool, slot, sh->sh_addr + off + bias, ent, &s[k]))
			k++;
	}
	return k;
}

/* How many entries the ELF's PLT sections have at most. */
size_t plt_capacity(Elf *elf)
{
	size_t shstrndx, n = 0;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    is_plt_section(elf_strptr(elf, shstrndx, sh.sh_name)))
			n += sh.sh_size / (sh.sh_entsize ? sh.sh_entsize : 16);
	}
	return n;
}

/* Synthetic NAME@plt functions for the PLT stubs of an x86-64 ELF, as
 * objdump names them (.plt, .plt.sec of IBT builds, .plt.got), or of an
 * AArch64 one (.plt, as perf's dso__synthesize_plt_symbols names them):
 * each entry is matched to the dynamic relocation of the GOT slot it jumps
 * through.  Appended to S, which has room for plt_capacity(ELF) more. */
size_t add_plt_funcs(struct strpool *pool, Elf *elf, Dwarf_Addr bias, struct func_sym *s)
{
	GElf_Ehdr eh;
	size_t shstrndx, nslots, k = 0;
	struct got_slot *slots;

	if (!gelf_getehdr(elf, &eh) || (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    !(slots = got_slots(elf, eh.e_machine, &nslots)))
		return 0;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    is_plt_section(elf_strptr(elf, shstrndx, sh.sh_name)))
			k += plt_funcs(pool, eh.e_machine, scn, &sh, bias, slots, nslots, s + k);
	}
	free(slots);
	return k;
}

/* Whether IP lies in a PLT section: its stubs are named (add_plt_funcs),
 * and PLT0, under the same FDE, belongs to no function (objdump labels it
 * from its neighbour).  The main ELF's section headers, not
 * dwfl_module_address_section: that loads the module's whole DWARF first
 * (libdwfl's check_module), and with libc6-dbg installed decompresses
 * libc's debug sections, 6-10 MB in every process's Dwfl (a storm of short
 * processes held hundreds of MB, longrun-syswide.sh on Debian 13). */
bool in_plt(Dwfl_Module *dm, uint64_t ip)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(dm, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_type != SHT_NOBITS &&
		    ip - bias >= sh.sh_addr && ip - bias < sh.sh_addr + sh.sh_size) {
			const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
			return name && is_plt_section(name);
		}
	return false;
}
