/* The unwinder's ELF files and regions (engine/unwind-priv.h): each file
 * mapped read-only by libelf, in an LRU of UW_FILES (files that cannot be
 * used are remembered too, so that they are not opened again on every
 * sample), its PT_LOAD segments and the binary search table of its
 * .eh_frame_hdr; each region where one file lies in the address space (its
 * load bias and extent), learnt from a mapping.  Regions outlive the unwind
 * that found them because libunwind's cached rules may hold addresses in
 * .eh_frame (DWARF expressions) that it reads later without asking
 * find_proc_info again; forgetting a region or a file therefore flushes
 * libunwind's cache too (flush_pending). */
#include "engine/unwind-priv.h"

#include "engine/symbols.h"

#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/* .eh_frame_hdr encodings (LSB: Linux Standard Base Core, "Exception Frames") */
#define DW_EH_PE_omit 0xff
#define DW_EH_PE_datarel_sdata4 0x3b

/* ---- files ---------------------------------------------------------- */

static void regions_drop_file(struct unwinder *u, const struct uw_file *f)
{
	for (unsigned i = 0; i < UW_REGIONS; i++)
		if (u->regions[i].file == f)
			u->regions[i].file = NULL;
}

void uw_file_close(struct unwinder *u, struct uw_file *f)
{
	if (!f->path)
		return;
	regions_drop_file(u, f);
	u->flush_pending = true;
	if (f->elf)
		elf_end(f->elf);
	free(f->copy);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

/* The kernel maps the same vDSO into every process of our ABI: our own
 * image stands for the target's.  Its extent: the section headers are last. */
static unsigned char *vdso_copy(size_t *size)
{
	const unsigned char *base = (const void *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;
	size_t n;
	unsigned char *copy;

	if (!base)
		return NULL;
	memcpy(&eh, base, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	n = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	if (n < sizeof(eh) || n > (1 << 20) || !(copy = malloc(n)))
		return NULL;
	memcpy(copy, base, n);
	*size = n;
	return copy;
}

/* libelf maps the file read-only (ELF_C_READ_MMAP); the descriptor is not
 * needed afterwards (ELF_C_FDDONE), so cached files cost no descriptors. */
static Elf *elf_open(const struct unwinder *u, struct uw_file *f)
{
	Elf *elf = NULL;
	int fd;

	if (strcmp(f->path, "[vdso]") == 0) {
		f->copy = vdso_copy(&f->size);
		return f->copy ? elf_memory((char *)f->copy, f->size) : NULL;
	}
	if (!symbols_is_file_path(f->path))
		return NULL;
	fd = u->open ? u->open(u->open_arg, f->path) : symbols_open_regular(f->path);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && (elf_kind(elf) != ELF_K_ELF || !elf_rawfile(elf, NULL) ||
		    elf_cntl(elf, ELF_C_FDDONE) != 0)) {
		elf_end(elf);
		elf = NULL;
	}
	close(fd);
	return elf;
}

static void load_segments(struct uw_file *f)
{
	size_t n;

	f->lo = UINT64_MAX;
	if (elf_getphdrnum(f->elf, &n) != 0)
		return;
	for (size_t i = 0; i < n && f->nsegs < UW_SEGS; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    ph.p_filesz > ph.p_memsz || ph.p_offset > f->size ||
		    ph.p_filesz > f->size - ph.p_offset)
			continue;
		f->segs[f->nsegs++] = (struct uw_seg){ ph.p_vaddr, ph.p_memsz, ph.p_offset,
						       ph.p_filesz, (ph.p_flags & PF_X) != 0 };
		if (ph.p_vaddr < f->lo)
			f->lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > f->hi)
			f->hi = ph.p_vaddr + ph.p_memsz;
	}
}

/* The size of a DW_EH_PE_* fixed-size encoding; 0 for variable sizes. */
static unsigned eh_pe_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case 0x00: return 8;                 /* absptr */
	case 0x02: case 0x0a: return 2;      /* udata2, sdata2 */
	case 0x03: case 0x0b: return 4;      /* udata4, sdata4 */
	case 0x04: case 0x0c: return 8;      /* udata8, sdata8 */
	default: return 0;                   /* uleb128, sleb128 */
	}
}

/* .eh_frame_hdr: version 1, eh_frame_ptr_enc, fde_count_enc, table_enc,
 * eh_frame_ptr, fde_count, then fde_count pairs of datarel sdata4
 * (initial location, FDE address) sorted by location: the only table form
 * libunwind searches. */
static void parse_eh_frame_hdr(struct uw_file *f, uint64_t off, uint64_t vaddr, uint64_t len)
{
	const unsigned char *h = f->image + off;
	unsigned ptr_size, count_size;
	uint64_t count = 0, table_off;

	if (off > f->size || len > f->size - off || len < 4 || h[0] != 1 ||
	    h[2] == DW_EH_PE_omit || (h[2] & 0x70) != 0 || h[3] != DW_EH_PE_datarel_sdata4)
		return;
	ptr_size = eh_pe_size(h[1]);
	count_size = eh_pe_size(h[2]);
	table_off = 4 + (uint64_t)ptr_size + count_size;
	if (h[1] == DW_EH_PE_omit || !ptr_size || !count_size || table_off > len)
		return;
	memcpy(&count, h + 4 + ptr_size, count_size);   /* little-endian */
	if (count > (len - table_off) / 8)
		return;
	f->hdr_vaddr = vaddr;
	f->table_vaddr = vaddr + table_off;
	f->fde_count = count;
}

/* PT_GNU_EH_FRAME, else a section named .eh_frame_hdr. */
static void find_eh_frame_hdr(struct uw_file *f)
{
	size_t n, shstr;
	Elf_Scn *scn = NULL;

	if (elf_getphdrnum(f->elf, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(f->elf, (int)i, &ph) && ph.p_type == PT_GNU_EH_FRAME) {
				parse_eh_frame_hdr(f, ph.p_offset, ph.p_vaddr, ph.p_filesz);
				return;
			}
		}
	}
	if (elf_getshdrstrndx(f->elf, &shstr) != 0)
		return;
	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (name = elf_strptr(f->elf, shstr, sh.sh_name)) &&
		    strcmp(name, ".eh_frame_hdr") == 0) {
			parse_eh_frame_hdr(f, sh.sh_offset, sh.sh_addr, sh.sh_size);
			return;
		}
	}
}

/* Fills F for PATH; an unusable file keeps elf NULL. */
static void file_open(const struct unwinder *u, struct uw_file *f, const char *path,
		      uint64_t hash)
{
	GElf_Ehdr eh;

	f->path = strdup(path);
	f->hash = hash;
	if (!f->path || !(f->elf = elf_open(u, f)))
		return;
	f->image = (const unsigned char *)elf_rawfile(f->elf, &f->size);
	if (!f->image || !gelf_getehdr(f->elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != UW_MACHINE) {
		elf_end(f->elf);
		f->elf = NULL;
		return;
	}
	load_segments(f);
	find_eh_frame_hdr(f);
}

/* The cached file PATH, opened on first use; NULL if it is no usable ELF. */
static struct uw_file *file_get(struct unwinder *u, const char *path)
{
	uint64_t h = hash_str(path);
	struct uw_file *victim = &u->files[0];

	for (unsigned i = 0; i < UW_FILES; i++) {
		struct uw_file *f = &u->files[i];
		if (f->path && f->hash == h && strcmp(f->path, path) == 0) {
			f->stamp = ++u->clock;
			return f->elf ? f : NULL;
		}
		if (!f->path || (victim->path && f->stamp < victim->stamp))
			victim = f;
	}
	uw_file_close(u, victim);
	file_open(u, victim, path, h);
	victim->stamp = ++u->clock;
	if (!victim->path) {     /* out of memory: leave the slot free */
		uw_file_close(u, victim);
		return NULL;
	}
	return victim->elf ? victim : NULL;
}

/* Copies LEN bytes at VADDR of F's memory image.  The first byte must lie
 * in a segment; bytes past it read as zero, as libunwind reads aligned
 * words that may overhang the end of .eh_frame. */
bool uw_image_read(const struct uw_file *f, uint64_t vaddr, void *dst, size_t len)
{
	unsigned char *out = dst;

	memset(dst, 0, len);
	for (unsigned i = 0; i < f->nsegs; i++) {
		const struct uw_seg *sg = &f->segs[i];
		if (vaddr < sg->vaddr || vaddr - sg->vaddr >= sg->memsz)
			continue;
		uint64_t in = vaddr - sg->vaddr;
		if (in < sg->filesz) {   /* beyond filesz is .bss: zero */
			uint64_t n = sg->filesz - in;
			memcpy(out, f->image + sg->offset + in, n < len ? n : len);
		}
		return true;
	}
	return false;
}

/* ---- regions -------------------------------------------------------- */

/* The load bias of F mapped at M: file offset pgoff lies at vaddr
 * p_vaddr + (pgoff - p_offset) of the PT_LOAD segment holding it (the
 * executable one if several share the page) and at runtime address
 * m->start.  Unsigned wrap-around is intended (pgoff may be < p_offset). */
static bool load_bias(const struct unwinder *u, const struct uw_file *f,
		      const struct unwind_map *m, uint64_t *bias)
{
	const struct uw_seg *best = NULL;

	for (unsigned i = 0; i < f->nsegs; i++) {
		const struct uw_seg *sg = &f->segs[i];
		if (m->pgoff < sg->offset - sg->offset % u->page ||
		    m->pgoff >= sg->offset + sg->filesz)
			continue;
		if (!best || (sg->exec && !best->exec))
			best = sg;
	}
	if (best)
		*bias = m->start - (best->vaddr + (m->pgoff - best->offset));
	return best != NULL;
}

/* Records that F lies at BIAS.  A region that overlaps it belongs to an
 * address space gone (the caller did not flush): it goes. */
static struct uw_region *region_note(struct unwinder *u, struct uw_file *f, uint64_t bias)
{
	uint64_t start = f->lo + bias, end = f->hi + bias;
	struct uw_region *slot = NULL;

	for (unsigned i = 0; i < UW_REGIONS; i++) {
		struct uw_region *r = &u->regions[i];
		if (r->file == f && r->bias == bias)
			return r;
		if (r->file && r->start < end && start < r->end) {
			r->file = NULL;
			u->flush_pending = true;
		}
		if (!r->file && !slot)
			slot = r;
	}
	if (!slot) {
		slot = &u->regions[u->region_next];
		u->region_next = (u->region_next + 1) % UW_REGIONS;
		u->flush_pending = true;
	}
	*slot = (struct uw_region){ start, end, bias, f };
	return slot;
}

/* The region of the file mapped at M, opening the file if needed. */
struct uw_region *uw_region_for_map(struct uw_ctx *c, const struct unwind_map *m)
{
	struct uw_file *f;
	struct uw_region *r;
	uint64_t bias;

	r = uw_region_of(c, m->start);
	if (r && r->file->hash == hash_str(m->path) && strcmp(r->file->path, m->path) == 0 &&
	    load_bias(c->u, r->file, m, &bias) && bias == r->bias)
		return r;
	f = file_get(c->u, m->path);
	if (!f || f->nsegs == 0 || !load_bias(c->u, f, m, &bias))
		return NULL;
	return c->last = region_note(c->u, f, bias);
}
