/* DWARF unwinding of sampled user stacks with libunwind (see unwind.h).
 *
 * Method: libunwind's remote interface (libunwind(3), unw_create_addr_space(3),
 * unw_init_remote(3), unw_step(3)), used as perf's dwarf mode uses it
 * (tools/perf/util/unwind-libunwind-local.c):
 *  - find_proc_info: the IP's mapping, its ELF file, and the binary search
 *    table of the file's .eh_frame_hdr handed to libunwind as a remote table
 *    (UNW_INFO_FORMAT_REMOTE_TABLE) that it searches through access_mem;
 *  - access_mem: the stack copy for [SP, SP + dyn_size), else the image of
 *    a known file (eh_frame, code, data) at the address less its load bias;
 *  - access_reg: libunwind's registers (x86_64 or aarch64, the host's)
 *    from perf's packed sample registers.
 * With UNW_CACHE_GLOBAL libunwind keeps the register rules of each IP it
 * has seen, but takes a signal-blocking lock for them on every step; so
 * each IP's rule is learnt from libunwind once and replayed here when it is
 * a plain one ("learnt steps" below), and a warm unwind costs a few stack
 * reads per frame without a system call.
 *
 * Layout:
 *  - struct uw_file: one ELF file mapped read-only by libelf, in an LRU of
 *    UW_FILES; files that cannot be used are remembered as well, so that they
 *    are not opened again on every sample.
 *  - struct uw_region: where one file lies in the address space (its load
 *    bias and extent), learnt from a mapping.  Regions outlive the unwind
 *    that found them because libunwind's cached rules may hold addresses in
 *    .eh_frame (DWARF expressions) that it reads later without asking
 *    find_proc_info again; forgetting a region or a file therefore flushes
 *    libunwind's cache too.
 *
 * .debug_frame: libunwind 1.6.2 as built for x86_64 exports no
 * dwarf_find_debug_frame, and its UNW_INFO_FORMAT_TABLE path wants a private
 * struct (unw_debug_frame_list) in local memory; code with .debug_frame but
 * no .eh_frame (rare: -fno-asynchronous-unwind-tables) ends the stack, as
 * "no unwind info", truncated. */
#include "engine/unwind.h"

#include "lib/hashtab.h"
#include "engine/symbols.h"

#include <asm/perf_regs.h>
#include <fcntl.h>
#include <gelf.h>
#include <libunwind.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

/* Exported by libunwind but declared in none of its headers. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
					      unw_dyn_info_t *di, unw_proc_info_t *pi,
					      int need_unwind_info, void *arg);

/* libunwind is built for the host: its registers, the ELF files whose
 * code they run (others are not unwound), the stack pointer's perf number. */
#if defined(__x86_64__)
#define UW_MACHINE EM_X86_64
#define PERF_REG_SP PERF_REG_X86_SP
#define PERF_REG_FP PERF_REG_X86_BP
#define PERF_REG_PC PERF_REG_X86_IP
#define UNW_FP UNW_X86_64_RBP   /* the frame pointer, libunwind's number */
#define UNW_SP UNW_X86_64_RSP
#define UNW_PC UNW_X86_64_RIP
#elif defined(__aarch64__)
#define UW_MACHINE EM_AARCH64
#define PERF_REG_SP PERF_REG_ARM64_SP
#define PERF_REG_FP PERF_REG_ARM64_X29
#define PERF_REG_PC PERF_REG_ARM64_PC
#define UNW_FP UNW_AARCH64_X29
#define UNW_SP UNW_AARCH64_SP
#define UNW_PC UNW_AARCH64_PC
#else
#error "engine/unwind.c: no perf register mapping for this architecture"
#endif

#define UW_FILES 64
#define UW_REGIONS 64
#define UW_SEGS 16
#define UW_RULES_CACHE 4096   /* libunwind's rule cache, in IPs */

/* .eh_frame_hdr encodings (LSB: Linux Standard Base Core, "Exception Frames") */
#define DW_EH_PE_omit 0xff
#define DW_EH_PE_datarel_sdata4 0x3b

struct uw_seg {              /* a PT_LOAD segment */
	uint64_t vaddr, memsz, offset, filesz;
	bool exec;
};

struct uw_file {
	char *path;                  /* NULL: a free slot */
	uint64_t hash, stamp;        /* stamp: last use, for the LRU */
	Elf *elf;                    /* NULL: not a usable ELF (remembered) */
	const unsigned char *image;  /* the whole file, mapped by libelf */
	size_t size;
	unsigned char *copy;         /* the vDSO: our own malloc'd copy */
	struct uw_seg segs[UW_SEGS];
	unsigned nsegs;
	uint64_t lo, hi;             /* the vaddr extent of the segments */
	uint64_t hdr_vaddr, table_vaddr, fde_count;  /* fde_count 0: no table */
};

struct uw_region {
	uint64_t start, end, bias;   /* runtime [start, end) = vaddr + bias */
	struct uw_file *file;        /* NULL: a free slot */
};

/* How one frame is left, as libunwind steps it (learnt by probing it: see
 * step_learn), for the frame whose IP (as walk reports it) is IP. */
struct uw_step {
	uint64_t ip;
	uint64_t map_start, map_pgoff;  /* the mapping IP was in: another there, the rule goes */
	uint8_t kind;                /* STEP_* */
	uint8_t seen;                /* STEP_SEEN: in how many frames libunwind stepped */
	bool sigret;                 /* the code at IP + 1 is the sigreturn sequence */
	bool bp_saved;               /* the caller's RBP at CFA + bp_off, else RBP as is */
	int32_t cfa_off, ra_off, bp_off;
};

struct uw_steps {
	struct uw_step *rules;
	size_t n, alloc;
	struct hashtab index;        /* ip -> rules[] */
};

struct unwinder {
	unw_addr_space_t as;
	uint64_t page, clock;
	bool flush_pending;          /* libunwind's rules may name forgotten memory */
	unsigned region_next;        /* the victim when every region is taken */
	struct uw_steps steps;       /* learnt step rules (see "learnt steps") */
	int (*open)(void *arg, const char *path);  /* unwinder_set_opener; NULL: the path */
	void *open_arg;
	struct uw_file files[UW_FILES];
	struct uw_region regions[UW_REGIONS];
};

/* One unwind_sample call: the ARG of every accessor. */
struct uw_ctx {
	struct unwinder *u;
	const struct rec_sample *s;
	unwind_find_map_fn find;
	void *find_arg;
	uint64_t sp;
	struct uw_region *last;      /* the region of the last file read */
	bool noinfo;                 /* find_proc_info found no unwind info */
	/* a frame reached through the frame pointer (fp_step): its IP, SP
	 * and FP stand in for the sample's registers */
	bool fp_frame;
	uint64_t fp_ip, fp_sp, fp_fp;
};

static void steps_clear(struct uw_steps *t);

/* ---- files ---------------------------------------------------------- */

static void regions_drop_file(struct unwinder *u, const struct uw_file *f)
{
	for (unsigned i = 0; i < UW_REGIONS; i++)
		if (u->regions[i].file == f)
			u->regions[i].file = NULL;
}

static void file_close(struct unwinder *u, struct uw_file *f)
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
	file_close(u, victim);
	file_open(u, victim, path, h);
	victim->stamp = ++u->clock;
	if (!victim->path) {     /* out of memory: leave the slot free */
		file_close(u, victim);
		return NULL;
	}
	return victim->elf ? victim : NULL;
}

/* Copies LEN bytes at VADDR of F's memory image.  The first byte must lie
 * in a segment; bytes past it read as zero, as libunwind reads aligned
 * words that may overhang the end of .eh_frame. */
static bool image_read(const struct uw_file *f, uint64_t vaddr, void *dst, size_t len)
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

static struct uw_region *region_of(struct uw_ctx *c, uint64_t addr)
{
	struct uw_region *r = c->last;

	if (r && r->file && addr >= r->start && addr < r->end)
		return r;
	for (unsigned i = 0; i < UW_REGIONS; i++) {
		r = &c->u->regions[i];
		if (r->file && addr >= r->start && addr < r->end) {
			r->file->stamp = ++c->u->clock;   /* in use: not the LRU victim */
			return c->last = r;
		}
	}
	return NULL;
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
static struct uw_region *region_for_map(struct uw_ctx *c, const struct unwind_map *m)
{
	struct uw_file *f;
	struct uw_region *r;
	uint64_t bias;

	r = region_of(c, m->start);
	if (r && r->file->hash == hash_str(m->path) && strcmp(r->file->path, m->path) == 0 &&
	    load_bias(c->u, r->file, m, &bias) && bias == r->bias)
		return r;
	f = file_get(c->u, m->path);
	if (!f || f->nsegs == 0 || !load_bias(c->u, f, m, &bias))
		return NULL;
	return c->last = region_note(c->u, f, bias);
}

/* ---- libunwind accessors -------------------------------------------- */

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
			  int need_unwind_info, void *arg)
{
	struct uw_ctx *c = arg;
	const struct unwind_map *m = c->find(c->find_arg, ip);
	struct uw_region *r = m ? region_for_map(c, m) : NULL;
	unw_dyn_info_t di;
	int ret;

	if (!r || r->file->fde_count == 0) {
		c->noinfo = true;
		return -UNW_ENOINFO;
	}
	memset(&di, 0, sizeof(di));
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = m->start;
	di.end_ip = m->end;
	di.u.rti.segbase = r->file->hdr_vaddr + r->bias;
	di.u.rti.table_data = r->file->table_vaddr + r->bias;
	di.u.rti.table_len = r->file->fde_count * 8 / sizeof(unw_word_t);
	ret = UNW_OBJ(dwarf_search_unwind_table)(as, ip, &di, pi, need_unwind_info, c);
	if (ret < 0)
		c->noinfo = true;  /* else libunwind guesses from the frame pointer */
	return ret;
}

/* libunwind frees the unwind info of remote tables itself (put_unwind_info
 * in src/dwarf/Gparser.c). */
static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
	return -UNW_ENOINFO;   /* no dynamically registered unwind info */
}

static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
		      void *arg)
{
	struct uw_ctx *c = arg;
	const struct rec_sample *s = c->s;
	struct uw_region *r;
	const struct unwind_map *m;

	if (write)
		return -UNW_EINVAL;
	if (s->stack && addr >= c->sp && s->stack_size >= sizeof(*val) &&
	    addr - c->sp <= s->stack_size - sizeof(*val)) {
		memcpy(val, s->stack + (addr - c->sp), sizeof(*val));
		return 0;
	}
	r = region_of(c, addr);
	if (!r && (m = c->find(c->find_arg, addr)))
		r = region_for_map(c, m);
	if (r && image_read(r->file, addr - r->bias, val, sizeof(*val)))
		return 0;
	return -UNW_EINVAL;   /* e.g. the stack beyond the copy */
}

#if defined(__x86_64__)
/* libunwind's x86_64 register numbers to perf's (asm/perf_regs.h). */
static int perf_reg(unw_regnum_t reg)
{
	static const int8_t map[] = {
		[UNW_X86_64_RAX] = PERF_REG_X86_AX, [UNW_X86_64_RDX] = PERF_REG_X86_DX,
		[UNW_X86_64_RCX] = PERF_REG_X86_CX, [UNW_X86_64_RBX] = PERF_REG_X86_BX,
		[UNW_X86_64_RSI] = PERF_REG_X86_SI, [UNW_X86_64_RDI] = PERF_REG_X86_DI,
		[UNW_X86_64_RBP] = PERF_REG_X86_BP, [UNW_X86_64_RSP] = PERF_REG_X86_SP,
		[UNW_X86_64_R8] = PERF_REG_X86_R8,   [UNW_X86_64_R9] = PERF_REG_X86_R9,
		[UNW_X86_64_R10] = PERF_REG_X86_R10, [UNW_X86_64_R11] = PERF_REG_X86_R11,
		[UNW_X86_64_R12] = PERF_REG_X86_R12, [UNW_X86_64_R13] = PERF_REG_X86_R13,
		[UNW_X86_64_R14] = PERF_REG_X86_R14, [UNW_X86_64_R15] = PERF_REG_X86_R15,
		[UNW_X86_64_RIP] = PERF_REG_X86_IP,
	};

	return reg >= 0 && (size_t)reg < sizeof(map) ? map[reg] : -1;
}
#elif defined(__aarch64__)
/* libunwind's aarch64 register numbers to perf's (asm/perf_regs.h): both
 * follow the DWARF numbering, X0..X30, SP, PC (libunwind-aarch64.h). */
static int perf_reg(unw_regnum_t reg)
{
	static const int8_t map[] = {
		[UNW_AARCH64_X0] = PERF_REG_ARM64_X0,   [UNW_AARCH64_X1] = PERF_REG_ARM64_X1,
		[UNW_AARCH64_X2] = PERF_REG_ARM64_X2,   [UNW_AARCH64_X3] = PERF_REG_ARM64_X3,
		[UNW_AARCH64_X4] = PERF_REG_ARM64_X4,   [UNW_AARCH64_X5] = PERF_REG_ARM64_X5,
		[UNW_AARCH64_X6] = PERF_REG_ARM64_X6,   [UNW_AARCH64_X7] = PERF_REG_ARM64_X7,
		[UNW_AARCH64_X8] = PERF_REG_ARM64_X8,   [UNW_AARCH64_X9] = PERF_REG_ARM64_X9,
		[UNW_AARCH64_X10] = PERF_REG_ARM64_X10, [UNW_AARCH64_X11] = PERF_REG_ARM64_X11,
		[UNW_AARCH64_X12] = PERF_REG_ARM64_X12, [UNW_AARCH64_X13] = PERF_REG_ARM64_X13,
		[UNW_AARCH64_X14] = PERF_REG_ARM64_X14, [UNW_AARCH64_X15] = PERF_REG_ARM64_X15,
		[UNW_AARCH64_X16] = PERF_REG_ARM64_X16, [UNW_AARCH64_X17] = PERF_REG_ARM64_X17,
		[UNW_AARCH64_X18] = PERF_REG_ARM64_X18, [UNW_AARCH64_X19] = PERF_REG_ARM64_X19,
		[UNW_AARCH64_X20] = PERF_REG_ARM64_X20, [UNW_AARCH64_X21] = PERF_REG_ARM64_X21,
		[UNW_AARCH64_X22] = PERF_REG_ARM64_X22, [UNW_AARCH64_X23] = PERF_REG_ARM64_X23,
		[UNW_AARCH64_X24] = PERF_REG_ARM64_X24, [UNW_AARCH64_X25] = PERF_REG_ARM64_X25,
		[UNW_AARCH64_X26] = PERF_REG_ARM64_X26, [UNW_AARCH64_X27] = PERF_REG_ARM64_X27,
		[UNW_AARCH64_X28] = PERF_REG_ARM64_X28, [UNW_AARCH64_X29] = PERF_REG_ARM64_X29,
		[UNW_AARCH64_X30] = PERF_REG_ARM64_LR,  [UNW_AARCH64_SP] = PERF_REG_ARM64_SP,
		[UNW_AARCH64_PC] = PERF_REG_ARM64_PC,
	};

	return reg >= 0 && (size_t)reg < sizeof(map) ? map[reg] : -1;
}
#endif

/* Register R of the sample: the regs array holds one u64 per set bit of
 * the mask, in bit order. */
static bool sample_reg(const struct rec_sample *s, int r, uint64_t *val)
{
	uint64_t bit;
	unsigned idx;

	if (r < 0 || r > 63 || !(s->regs_user.mask & (bit = 1ULL << r)))
		return false;
	idx = (unsigned)__builtin_popcountll(s->regs_user.mask & (bit - 1));
	if (idx >= s->regs_user.n)
		return false;
	*val = s->regs_user.regs[idx];
	return true;
}

/* Register REG of a frame fp_step reached (x86_64: its IP, SP and FP; the
 * others are the sample's, as perf's unwinder leaves them). */
static bool fp_frame_reg(const struct uw_ctx *c, unw_regnum_t reg, unw_word_t *val)
{
	if (!c->fp_frame)
		return false;
	switch (reg) {
	case UNW_PC: *val = c->fp_ip; return true;
	case UNW_SP: *val = c->fp_sp; return true;
	case UNW_FP: *val = c->fp_fp; return true;
	default: return false;
	}
}

static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *val, int write,
		      void *arg)
{
	const struct uw_ctx *c = arg;
	uint64_t v;

	if (write)
		return -UNW_EREADONLYREG;
	if (fp_frame_reg(c, reg, val))
		return 0;
	if (!sample_reg(c->s, perf_reg(reg), &v))
		return -UNW_EBADREG;
	*val = v;
	return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *val, int write,
			void *arg)
{
	return -UNW_EINVAL;   /* not sampled */
}

static int resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf, size_t len,
			 unw_word_t *offp, void *arg)
{
	return -UNW_EINVAL;   /* symbols are engine/symbols.c's business */
}

static unw_accessors_t accessors = {
	.find_proc_info = find_proc_info,
	.put_unwind_info = put_unwind_info,
	.get_dyn_info_list_addr = get_dyn_info_list_addr,
	.access_mem = access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};

/* ---- the unwinder --------------------------------------------------- */

void unwinder_set_opener(struct unwinder *u, int (*open)(void *arg, const char *path),
			 void *arg)
{
	u->open = open;
	u->open_arg = arg;
}

struct unwinder *unwinder_new(void)
{
	struct unwinder *u;

	if (elf_version(EV_CURRENT) == EV_NONE || !(u = calloc(1, sizeof(*u))))
		return NULL;
	u->page = (uint64_t)sysconf(_SC_PAGESIZE);
	u->as = unw_create_addr_space(&accessors, 0);
	if (!u->as) {
		free(u);
		return NULL;
	}
	unw_set_caching_policy(u->as, UNW_CACHE_GLOBAL);
	/* libunwind's default, 128 IPs, is too few for a program's hot code;
	 * a failure (libunwind built with __thread) keeps it. */
	(void)unw_set_cache_size(u->as, UW_RULES_CACHE, 0);
	return u;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	for (unsigned i = 0; i < UW_FILES; i++)
		file_close(u, &u->files[i]);
	unw_destroy_addr_space(u->as);
	free(u->steps.rules);
	hashtab_free(&u->steps.index);
	free(u);
}

void unwinder_flush(struct unwinder *u)
{
	for (unsigned i = 0; i < UW_FILES; i++)
		file_close(u, &u->files[i]);
	unw_flush_cache(u->as, 0, 0);
	steps_clear(&u->steps);
	u->flush_pending = false;
}

void unwinder_flush_path(struct unwinder *u, const char *path)
{
	uint64_t h = hash_str(path);

	for (unsigned i = 0; i < UW_FILES; i++) {
		struct uw_file *f = &u->files[i];
		if (f->path && f->hash == h && strcmp(f->path, path) == 0)
			file_close(u, f);
	}
	/* the rules are cached by IP alone: which belong to PATH is unknown */
	unw_flush_cache(u->as, 0, 0);
	steps_clear(&u->steps);
	u->flush_pending = false;
}

/* The IP of the frame CU stands on, as the symbolizer wants it (unwind.h). */
static uint64_t frame_ip(unw_cursor_t *cu)
{
	unw_word_t ip = 0;

	unw_get_reg(cu, UNW_REG_IP, &ip);
	/* After a step, unw_is_signal_frame says whether the frame stepped from
	 * was a signal trampoline (x86_64/Gos-linux.c; aarch64/Gis_signal_frame.c
	 * matches the vDSO's __kernel_rt_sigreturn, mov x8, #139; svc #0): then
	 * IP is where the signal interrupted, not a return address. */
	if (ip != 0 && unw_is_signal_frame(cu) <= 0)
		ip--;
	return ip;
}

/* Register REG (x86_64: RBP, RSP) of the frame CU stands on; 0 unknown. */
static uint64_t frame_reg(unw_cursor_t *cu, unw_regnum_t reg)
{
	unw_word_t v = 0;

	return unw_get_reg(cu, reg, &v) < 0 ? 0 : v;
}

/* Code no CFI covers (JIT code, hand-written assembly) is left through its
 * frame pointer FP, as perf's unwinder falls back: the caller's FP saved at
 * [FP], the return address at [FP + 8], the caller's SP FP + 16; the cursor
 * starts again there (libunwind's own guess takes a leaf's [SP] when the
 * saved FP looks odd to it).  Only when FP is plausible: at or above the
 * frame's SP (stacks grow down) and both words inside the stack copy, and
 * the return address in a known mapping; else the stack ends, truncated.
 * *IP: the return address less 1, as the walk gives them. */
static bool fp_step(struct uw_ctx *c, unw_cursor_t *cu, uint64_t fp, uint64_t sp, uint64_t *ip)
{
	const struct rec_sample *s = c->s;
	uint64_t saved, ret;

	if (!s->stack || fp < sp || fp < c->sp || s->stack_size < 16 ||
	    fp - c->sp > s->stack_size - 16)
		return false;
	memcpy(&saved, s->stack + (fp - c->sp), sizeof(saved));
	memcpy(&ret, s->stack + (fp - c->sp) + 8, sizeof(ret));
	if (ret == 0 || !c->find(c->find_arg, ret - 1))
		return false;
	c->fp_frame = true;
	c->fp_ip = ret;
	c->fp_sp = fp + 16;
	c->fp_fp = saved;
	if (unw_init_remote(cu, c->u->as, c) < 0)
		return false;
	*ip = ret - 1;
	return true;
}

/* Steps up from the frame in CU, appending to IPS[*N] until MAX.  True
 * when the stack ended at its natural end. */
static bool walk(struct uw_ctx *c, unw_cursor_t *cu, uint64_t *ips, size_t *n, size_t max)
{
	while (*n < max) {
		int ret;
		uint64_t ip;
		uint64_t fp = frame_reg(cu, UNW_FP), sp = frame_reg(cu, UNW_SP);

		c->noinfo = false;
		ret = unw_step(cu);
		if (c->noinfo) {
			if (!fp_step(c, cu, fp, sp, &ip))
				return false;
		} else if (ret < 0) {
			return false;
		} else if (ret == 0) {
			return true;      /* undefined return address: the outermost frame */
		} else {
			ip = frame_ip(cu);
		}
		if (ip == 0)
			return true;      /* a zero return address also ends chains */
		if (!c->find(c->find_arg, ip))
			return false;
		ips[(*n)++] = ip;
	}
	return false;
}

/* ---- learnt steps ---------------------------------------------------- */

/* libunwind takes a lock around its rules cache on every step, and
 * libunwind 1.6 as Debian builds it (without __thread: no per-thread cache,
 * UNW_CACHE_PER_THREAD reads as UNW_CACHE_GLOBAL) blocks every signal while
 * it holds it: two rt_sigprocmask calls a frame, more than half the CPU
 * time of unwinding a recording (bench/README).  So each distinct IP is
 * stepped by libunwind on two made-up frames (step_learn), and what it did
 * is kept when it is of the plain kind every compiler emits for x86_64:
 * CFA = RSP or RBP + offset, the return address and the caller's RBP (or
 * RBP unchanged) at fixed offsets from the CFA, the caller's RSP the CFA.
 * An IP is learnt once libunwind has stepped it in STEPS_LEARN_AT frames.
 * A sample whose every frame is of that kind, every word read inside its
 * stack copy, is walked with those rules alone (replay); any other (a
 * frame without unwind info, a DWARF expression, a signal frame, a read
 * past the copy) is walked by libunwind from the start, as before, so the
 * stacks are libunwind's either way (tests/cg-corpus.sh compares).
 * CYCTOP_UNWIND_STEPS=0 in the environment turns replay off (tests). */
enum { STEP_SEEN = 1, STEP_OTHER, STEP_SP, STEP_BP, STEP_END };

/* Learning a rule costs two libunwind steps and replaying it saves one:
 * an IP is learnt once libunwind has stepped it in STEPS_LEARN_AT frames
 * (STEP_SEEN until then), so that the many IPs seen once or twice (a storm
 * of short processes) cost no more than before. */
#define STEPS_LEARN_AT 3

#define STEPS_MAX 65536   /* rules kept; past it they start over */
/* The made-up stack: every word holds PROBE_TAG ^ its own address, so a
 * word libunwind read says where it was. */
#define PROBE_BASE 0x10000ull
#define PROBE_SIZE 16384u
#define PROBE_TAG 0x5eed000000000000ull
#define PROBE_JUNK 0x7e57000000000017ull   /* the other registers */

static bool steps_enabled(void)
{
	static int on = -1;

	if (on < 0) {
		const char *e = getenv("CYCTOP_UNWIND_STEPS");
		/* the rules replay x86_64's registers (CFA from RSP or RBP) */
		on = !(e && strcmp(e, "0") == 0) && UW_MACHINE == EM_X86_64;
	}
	return on;
}

static void steps_clear(struct uw_steps *t)
{
	t->n = 0;
	hashtab_clear(&t->index);
}

static bool step_eq(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct uw_step *)ctx)[idx].ip == *(const uint64_t *)key;
}

static struct uw_step *step_find(struct uw_steps *t, uint64_t ip)
{
	uint32_t i = hashtab_find(&t->index, hash_mix(ip), &ip, step_eq, t->rules);

	return i == HASHTAB_NONE ? NULL : &t->rules[i];
}

/* R as the rule of its IP (not there yet); NULL when out of memory. */
static struct uw_step *step_add(struct uw_steps *t, const struct uw_step *r)
{
	if (t->n >= STEPS_MAX)
		steps_clear(t);
	if (GROW(t->rules, t->n + 1, t->alloc) < 0 ||
	    hashtab_add(&t->index, hash_mix(r->ip), (uint32_t)t->n) < 0)
		return NULL;
	t->rules[t->n] = *r;
	return &t->rules[t->n++];
}

/* What libunwind made of one step from a made-up frame at IP. */
struct probe {
	bool ok, end;
	uint64_t sp, bp, cfa, ra_at, bp_at;   /* bp_at 0: RBP unchanged */
};

/* The address a word of the made-up stack holding V lies at, or 0. */
static inline uint64_t probe_where(uint64_t v)
{
	uint64_t a = v ^ PROBE_TAG;

	return a >= PROBE_BASE && a < PROBE_BASE + PROBE_SIZE && a % 8 == 0 ? a : 0;
}

static void probe_one(const struct uw_ctx *real, uint64_t ip, uint64_t sp, uint64_t bp,
		      const uint8_t *stack, struct probe *p)
{
#if defined(__x86_64__)
	uint64_t regs[PERF_REG_X86_R15 + 1];
	struct rec_sample s = { 0 };
	struct uw_ctx c = { .u = real->u, .s = &s, .find = real->find, .find_arg = real->find_arg,
			    .sp = sp };
	unw_cursor_t cu;
	unw_word_t v;

	for (unsigned r = 0; r <= PERF_REG_X86_R15; r++)
		regs[r] = PROBE_JUNK + r;
	regs[PERF_REG_X86_IP] = ip;
	regs[PERF_REG_X86_SP] = sp;
	regs[PERF_REG_X86_BP] = bp;
	s.ip = ip;
	s.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_user.regs = regs;
	s.regs_user.n = PERF_REG_X86_R15 + 1;
	s.regs_user.mask = (1ull << (PERF_REG_X86_R15 + 1)) - 1;
	s.stack = stack + (sp - PROBE_BASE);
	s.stack_size = PROBE_BASE + PROBE_SIZE - sp;
	*p = (struct probe){ .sp = sp, .bp = bp };
	if (unw_init_remote(&cu, c.u->as, &c) < 0)
		return;
	int ret = unw_step(&cu);
	if (c.noinfo || ret < 0)
		return;
	if (ret == 0) {
		p->ok = p->end = true;
		return;
	}
	if (unw_get_reg(&cu, UNW_X86_64_RSP, &v) < 0)
		return;
	p->cfa = v;
	if (unw_get_reg(&cu, UNW_REG_IP, &v) < 0 || !(p->ra_at = probe_where(v)))
		return;
	if (unw_get_reg(&cu, UNW_X86_64_RBP, &v) < 0)
		return;
	if (v != bp && !(p->bp_at = probe_where(v)))
		return;
	p->ok = true;
#else
	/* the step rules are x86_64's (steps_enabled): nothing learnt here */
	(void)real, (void)ip, (void)stack;
	*p = (struct probe){ .sp = sp, .bp = bp };
#endif
}

/* Whether the code at IP is the sigreturn sequence (mov $15, %rax;
 * syscall), as libunwind's unw_is_signal_frame reads it for x86_64 Linux:
 * then the frame's IP is kept exact, not less 1 (frame_ip). */
static bool is_sigreturn(struct uw_ctx *c, uint64_t ip)
{
	unw_word_t w0, w1;

	if (access_mem(c->u->as, ip, &w0, 0, c) < 0 || access_mem(c->u->as, ip + 8, &w1, 0, c) < 0)
		return false;
	return w0 == 0x0f0000000fc0c748ull && (w1 & 0xff) == 0x05;
}

/* Learns the step rule of IP into R: libunwind steps two made-up frames
 * whose RSP and RBP move apart, and the CFA follows one of them. */
static void step_learn(struct uw_ctx *c, uint64_t ip, struct uw_step *r)
{
	uint64_t *stack = malloc(PROBE_SIZE);
	struct probe a, b;

	*r = (struct uw_step){ .ip = ip, .kind = STEP_OTHER };
	if (!stack)
		return;
	for (uint64_t i = 0; i < PROBE_SIZE / 8; i++)
		stack[i] = PROBE_TAG ^ (PROBE_BASE + 8 * i);
	probe_one(c, ip, PROBE_BASE, PROBE_BASE + PROBE_SIZE / 2, (const uint8_t *)stack, &a);
	probe_one(c, ip, PROBE_BASE + 256, PROBE_BASE + PROBE_SIZE / 2 + 512,
		  (const uint8_t *)stack, &b);
	free(stack);
	r->sigret = ip + 1 != 0 && is_sigreturn(c, ip + 1);
	if (!a.ok || !b.ok || a.end != b.end)
		return;
	if (a.end) {
		r->kind = STEP_END;
		return;
	}
	int64_t da = (int64_t)(a.cfa - a.sp), db = (int64_t)(b.cfa - b.sp);
	if (da == db)
		r->kind = STEP_SP;
	else if ((int64_t)(a.cfa - a.bp) == (int64_t)(b.cfa - b.bp))
		r->kind = STEP_BP, da = (int64_t)(a.cfa - a.bp);
	else
		return;
	int64_t ra = (int64_t)(a.ra_at - a.cfa), bpo = (int64_t)(a.bp_at - a.cfa);
	if (ra != (int64_t)(b.ra_at - b.cfa) || !a.bp_at != !b.bp_at ||
	    (a.bp_at && bpo != (int64_t)(b.bp_at - b.cfa)) || da < INT32_MIN || da > INT32_MAX ||
	    ra < INT32_MIN || ra > INT32_MAX || bpo < INT32_MIN || bpo > INT32_MAX) {
		r->kind = STEP_OTHER;
		return;
	}
	r->cfa_off = (int32_t)da;
	r->ra_off = (int32_t)ra;
	r->bp_saved = a.bp_at != 0;
	r->bp_off = (int32_t)bpo;
}

/* The rule of IP (in the mapping M points to), learnt on first use, again
 * when another mapping lies there now (dlclose, then dlopen); NULL when out
 * of memory.  M is read first: learning asks FIND again, which may reuse
 * the memory of its earlier answers. */
static const struct uw_step *step_rule(struct uw_ctx *c, uint64_t ip, const struct unwind_map *m)
{
	struct uw_step *r = step_find(&c->u->steps, ip);
	uint64_t start = m->start, pgoff = m->pgoff;

	if (!r || (r->kind == STEP_SEEN && r->seen < STEPS_LEARN_AT))
		return NULL;            /* libunwind's until it is seen often */
	if (r->kind != STEP_SEEN && r->map_start == start && r->map_pgoff == pgoff)
		return r;
	struct uw_step learnt;
	step_learn(c, ip, &learnt);
	learnt.map_start = start;
	learnt.map_pgoff = pgoff;
	if ((r = step_find(&c->u->steps, ip))) {   /* seen, or stale: replaced in place */
		*r = learnt;
		return r;
	}
	return step_add(&c->u->steps, &learnt);
}

/* Counts the frames libunwind walked (IPS[0, N)) toward learning their
 * rules. */
static void steps_note(struct uw_steps *t, const uint64_t *ips, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct uw_step *r = step_find(t, ips[i]);
		if (!r)
			step_add(t, &(struct uw_step){ .ip = ips[i], .kind = STEP_SEEN, .seen = 1 });
		else if (r->kind == STEP_SEEN && r->seen < UINT8_MAX)
			r->seen++;
	}
}

/* The word at ADDR of the sample's stack copy. */
static bool stack_word(const struct uw_ctx *c, uint64_t addr, uint64_t *v)
{
	const struct rec_sample *s = c->s;

	if (!s->stack || addr < c->sp || s->stack_size < 8 || addr - c->sp > s->stack_size - 8)
		return false;
	memcpy(v, s->stack + (addr - c->sp), 8);
	return true;
}

/* The sample's stack walked with learnt rules alone, into IPS from
 * IPS[*N] (the sample's IP there already), as walk would.  False when a
 * frame needs libunwind itself: then IPS and *N are to be discarded. */
static bool replay(struct uw_ctx *c, uint64_t *ips, size_t *n, size_t max, bool *truncated)
{
	const struct rec_sample *s = c->s;
	uint64_t sp = c->sp, bp, key = s->ip, raw = s->ip, prev_cfa = c->sp;
	const struct unwind_map *found = c->find(c->find_arg, key);
	struct unwind_map m;   /* the mapping of KEY, copied: see step_rule */

	if (!found || !sample_reg(s, PERF_REG_FP, &bp))
		return false;
	m = *found;
	while (*n < max) {
		const struct uw_step *r = step_rule(c, key, &m);
		uint64_t cfa, ret, caller_bp = bp;
		if (!r || r->kind == STEP_OTHER)
			return false;   /* STEP_SEEN is not returned */
		if (r->kind == STEP_END) {
			*truncated = false;     /* the outermost frame */
			return true;
		}
		cfa = (r->kind == STEP_SP ? sp : bp) + (uint64_t)(int64_t)r->cfa_off;
		if (!stack_word(c, cfa + (uint64_t)(int64_t)r->ra_off, &ret) ||
		    (r->bp_saved && !stack_word(c, cfa + (uint64_t)(int64_t)r->bp_off, &caller_bp)))
			return false;
		if (ret == raw && cfa == prev_cfa)
			return false;           /* libunwind's "ip and cfa unchanged" */
		if (ret == 0 || ret == 1) {
			*truncated = false;     /* a zero return address (IP) ends chains */
			return true;
		}
		if (!(found = c->find(c->find_arg, ret - 1))) {
			*truncated = true;
			return true;
		}
		m = *found;
		const struct uw_step *next = step_rule(c, ret - 1, &m);
		if (!next || next->sigret)
			return false;           /* a signal frame: its IP is kept exact */
		ips[(*n)++] = ret - 1;
		key = ret - 1;
		raw = ret;
		sp = cfa;
		bp = caller_bp;
		prev_cfa = cfa;
	}
	*truncated = true;
	return true;
}

bool unwind_user_ip(const struct rec_sample *s, uint64_t *ip)
{
	return s->regs_user.abi == PERF_SAMPLE_REGS_ABI_64 && sample_reg(s, PERF_REG_PC, ip);
}

size_t unwind_sample(struct unwinder *u, const struct rec_sample *s, unwind_find_map_fn find,
		     void *arg, uint64_t *ips, size_t max, bool *truncated)
{
	struct uw_ctx c = { .u = u, .s = s, .find = find, .find_arg = arg };
	unw_cursor_t cu;
	size_t n = 0;

	*truncated = true;
	if (max == 0)
		return 0;
	ips[n++] = s->ip;
	if (u->flush_pending) {   /* from a previous unwind: never inside a step */
		unw_flush_cache(u->as, 0, 0);
		steps_clear(&u->steps);
		u->flush_pending = false;
	}
	if (s->regs_user.abi != PERF_SAMPLE_REGS_ABI_64 || !sample_reg(s, PERF_REG_SP, &c.sp) ||
	    !find(arg, s->ip))
		return n;
	if (steps_enabled() && replay(&c, ips, &n, max, truncated))
		return n;
	n = 1;
	if (unw_init_remote(&cu, u->as, &c) < 0)
		return n;
	*truncated = !walk(&c, &cu, ips, &n, max);
	if (steps_enabled())
		steps_note(&u->steps, ips, n);
	return n;
}
