/* Symbols and source lines through elfutils libdwfl (see symbols.h).
 *
 * Layout:
 *  - struct mapping: one executable mapping of the address space, in an array
 *    sorted by start (mappings never overlap: a new one punches a hole).
 *    Mappings are resolved to a module lazily, on their first lookup, so an
 *    attach or a fork followed by exec costs no ELF work.
 *  - struct module: one ELF reported to the symtab's Dwfl, once per distinct
 *    (path, load bias).  Modules outlive symtab_clear so that the strings
 *    handed out stay valid as long as the symtab (and exec of the same binary
 *    at the same bias reuses it).  Each module holds its sorted function
 *    table and a hash table caching the answer for every IP looked up.
 *  - mapping names are interned in a pool that also lives as long as the
 *    symtab, for the same reason. */
#include "engine/symbols.h"

#include "arch/hashtab.h"
#include "engine/sys.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libiberty/demangle.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct func {
	uint64_t start, end;  /* at its image's bias (struct func_image), [start, end) */
	const char *name;     /* libdw's (the ELF's string table) or interned */
	uint64_t limit;       /* end of the symbol's section, 0 if unknown */
	uint32_t idx;         /* index in the symbol table: the last tie-break */
	uint8_t bind;         /* STB_* */
	bool named;           /* shown as it is: a synthetic NAME@plt, a JIT's name */
};

/* The cached answer for one IP of a module. */
struct ip_entry {
	uint64_t ip;
	const struct func *func;  /* NULL: no function symbol covers ip */
	const char *file;         /* source line, valid when src_done */
	int line;
	bool src_done;
};

struct func_image;

struct module {
	const char *path;  /* interned */
	struct strpool *names;  /* the symtab's: display names */
	uint64_t bias;
	Dwfl_Module *dwmod;
	const struct func *funcs;  /* the image's, at its bias (see fdelta) */
	size_t nfuncs;
	uint64_t fdelta;   /* image address = runtime address + fdelta */
	struct func_image *own;  /* an image of a file without a build id */
	struct func_image *img;  /* its image (shared or own), once built */
	struct symtab *st;
	unsigned char id[64];    /* the file's build id, idlen bytes (0: none) */
	int idlen;
	bool report_failed;      /* dwmod is reported lazily: it failed */
	bool funcs_built;
	/* The IPs asked about, in the order they came, and their index: a
	 * sample's IP is symbolized once (find_func's search, the line table). */
	struct ip_entry *cache;
	size_t cache_n, cache_alloc;
	struct hashtab cache_index;  /* ip -> cache */
	struct module *next;
};

struct mapping {
	uint64_t start, end, pgoff;
	const char *name;     /* interned */
	struct module *mod;   /* NULL if not resolved yet or not an ELF */
	bool resolved;
};

struct symtab {
	Dwfl *dwfl;
	struct mapping *maps;
	size_t nmaps, maps_alloc;
	struct module *mods;
	struct strpool names;
	int vdso_fd;  /* memfd with our vDSO image; -1 not made yet, -2 failed */
	symtab_open_fn opener;  /* recorded sessions: where the binaries are now */
	void *opener_arg;
	bool jit_reread;  /* a JIT's map may be read again (symtab_allow_jit_reread) */
};

/* "-" skips the CRC check of debuglink files (build-ids are checked
 * anyway); ".debug" is relative to the binary's directory. */
static char debuginfo_dirs[] = "-:.debug:/usr/lib/debug";
static char *debuginfo_path = debuginfo_dirs;

/* Whether the separate file at PATH, open on FD, is MOD's debuginfo: the
 * same build id, when MOD has one (else its name is taken for it, as the
 * "-" of debuginfo_dirs skips CRCs). */
static bool same_build(Dwfl_Module *mod, int fd)
{
	const unsigned char *want;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &want, &vaddr);
	const void *got;

	if (n <= 0)
		return true;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ssize_t m = elf ? dwelf_elf_gnu_build_id(elf, &got) : -1;
	bool same = m == n && memcmp(got, want, (size_t)n) == 0;
	elf_end(elf);
	return same;
}

/* FILE's .gnu_debuglink file LINK where libdwfl looks for it: beside
 * FILE, in its .debug directory, under /usr/lib/debug (debuginfo_dirs). */
static int open_debuglink(Dwfl_Module *mod, const char *file, const char *link, char **found)
{
	const char *slash = strrchr(file, '/');
	int dirlen = slash ? (int)(slash - file) : 0;
	char path[PATH_MAX];

	for (int i = 0; i < 3; i++) {
		int n = i == 0 ? snprintf(path, sizeof(path), "%.*s/%s", dirlen, file, link)
			: i == 1 ? snprintf(path, sizeof(path), "%.*s/.debug/%s", dirlen, file, link)
			: snprintf(path, sizeof(path), "/usr/lib/debug%.*s/%s", dirlen, file, link);
		if (n < 0 || n >= (int)sizeof(path) || strcmp(path, file) == 0)
			continue;
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (same_build(mod, fd) && (*found = strdup(path)))
			return fd;
		close(fd);
	}
	return -1;
}

/* Separate debuginfo by build id under debuginfo_dirs, else by
 * .gnu_debuglink.  libdwfl's standard search would then ask debuginfod
 * servers, loading libdebuginfod (and libcurl, gnutls, libcrypto: some
 * 5 MB resident) even to find that none is set: it is used only when
 * DEBUGINFOD_URLS names servers (tui/cyctop.c sets it aside unless
 * CYCTOP_DEBUGINFOD is set). */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  GElf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (urls && urls[0])
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
					      debuglink_file, debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || !file_name || !debuglink_file || !debuglink_file[0])
		return fd;
	return open_debuglink(mod, file_name, debuglink_file, debuginfo_file_name);
}

/* Every ELF is reported with dwfl_report_elf, so find_elf is only a
 * formality; find_debuginfo finds separate debuginfo by build-id and
 * debuglink. */
static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* ---- names ---------------------------------------------------------- */

static bool demangle_names = true;
static int demangle_opts = DMGL_NO_OPTS;  /* DMGL_PARAMS | DMGL_ANSI: --demangle-params */

void symbols_set_demangle(bool on)
{
	demangle_names = on;
}

void symbols_set_demangle_params(bool on)
{
	demangle_opts = on ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS;
}

/* The name shown for the ELF symbol name RAW: without its version suffix
 * (a .symtab's "_IO_file_write@@GLIBC_2.2.5"), demangled (C++, Rust legacy
 * and v0) as perf report prints it: perf up to 6.3 (and any built with
 * libbfd) uses libiberty without DMGL_PARAMS, which it passes only with -v,
 * so "ns::Box<long>::spin", not its parameters and clone suffix; perf 6.4
 * on built without libbfd (Debian's: 6.12 in Debian 13) demangles with
 * abi::__cxa_demangle, which writes them ("ns::Box<long>::spin(long)
 * [clone .isra.0]"): --demangle-params, libiberty's DMGL_PARAMS | DMGL_ANSI.
 * RAW itself when neither applies; NULL when out of memory. */
static const char *display_name(struct strpool *pool, const char *raw)
{
	size_t n = strcspn(raw, "@");
	char *base = NULL, *dem = NULL;
	const char *out = raw;

	if (raw[n] && n > 0) {
		if (!(base = strndup(raw, n)))
			return NULL;
		out = base;
	}
	if (demangle_names && (dem = cplus_demangle(out, demangle_opts)) != NULL)
		out = dem;
	if (out != raw)
		out = strpool_intern(pool, out);
	free(base);
	free(dem);
	return out;
}

/* ---- function tables ------------------------------------------------ */

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Which alias names an address, as perf report chooses (util/symbol.c
 * choose_best_symbol): a real size beats a size-0 label, non-weak beats
 * weak, global beats local, fewer leading underscores, the longer name,
 * then the first in the symbol table.  So libc's strcoll_l (weak) shows as
 * __strcoll_l (global) and write (weak) as __GI___libc_write (local).
 * Names compare raw, version suffix included. */
static int alias_cmp(const struct func *x, const struct func *y)
{
	bool xs = x->end > x->start, ys = y->end > y->start;
	int ux, uy;
	size_t nx, ny;

	if (xs != ys)
		return xs ? -1 : 1;
	if ((x->bind == STB_WEAK) != (y->bind == STB_WEAK))
		return x->bind == STB_WEAK ? 1 : -1;
	if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL))
		return x->bind == STB_GLOBAL ? -1 : 1;
	ux = leading_underscores(x->name);
	uy = leading_underscores(y->name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	nx = strlen(x->name);
	ny = strlen(y->name);
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int func_cmp(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return alias_cmp(x, y);
}

/* An Arm mapping symbol ($x, $d, $a, $t, optionally ".suffix"): marks the
 * kind of code or data that follows, names no function (perf skips them). */
static bool is_mapping_symbol(const char *name)
{
	return name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
	       (name[2] == '\0' || name[2] == '.');
}

/* An untyped label perf names as a function (util/symbol-elf.c
 * elf_sym__is_label and dso__load_sym): a visible NOTYPE symbol of an
 * allocated section whose name holds "text", as ld.so's _start and
 * _dl_start_user, the first code a process runs.  perf also keeps the
 * labels of data sections; no sample lands there. */
static bool is_text_label(const GElf_Sym *sym, const char *name, GElf_Word shndx, Elf *elf)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *sec;

	if (GELF_ST_TYPE(sym->st_info) != STT_NOTYPE || vis == STV_HIDDEN || vis == STV_INTERNAL ||
	    shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || is_mapping_symbol(name))
		return false;
	if (!elf || !(scn = elf_getscn(elf, shndx)) || !gelf_getshdr(scn, &sh) ||
	    !(sh.sh_flags & SHF_ALLOC) || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	sec = elf_strptr(elf, shstrndx, sh.sh_name);
	return sec && strstr(sec, "text");
}

static bool is_function(const GElf_Sym *sym, const char *name, GElf_Word shndx, Elf *elf)
{
	int type;

	if (!name || !name[0])  /* NULL: unreadable entry, SYM is unset */
		return false;
	type = GELF_ST_TYPE(sym->st_info);
	if (type == STT_NOTYPE)
		return is_text_label(sym, name, shndx, elf);
	/* Undefined symbols are imports (value 0 or a PLT slot); shndx -1
	 * means a non-allocated section. */
	return (type == STT_FUNC || type == STT_GNU_IFUNC) && shndx != SHN_UNDEF &&
	       shndx != (GElf_Word)-1;
}

/* The runtime end of section SHNDX of ELF (loaded with BIAS), 0 if unknown:
 * a size-0 label (_init) covers at most the rest of its section, never the
 * .plt after it. */
static uint64_t section_end(Elf *elf, GElf_Word shndx, Dwarf_Addr bias)
{
	Elf_Scn *scn = elf && shndx < SHN_LORESERVE ? elf_getscn(elf, shndx) : NULL;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return 0;
	return sh.sh_addr + sh.sh_size + bias;
}

/* Appends the module's function symbols to F (room for all of them):
 * .symtab of the file or of its separate debuginfo, else .dynsym (libdwfl
 * picks). */
static size_t collect_funcs(Dwfl_Module *dm, int nsyms, struct func *f)
{
	size_t k = 0;

	for (int i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		const char *name = dwfl_module_getsym_info(dm, i, &sym, &addr, &shndx, &elf, &bias);
		if (!is_function(&sym, name, shndx, elf))
			continue;
		f[k++] = (struct func){ .start = addr, .end = addr + sym.st_size, .name = name,
					.limit = section_end(elf, shndx, bias), .idx = (uint32_t)i,
					.bind = (uint8_t)GELF_ST_BIND(sym.st_info) };
	}
	return k;
}

/* Sorts, keeps the best alias per address with its display name, and
 * extends size-0 symbols to the next symbol (or their section's or the
 * module's end). */
static size_t finish_funcs(struct strpool *pool, struct func *f, size_t n, uint64_t mod_end)
{
	size_t k = 0;

	if (n == 0)
		return 0;
	qsort(f, n, sizeof(*f), func_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || f[k - 1].start != f[i].start)
			f[k++] = f[i];
	for (size_t i = 0; i < k; i++) {
		uint64_t next = i + 1 < k ? f[i + 1].start : mod_end;
		const char *shown = f[i].named ? f[i].name : display_name(pool, f[i].name);
		if (shown)
			f[i].name = shown;
		if (f[i].limit > f[i].start && f[i].limit < next)
			next = f[i].limit;
		if (f[i].end == f[i].start)
			f[i].end = next > f[i].start ? next : f[i].start + 1;
	}
	return k;
}

/* ---- PLT stubs ------------------------------------------------------ */

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

/* "NAME@plt" (NAME demangled like any symbol), interned. */
static const char *plt_name(struct strpool *pool, const struct got_slot *slot)
{
	const char *base = slot->name ? display_name(pool, slot->name) : NULL;
	char *s;
	const char *out;

	if (slot->name ? !base || asprintf(&s, "%s@plt", base) < 0
		       : asprintf(&s, "*ABS*+0x%" PRIx64 "@plt", slot->addend) < 0)
		return NULL;
	out = strpool_intern(pool, s);
	free(s);
	return out;
}

/* The entries of PLT section SCN named by SLOTS, appended to F. */
static size_t plt_funcs(struct strpool *pool, uint16_t machine, Elf_Scn *scn,
			const GElf_Shdr *sh, Dwarf_Addr bias, const struct got_slot *slots,
			size_t nslots, struct func *f)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	uint64_t ent = sh->sh_entsize ? sh->sh_entsize : 16, got;
	size_t k = 0;

	if (!d || !d->d_buf)
		return 0;
	for (uint64_t off = 0; off + ent <= d->d_size; off += ent) {
		const struct got_slot *slot;
		const char *name;
		if (!plt_entry_got(machine, (const uint8_t *)d->d_buf + off, ent, sh->sh_addr + off,
				   &got) ||
		    !(slot = find_slot(slots, nslots, got)) || !(name = plt_name(pool, slot)))
			continue;
		uint64_t start = sh->sh_addr + off + bias;
		f[k++] = (struct func){ .start = start, .end = start + ent, .name = name,
					.idx = UINT32_MAX, .bind = STB_LOCAL, .named = true };
	}
	return k;
}

/* How many entries the ELF's PLT sections have at most. */
static size_t plt_capacity(Elf *elf)
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
 * through.  Appended to F, which has room for plt_capacity(ELF) more. */
static size_t add_plt_funcs(struct strpool *pool, Elf *elf, Dwarf_Addr bias, struct func *f)
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
			k += plt_funcs(pool, eh.e_machine, scn, &sh, bias, slots, nslots, f + k);
	}
	free(slots);
	return k;
}

/* A module's function table, shared by every address space that maps the
 * same file (the same path and build id): a busy machine runs the same
 * libc in thousands of processes, each at its own bias.  Addresses are at
 * the bias of the module that built it; names are the image's own. */
struct func_image {
	char *path;
	unsigned char id[64];
	int idlen;             /* 0: no build id: owned by one module */
	bool demangled;
	int demangle_opts;
	uint64_t bias;
	struct func *funcs;
	size_t n;
	struct strpool names;
	/* Code no symbol covers, named by the .eh_frame / .debug_frame FDE that
	 * does (fde_func): found as sampled, each allocated once (the cache
	 * and the callers keep pointers). */
	struct func **fde;
	size_t nfde, fde_alloc;
	struct func_image *next;  /* the images list; a JIT's: the table it replaced */
	uint64_t map_bytes;    /* a perf map's size when it was read */
};

/* Images of files with a build id, kept for the life of the process (one
 * per distinct binary: bounded by what the machine has installed). */
static struct func_image *images;

static void image_free(struct func_image *img)
{
	if (!img)
		return;
	free(img->funcs);
	for (size_t i = 0; i < img->nfde; i++)
		free(img->fde[i]);
	free(img->fde);
	strpool_free(&img->names);
	free(img->path);
	free(img);
}

static struct func_image *image_find(const char *path, const unsigned char *id, int idlen)
{
	for (struct func_image *img = images; img; img = img->next)
		if (img->idlen == idlen && memcmp(img->id, id, (size_t)idlen) == 0 &&
		    img->demangled == demangle_names && img->demangle_opts == demangle_opts &&
		    strcmp(img->path, path) == 0)
			return img;
	return NULL;
}

/* The table read from MOD's ELF (NULL when out of memory); every name
 * interned in the image, as libdw's strings go with MOD's Dwfl. */
static struct func_image *image_build(struct module *mod)
{
	Dwarf_Addr lo, hi, bias = 0;
	Elf *elf = dwfl_module_getelf(mod->dwmod, &bias);
	int nsyms = dwfl_module_getsymtab(mod->dwmod);
	size_t cap = (nsyms > 0 ? (size_t)nsyms : 0) + (elf ? plt_capacity(elf) : 0);
	struct func_image *img = calloc(1, sizeof(*img));

	if (!img || !(img->path = strdup(mod->path))) {
		free(img);
		return NULL;
	}
	img->bias = mod->bias;
	img->demangled = demangle_names;
	img->demangle_opts = demangle_opts;
	if (cap == 0 || !(img->funcs = malloc(cap * sizeof(*img->funcs))))
		return img;
	img->n = nsyms > 0 ? collect_funcs(mod->dwmod, nsyms, img->funcs) : 0;
	if (elf)
		img->n += add_plt_funcs(&img->names, elf, bias, img->funcs + img->n);
	dwfl_module_info(mod->dwmod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	img->n = finish_funcs(&img->names, img->funcs, img->n, hi);
	for (size_t i = 0; i < img->n; i++)
		img->funcs[i].name = strpool_intern(&img->names, img->funcs[i].name);
	if (img->n > 0) {  /* most symbols are not functions: give back */
		struct func *f = realloc(img->funcs, img->n * sizeof(*f));
		if (f)
			img->funcs = f;
	}
	return img;
}

static void build_funcs(struct module *mod)
{
	const unsigned char *id = NULL;
	GElf_Addr id_vaddr;
	struct func_image *img = NULL;
	int idlen;

	mod->funcs_built = true;
	if (!mod->dwmod)
		return;
	idlen = dwfl_module_build_id(mod->dwmod, &id, &id_vaddr);
	if (idlen > 0 && idlen <= (int)sizeof(img->id))
		img = image_find(mod->path, id, idlen);
	else
		idlen = 0;
	if (!img) {
		if (!(img = image_build(mod)))
			return;
		if (idlen > 0) {
			memcpy(img->id, id, (size_t)idlen);
			img->idlen = idlen;
			img->next = images;
			images = img;
		} else {
			mod->own = img;
		}
	}
	mod->img = img;
	mod->funcs = img->funcs;
	mod->nfuncs = img->n;
	mod->fdelta = img->bias - mod->bias;
}

/* F's runtime start in MOD's address space. */
static uint64_t func_start(const struct module *mod, const struct func *f)
{
	return f->start - mod->fdelta;
}

static const struct func *find_func(struct module *mod, uint64_t ip)
{
	size_t lo = 0, hi;

	if (!mod->funcs_built)
		build_funcs(mod);
	ip += mod->fdelta;
	hi = mod->nfuncs;
	while (lo < hi) {  /* first function starting after ip */
		size_t mid = lo + (hi - lo) / 2;
		if (mod->funcs[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || ip >= mod->funcs[lo - 1].end)
		return NULL;
	return &mod->funcs[lo - 1];
}

/* ---- code without a symbol: the function its FDE covers --------------- */

static Dwfl_Module *module_dw(struct module *mod);

/* .eh_frame_hdr's binary search table: FDE_COUNT pairs (initial location,
 * FDE address), datarel sdata4 from the header's address, sorted by
 * location (the LSB's "Exception Frames"; the table unwinders search,
 * engine/unwind.c hands the same one to libunwind). */
struct eh_table {
	const unsigned char *pairs;
	uint64_t n, base;           /* base: the header's ELF address */
};

#define DW_EH_PE_omit 0xff
#define DW_EH_PE_datarel_sdata4 0x3b

static unsigned eh_pe_size(unsigned enc)
{
	switch (enc & 0x0f) {
	case 0x03: case 0x0b: return 4;      /* udata4, sdata4 */
	case 0x04: case 0x0c: return 8;      /* udata8, sdata8 */
	case 0x00: return 8;                 /* absptr */
	default: return 0;
	}
}

static bool eh_table_of(Elf *elf, struct eh_table *t)
{
	size_t shstr;
	Elf_Scn *scn = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstr) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstr, sh.sh_name)) ||
		    strcmp(name, ".eh_frame_hdr") != 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		const unsigned char *h = d ? d->d_buf : NULL;
		if (!h || d->d_size < 4 || h[0] != 1 || h[1] == DW_EH_PE_omit ||
		    h[2] == DW_EH_PE_omit || h[3] != DW_EH_PE_datarel_sdata4)
			return false;
		size_t ps = eh_pe_size(h[1]), cs = eh_pe_size(h[2]), off = 4 + ps + cs;
		uint64_t count = 0;
		if (!ps || !cs || off > d->d_size)
			return false;
		memcpy(&count, h + 4 + ps, cs);   /* little-endian, as x86-64 */
		if (count > (d->d_size - off) / 8)
			return false;
		*t = (struct eh_table){ h + off, count, sh.sh_addr };
		return true;
	}
	return false;
}

/* Initial location I of the table. */
static uint64_t eh_loc(const struct eh_table *t, uint64_t i)
{
	int32_t v;

	memcpy(&v, t->pairs + 8 * i, sizeof(v));
	return t->base + (uint64_t)(int64_t)v;
}

/* The FDE holding ELF address A of DM: [*START, *END).  Its start is the
 * table's last location at or before A; its end, where libdw's CFI rows
 * from there stop being contiguous (dwarf_frame_info gives a row's range,
 * not the FDE's), at the next FDE's start at most. */
static bool fde_range(Dwfl_Module *dm, uint64_t a, Dwarf_Addr *start, Dwarf_Addr *end)
{
	Dwarf_Addr bias, ebias;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(dm, &bias);
	struct eh_table t;
	uint64_t lo = 0, hi;

	if (!cfi || !eh_table_of(dwfl_module_getelf(dm, &ebias), &t) || t.n == 0)
		return false;
	hi = t.n;
	while (lo < hi) {  /* first location after a */
		uint64_t mid = lo + (hi - lo) / 2;
		if (eh_loc(&t, mid) <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	uint64_t s = eh_loc(&t, lo - 1), limit = lo < t.n ? eh_loc(&t, lo) : UINT64_MAX, x = s;
	while (x < limit) {
		Dwarf_Frame *frame;
		Dwarf_Addr rs, re;
		if (dwarf_cfi_addrframe(cfi, x, &frame) != 0)
			break;
		bool ok = dwarf_frame_info(frame, &rs, &re, NULL) >= 0 && rs <= x && re > x;
		free(frame);
		if (!ok)
			break;
		x = re;
	}
	if (x > limit)
		x = limit;
	if (a >= x)
		return false;  /* past the FDE: in no function's unwind info */
	*start = s;
	*end = x;
	return true;
}

/* Whether IP lies in a PLT section: its stubs are named (add_plt_funcs),
 * and PLT0, under the same FDE, belongs to no function (objdump labels it
 * from its neighbour).  The main ELF's section headers, not
 * dwfl_module_address_section: that loads the module's whole DWARF first
 * (libdwfl's check_module), and with libc6-dbg installed decompresses
 * libc's debug sections, 6-10 MB in every process's Dwfl (a storm of short
 * processes held hundreds of MB, longrun-syswide.sh on Debian 13). */
static bool in_plt(Dwfl_Module *dm, uint64_t ip)
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

/* An address no function symbol covers (a stripped library's static
 * functions: Debian keeps only .dynsym) belongs to the function its
 * .eh_frame FDE describes, as unwinders see it: a row of its own named by its start,
 * "[FILE+0xSTART]" (FILE the module's file name, START its ELF address,
 * what nm of the unstripped file gives), which the asm view opens like any
 * function.  NULL when no FDE covers IP (or out of memory). */
/* The index of IMG's first FDE function starting after image address AT. */
static size_t fde_after(const struct func_image *img, uint64_t at)
{
	size_t lo = 0, hi = img->nfde;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (img->fde[mid]->start <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct func *fde_func(struct module *mod, uint64_t ip)
{
	struct func_image *img = mod->img;
	Dwarf_Addr start, end;

	if (!img)
		return NULL;
	uint64_t at = ip + mod->fdelta;  /* image addresses */
	size_t k = fde_after(img, at);   /* found in this or another process */
	if (k > 0 && at < img->fde[k - 1]->end)
		return img->fde[k - 1];
	Dwfl_Module *dm = module_dw(mod);
	Dwarf_Addr bias;
	if (!dm || in_plt(dm, ip) || !dwfl_module_getelf(dm, &bias) ||
	    !fde_range(dm, ip - bias, &start, &end))
		return NULL;
	start += bias;
	end += bias;
	/* an FDE reaching into a symbol's code ends there (the functions are
	 * sorted by start; none covers ip, find_func said) */
	size_t lo = 0, hi = mod->nfuncs;
	while (lo < hi) {  /* first function starting after ip */
		size_t mid = lo + (hi - lo) / 2;
		if (mod->funcs[mid].start <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < mod->nfuncs && mod->funcs[lo].start - mod->fdelta < end)
		end = mod->funcs[lo].start - mod->fdelta;
	if (lo > 0 && mod->funcs[lo - 1].end - mod->fdelta > start)
		start = mod->funcs[lo - 1].end - mod->fdelta;
	if (start > ip || ip >= end)
		return NULL;
	const char *base = strrchr(mod->path, '/');
	char name[PATH_MAX + 32];
	snprintf(name, sizeof(name), "[%s+%#" PRIx64 "]", base ? base + 1 : mod->path,
		 (uint64_t)(start - mod->bias));
	struct func *f = calloc(1, sizeof(*f));
	if (!f || GROW(img->fde, img->nfde + 1, img->fde_alloc) < 0 ||
	    !(f->name = strpool_intern(&img->names, name))) {
		free(f);
		return NULL;
	}
	f->start = start + mod->fdelta;
	f->end = f->limit = end + mod->fdelta;
	f->idx = UINT32_MAX;
	f->bind = STB_LOCAL;
	f->named = true;
	k = fde_after(img, f->start);  /* kept sorted by start */
	memmove(img->fde + k + 1, img->fde + k, (img->nfde - k) * sizeof(*img->fde));
	img->fde[k] = f;
	img->nfde++;
	return f;
}

/* The FDE function of IMG named NAME, if one was found. */
static const struct func *fde_find_name(const struct func_image *img, const char *name)
{
	for (size_t i = 0; img && i < img->nfde; i++)
		if (strcmp(img->fde[i]->name, name) == 0)
			return img->fde[i];
	return NULL;
}

/* ---- per-IP cache --------------------------------------------------- */

static bool entry_is(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct module *)ctx)->cache[idx].ip == *(const uint64_t *)key;
}

/* The cache entry of IP, created (with its function) on first use.  NULL
 * only when out of memory.  Valid until the module's next cache_get (the
 * entries move as the array grows). */
static struct ip_entry *cache_get(struct module *mod, uint64_t ip)
{
	uint64_t h = hash_mix(ip);
	uint32_t i = hashtab_find(&mod->cache_index, h, &ip, entry_is, mod);

	if (i != HASHTAB_NONE)
		return &mod->cache[i];
	if (GROW(mod->cache, mod->cache_n + 1, mod->cache_alloc) < 0 ||
	    hashtab_add(&mod->cache_index, h, (uint32_t)mod->cache_n) < 0)
		return NULL;
	const struct func *f = find_func(mod, ip);
	if (!f)
		f = fde_func(mod, ip);
	struct ip_entry *e = &mod->cache[mod->cache_n++];
	*e = (struct ip_entry){ .ip = ip, .func = f };
	return e;
}

/* Relative names in the line table are relative to the CU's compilation
 * directory (objdump -l joins them too); joined names live in POOL. */
static const char *absolute_name(struct strpool *pool, Dwfl_Line *l, const char *file)
{
	const char *dir = dwfl_line_comp_dir(l);
	char *path;
	const char *interned;

	if (file[0] == '/' || !dir || asprintf(&path, "%s/%s", dir, file) < 0)
		return file;
	interned = strpool_intern(pool, path);
	free(path);
	return interned ? interned : file;
}

static Dwfl_Module *module_dw(struct module *mod);

static void fill_srcline(struct strpool *pool, struct module *mod, struct ip_entry *e)
{
	Dwfl_Module *dm = module_dw(mod);
	Dwfl_Line *l = dm ? dwfl_module_getsrc(dm, e->ip) : NULL;

	e->src_done = true;
	e->file = l ? dwfl_lineinfo(l, NULL, &e->line, NULL, NULL, NULL) : NULL;
	if (e->line <= 0)
		e->file = NULL;
	if (e->file)
		e->file = absolute_name(pool, l, e->file);
}

/* ---- modules -------------------------------------------------------- */

/* The PT_LOAD segment mapped at file offset PGOFF: the executable one if
 * several share that page (non-separated code layouts). */
static bool find_segment(Elf *elf, uint64_t pgoff, GElf_Phdr *out)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	size_t n;
	bool found = false;

	if (elf_getphdrnum(elf, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* The mapping starts at the page holding p_offset. */
		if (pgoff < ph.p_offset - ph.p_offset % page || pgoff >= ph.p_offset + ph.p_filesz)
			continue;
		if (!found || (ph.p_flags & PF_X)) {
			*out = ph;
			found = true;
		}
		if (ph.p_flags & PF_X)
			break;
	}
	return found;
}

/* Load bias of the ELF open on FD mapped at START from offset PGOFF:
 * file offset pgoff lies at vaddr p_vaddr + (pgoff - p_offset) and at
 * runtime address start.  False if FD is no executable or shared ELF. */
static bool elf_load_bias(int fd, uint64_t start, uint64_t pgoff, uint64_t *bias,
			  unsigned char *id, size_t *idlen)
{
	/* read, not mapped: a header, the program headers and the notes are
	 * all we need here, and a process storm maps files by the thousand */
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	GElf_Phdr ph;
	bool ok = elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
		  (eh.e_type == ET_EXEC || eh.e_type == ET_DYN) && find_segment(elf, pgoff, &ph);

	if (ok)  /* unsigned wrap-around is intended: pgoff may be < p_offset */
		*bias = start - (ph.p_vaddr + (pgoff - ph.p_offset));
	const void *bits;
	ssize_t n = ok ? dwelf_elf_gnu_build_id(elf, &bits) : 0;
	*idlen = n > 0 && (size_t)n <= *idlen ? (size_t)n : 0;
	if (*idlen)
		memcpy(id, bits, *idlen);
	elf_end(elf);
	return ok;
}

static struct module *find_module(const struct symtab *st, const char *path, uint64_t bias)
{
	for (struct module *m = st->mods; m; m = m->next)
		if (m->path == path && m->bias == bias)  /* interned: pointer compare */
			return m;
	return NULL;
}

/* Reports the ELF on FD (ownership passes to the Dwfl, or FD is closed). */
static struct module *report_module(struct symtab *st, const char *path, int fd, uint64_t bias)
{
	struct module *mod = calloc(1, sizeof(*mod));

	if (!mod) {
		close(fd);
		return NULL;
	}
	dwfl_report_begin_add(st->dwfl);
	/* add_p_vaddr: BASE is the bias, not the address of the first segment. */
	mod->dwmod = dwfl_report_elf(st->dwfl, path, path, fd, bias, true);
	dwfl_report_end(st->dwfl, NULL, NULL);
	if (!mod->dwmod) {
		close(fd);  /* libdwfl closes only the fds it opened itself */
		free(mod);
		return NULL;
	}
	mod->path = path;
	mod->names = &st->names;
	mod->bias = bias;
	mod->st = st;
	mod->next = st->mods;
	st->mods = mod;
	return mod;
}

static int open_module_file(struct symtab *st, const char *name);

/* A module whose function table is an image already read (a file with a
 * build id that another address space maps): no Dwfl module until source
 * lines or code are asked for (module_dw), so a storm of short processes
 * does not map each one's files again. */
static struct module *module_from_image(struct symtab *st, const char *path, uint64_t bias,
					struct func_image *img)
{
	struct module *mod = calloc(1, sizeof(*mod));

	if (!mod)
		return NULL;
	mod->path = path;
	mod->names = &st->names;
	mod->bias = bias;
	mod->st = st;
	memcpy(mod->id, img->id, (size_t)img->idlen);
	mod->idlen = img->idlen;
	mod->img = img;
	mod->funcs = img->funcs;
	mod->nfuncs = img->n;
	mod->fdelta = img->bias - bias;
	mod->funcs_built = true;
	mod->next = st->mods;
	st->mods = mod;
	return mod;
}

/* MOD's Dwfl module, reported now if it was not (NULL when that fails). */
static Dwfl_Module *module_dw(struct module *mod)
{
	if (mod->dwmod || mod->report_failed)
		return mod->dwmod;
	int fd = open_module_file(mod->st, mod->path);
	if (fd >= 0) {
		dwfl_report_begin_add(mod->st->dwfl);
		mod->dwmod = dwfl_report_elf(mod->st->dwfl, mod->path, mod->path, fd, mod->bias, true);
		dwfl_report_end(mod->st->dwfl, NULL, NULL);
		if (!mod->dwmod)
			close(fd);
	}
	mod->report_failed = !mod->dwmod;
	return mod->dwmod;
}

/* The module for mapping M of the ELF open on FD (consumed) named PATH. */
static struct module *module_from_fd(struct symtab *st, const struct mapping *m, int fd,
				     const char *path)
{
	uint64_t bias;
	struct module *mod;
	unsigned char id[64];
	size_t idlen = sizeof(id);

	if (fd < 0)
		return NULL;
	if (!elf_load_bias(fd, m->start, m->pgoff, &bias, id, &idlen)) {
		close(fd);
		return NULL;
	}
	mod = find_module(st, path, bias);
	if (mod) {
		close(fd);
		return mod;
	}
	struct func_image *img = idlen ? image_find(path, id, (int)idlen) : NULL;
	if (img) {
		close(fd);
		return module_from_image(st, path, bias, img);
	}
	return report_module(st, path, fd, bias);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Only real files are opened: not "//anon", memfds (their path is not in
 * the file system), deleted files (the path may now name another build). */
bool symbols_is_file_path(const char *name)
{
	return name[0] == '/' && strncmp(name, "//anon", 6) != 0 &&
	       strncmp(name, "/memfd:", 7) != 0 && !ends_with(name, " (deleted)");
}

/* Regular files only: opening a device or fifo could block or act. */
int symbols_open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat sb;

	if (fd >= 0 && (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* ---- /proc/PID/maps ------------------------------------------------- */

struct maps_line {
	uint64_t start, end, pgoff;
	char perms[5];
	const char *path;  /* points into the line; "" for anonymous */
};

static bool parse_maps_line(char *line, struct maps_line *ml)
{
	int n = -1;

	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %4s %" SCNx64 " %*s %*u %n", &ml->start,
		   &ml->end, ml->perms, &ml->pgoff, &n) < 4 || n < 0)
		return false;
	/* The path keeps inner spaces; only the newline goes. */
	line[strcspn(line, "\n")] = '\0';
	ml->path = line + n;
	return true;
}

/* The end of our own mapping that starts at START. */
static bool self_mapping_end(uint64_t start, uint64_t *end)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		struct maps_line ml;
		if (parse_maps_line(line, &ml) && ml.start == start) {
			*end = ml.end;
			found = true;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* ---- vDSO ----------------------------------------------------------- */

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The kernel maps the same vDSO image into every process (of our ABI), so
 * our own copy, in a memfd, stands for the target's.  The mapping covers
 * the whole image (section headers and .dynsym included). */
static int vdso_memfd(void)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR), end;
	int fd;

	if (!base || !self_mapping_end(base, &end) || end <= base)
		return -1;
	fd = memfd_create("cyctop-vdso", MFD_CLOEXEC);
	if (fd >= 0 && write_all(fd, (const char *)(uintptr_t)base, end - base) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A fresh descriptor of the vDSO image: each Dwfl module closes its own. */
static int vdso_fd(struct symtab *st)
{
	if (st->vdso_fd == -1) {
		st->vdso_fd = vdso_memfd();
		if (st->vdso_fd < 0)
			st->vdso_fd = -2;
	}
	return st->vdso_fd < 0 ? -1 : fcntl(st->vdso_fd, F_DUPFD_CLOEXEC, 0);
}

/* The file of the mapping named NAME: the recorded session's, our vDSO's
 * image, or the path; -1 when none. */
static int open_module_file(struct symtab *st, const char *name)
{
	if (st->opener)
		return st->opener(st->opener_arg, name);
	if (strcmp(name, "[vdso]") == 0)
		return vdso_fd(st);
	if (symbols_is_file_path(name))
		return symbols_open_regular(name);
	return -1;
}

/* ---- JIT code: perf's names and /tmp/perf-PID.map ------------------ */

/* Memory no file backs, as perf tells it (tools/perf/util/map.c
 * is_anon_memory, is_no_dso_memory); "" is /proc/PID/maps' anonymous. */
static bool is_fileless(const char *path)
{
	return !path[0] || strcmp(path, "//anon") == 0 || strncmp(path, "/dev/zero", 9) == 0 ||
	       strncmp(path, "/anon_hugepage", 14) == 0 || strncmp(path, "[stack", 6) == 0 ||
	       strncmp(path, "/SYSV", 5) == 0 || strcmp(path, "[heap]") == 0;
}

const char *symbols_map_name(const char *path, long pid, char *buf, size_t size)
{
	/* perf names such code /tmp/perf-PID.map and shows it "[JIT] tid PID"
	 * (util/dsos.c dso__set_basename): the same name here */
	if (!is_fileless(path) || pid <= 0)
		return path;
	snprintf(buf, size, "[JIT] tid %ld", pid);
	return buf;
}

/* One "START SIZE NAME" line of a perf map (tools/perf/Documentation/
 * jit-interface.txt), hexadecimal without 0x or with it. */
static bool parse_perf_map_line(struct strpool *pool, char *line, struct func *f)
{
	char *end;
	uint64_t start = strtoull(line, &end, 16), size;

	if (end == line || *end != ' ')
		return false;
	line = end + 1;
	size = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || size == 0 || start + size < start)
		return false;
	end[strcspn(end, "\n")] = '\0';
	*f = (struct func){ .start = start, .end = start + size, .bind = STB_GLOBAL,
			    .named = true };
	return (f->name = strpool_intern(pool, end + 1)) != NULL;
}

/* perf reads a map only from its owner or root (util/symbol.c
 * dso__load_perf_map, unless forced): someone else's /tmp file could
 * otherwise rename our functions. */
static FILE *open_perf_map(long pid)
{
	char path[64];
	struct stat sb;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%ld.map", pid);
	if (!(f = fopen(path, "re")))
		return NULL;
	if (fstat(fileno(f), &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    (sb.st_uid != geteuid() && sb.st_uid != 0)) {
		fclose(f);
		return NULL;
	}
	return f;
}

static struct func_image *perf_map_image(const char *name, FILE *f)
{
	struct func_image *img = calloc(1, sizeof(*img));
	char *line = NULL;
	size_t cap = 0, room = 0;
	struct stat sb;

	if (!img || !(img->path = strdup(name))) {
		free(img);
		return NULL;
	}
	if (fstat(fileno(f), &sb) == 0)
		img->map_bytes = (uint64_t)sb.st_size;
	while (getline(&line, &cap, f) > 0) {
		if (GROW(img->funcs, img->n + 1, room) < 0)
			break;
		if (parse_perf_map_line(&img->names, line, &img->funcs[img->n])) {
			/* a runtime writes a function again when it recompiles
			 * it: of two at one address the later wins a tie */
			img->funcs[img->n].idx = UINT32_MAX - (uint32_t)img->n;
			img->n++;
		}
	}
	free(line);
	img->n = finish_funcs(&img->names, img->funcs, img->n, 0);
	return img;
}

/* The module of a JIT mapping (named by symbols_map_name) whose process
 * wrote a perf map; NULL when it wrote none. */
static struct module *module_from_perf_map(struct symtab *st, const char *name)
{
	long pid;
	struct module *mod = find_module(st, name, 0);
	struct func_image *img;
	FILE *f;

	if (mod || sscanf(name, "[JIT] tid %ld", &pid) != 1 || !(f = open_perf_map(pid)))
		return mod;
	img = perf_map_image(name, f);
	fclose(f);
	if (!img || !(mod = module_from_image(st, name, 0, img))) {
		image_free(img);
		return NULL;
	}
	mod->own = img;
	mod->report_failed = true;  /* no ELF to give lines or code */
	return mod;
}

void symtab_allow_jit_reread(struct symtab *st)
{
	st->jit_reread = true;
}

/* The map of JIT mapping M read again, when it grew: a runtime appends a
 * line per function it compiles.  The table it replaces stays (names
 * handed out point into it).  True when M's functions changed. */
static bool jit_map_reread(struct symtab *st, struct mapping *m)
{
	struct func_image *img;
	struct module *mod = m->mod;
	struct stat sb;
	long pid;
	FILE *f;

	if (strncmp(m->name, "[JIT] tid ", 10) != 0 || sscanf(m->name, "[JIT] tid %ld", &pid) != 1)
		return false;
	st->jit_reread = false;
	if (!mod) {  /* no map when first looked up: every mapping of it gets it */
		if (!(mod = module_from_perf_map(st, m->name)))
			return false;
		for (size_t i = 0; i < st->nmaps; i++)
			if (st->maps[i].name == m->name)
				st->maps[i].mod = mod;
		return true;
	}
	if (!mod->own || !(f = open_perf_map(pid)))
		return false;
	img = fstat(fileno(f), &sb) == 0 && (uint64_t)sb.st_size != mod->own->map_bytes ?
		      perf_map_image(m->name, f) : NULL;
	fclose(f);
	if (!img)
		return false;
	img->next = mod->own;
	mod->own = img;
	mod->funcs = img->funcs;
	mod->nfuncs = img->n;
	mod->cache_n = 0;  /* the addresses it missed may be named now */
	hashtab_clear(&mod->cache_index);
	return true;
}

static void resolve_mapping(struct symtab *st, struct mapping *m)
{
	m->resolved = true;
	if (strncmp(m->name, "[JIT] tid ", 10) == 0)
		m->mod = module_from_perf_map(st, m->name);
	else
		m->mod = module_from_fd(st, m, open_module_file(st, m->name), m->name);
}

/* ---- mapping table -------------------------------------------------- */

/* Index of the first mapping that ends after ADDR (mappings do not
 * overlap, so their ends are sorted like their starts). */
static size_t first_ending_after(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room must have been made (GROW). */
static void maps_insert_at(struct symtab *st, size_t i, const struct mapping *m)
{
	memmove(&st->maps[i + 1], &st->maps[i], (st->nmaps - i) * sizeof(*m));
	st->maps[i] = *m;
	st->nmaps++;
}

static void maps_remove_at(struct symtab *st, size_t i)
{
	st->nmaps--;
	memmove(&st->maps[i], &st->maps[i + 1], (st->nmaps - i) * sizeof(st->maps[0]));
}

/* Keeps the part of M from NEW_START on; the bias stays the same. */
static void trim_front(struct mapping *m, uint64_t new_start)
{
	m->pgoff += new_start - m->start;
	m->start = new_start;
}

/* Removes [start, end) from the table, as a new mmap over it does.  Needs
 * one free slot for a split. */
static void maps_punch(struct symtab *st, uint64_t start, uint64_t end)
{
	size_t i = first_ending_after(st, start);

	while (i < st->nmaps && st->maps[i].start < end) {
		struct mapping *m = &st->maps[i];
		if (m->start < start && m->end > end) {
			maps_insert_at(st, i + 1, m);
			st->maps[i].end = start;
			trim_front(&st->maps[i + 1], end);
			return;
		}
		if (m->start < start) {
			m->end = start;
			i++;
		} else if (m->end > end) {
			trim_front(m, end);
			return;
		} else {
			maps_remove_at(st, i);
		}
	}
}

/* ---- public API ----------------------------------------------------- */

struct symtab *symtab_new(void)
{
	struct symtab *st;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->vdso_fd = -1;
	st->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!st->dwfl) {
		free(st);
		return NULL;
	}
	return st;
}

void symtab_free(struct symtab *st)
{
	if (!st)
		return;
	for (struct module *m = st->mods, *next; m; m = next) {
		next = m->next;
		for (struct func_image *img = m->own, *older; img; img = older) {
			older = img->next;  /* a JIT's earlier tables */
			image_free(img);
		}
		free(m->cache);
		hashtab_free(&m->cache_index);
		free(m);
	}
	dwfl_end(st->dwfl);  /* closes the ELF files and frees libdw's caches */
	if (st->vdso_fd >= 0)
		close(st->vdso_fd);
	free(st->maps);
	strpool_free(&st->names);
	free(st);
}

int symtab_add_map(struct symtab *st, const char *path, uint64_t start, uint64_t end,
		   uint64_t pgoff)
{
	struct mapping m = { .start = start, .end = end, .pgoff = pgoff };

	if (!st || !path || end <= start) {
		errno = EINVAL;
		return -1;
	}
	m.name = strpool_intern(&st->names, path[0] ? path : "[anon]");
	if (!m.name || GROW(st->maps, st->nmaps + 2, st->maps_alloc) < 0) {
		errno = ENOMEM;
		return -1;
	}
	maps_punch(st, start, end);
	maps_insert_at(st, first_ending_after(st, start), &m);
	return 0;
}

int symtab_add_proc_maps(struct symtab *st, int pid)
{
	char fname[64], *line = NULL;
	size_t cap = 0;
	int rc = 0;
	FILE *f;

	snprintf(fname, sizeof(fname), "/proc/%d/maps", pid);
	f = sys_fopen(fname, "re");
	if (!f)
		return -1;
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		struct maps_line ml;
		char jit[32];
		if (parse_maps_line(line, &ml) && ml.perms[2] == 'x')
			rc = symtab_add_map(st, symbols_map_name(ml.path, pid, jit, sizeof(jit)),
					    ml.start, ml.end, ml.pgoff);
	}
	free(line);
	fclose(f);
	return rc;
}

int symtab_copy_maps(struct symtab *dst, const struct symtab *src)
{
	/* DST has its own Dwfl: only the mapping records are copied, and each
	 * is resolved again lazily in DST. */
	if (dst == src)
		return 0;
	for (size_t i = 0; i < src->nmaps; i++) {
		const struct mapping *m = &src->maps[i];
		if (symtab_add_map(dst, m->name, m->start, m->end, m->pgoff) < 0)
			return -1;
	}
	return 0;
}

void symtab_clear(struct symtab *st)
{
	/* Modules and names stay: strings already returned remain valid. */
	st->nmaps = 0;
}

static struct mapping *find_mapping(struct symtab *st, uint64_t ip)
{
	size_t i = first_ending_after(st, ip);
	struct mapping *m;

	if (i >= st->nmaps || st->maps[i].start > ip)
		return NULL;
	m = &st->maps[i];
	if (!m->resolved)
		resolve_mapping(st, m);
	return m;
}

bool symtab_lookup(struct symtab *st, uint64_t ip, struct sym_info *out)
{
	struct mapping *m = find_mapping(st, ip);
	const struct func *f = NULL;

	memset(out, 0, sizeof(*out));
	if (!m)
		return false;
	out->module = m->name;
	out->module_base = m->mod ? m->mod->bias : m->start - m->pgoff;
	if (m->mod) {
		struct ip_entry *e = cache_get(m->mod, ip);
		f = e ? e->func : find_func(m->mod, ip);
	}
	if (!f && st->jit_reread && jit_map_reread(st, m))
		return symtab_lookup(st, ip, out);  /* once: jit_reread is off now */
	if (f) {
		out->name = f->name;
		out->start = func_start(m->mod, f);
		out->size = f->end - f->start;
	}
	return true;
}

bool symtab_srcline(struct symtab *st, uint64_t ip, const char **file, int *line)
{
	struct mapping *m = find_mapping(st, ip);
	struct ip_entry *e;

	if (!m || !m->mod || !(e = cache_get(m->mod, ip)))
		return false;
	if (!e->src_done)
		fill_srcline(&st->names, m->mod, e);
	if (!e->file)
		return false;
	*file = e->file;
	*line = e->line;
	return true;
}

/* ---- code bytes ----------------------------------------------------- */

/* Bytes at file vaddr VA from the executable section holding it. */
static const uint8_t *section_bytes(Elf *elf, uint64_t va, size_t *avail)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || va < sh.sh_addr ||
		    va >= sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || va - sh.sh_addr >= d->d_size)
			return NULL;
		*avail = d->d_size - (va - sh.sh_addr);
		return (const uint8_t *)d->d_buf + (va - sh.sh_addr);
	}
	return NULL;
}

/* Without section headers (some stripped or packed files): the PT_LOAD
 * segment, read from the raw image. */
static const uint8_t *segment_bytes(Elf *elf, uint64_t va, size_t *avail)
{
	size_t n, rawsz;
	const char *raw = elf_rawfile(elf, &rawsz);

	if (!raw || elf_getphdrnum(elf, &n) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || va < ph.p_vaddr || va >= ph.p_vaddr + ph.p_filesz)
			continue;
		uint64_t off = ph.p_offset + (va - ph.p_vaddr);
		if (off >= rawsz)
			return NULL;
		*avail = rawsz - off < ph.p_vaddr + ph.p_filesz - va ?
			 rawsz - off : ph.p_vaddr + ph.p_filesz - va;
		return (const uint8_t *)raw + off;
	}
	return NULL;
}

const uint8_t *symtab_code(struct symtab *st, uint64_t addr, size_t *avail)
{
	struct mapping *m = find_mapping(st, addr);
	GElf_Addr bias;
	Elf *elf;
	const uint8_t *p;

	*avail = 0;
	if (!m || !m->mod || !module_dw(m->mod) || !(elf = dwfl_module_getelf(m->mod->dwmod, &bias)))
		return NULL;
	p = section_bytes(elf, addr - bias, avail);
	return p ? p : segment_bytes(elf, addr - bias, avail);
}

uint16_t symtab_machine(struct symtab *st, uint64_t addr)
{
	struct mapping *m = find_mapping(st, addr);
	GElf_Addr bias;
	GElf_Ehdr eh;
	Elf *elf;

	if (!m || !m->mod || !module_dw(m->mod) || !(elf = dwfl_module_getelf(m->mod->dwmod, &bias)) ||
	    !gelf_getehdr(elf, &eh))
		return EM_NONE;
	return eh.e_machine;
}

/* ---- lookup by name ------------------------------------------------- */

static const struct func *module_find_name(struct module *mod, const char *name)
{
	if (!mod->funcs_built)
		build_funcs(mod);
	for (size_t i = 0; i < mod->nfuncs; i++)
		if (strcmp(mod->funcs[i].name, name) == 0)
			return &mod->funcs[i];
	return fde_find_name(mod->img, name);
}

bool symtab_find(struct symtab *st, const char *name, const char *module,
		 struct sym_info *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < st->nmaps; i++) {
		struct mapping *m = &st->maps[i];
		const struct func *f;
		if (!symbols_module_matches(m->name, module))
			continue;
		if (!m->resolved)
			resolve_mapping(st, m);
		if (!m->mod || !(f = module_find_name(m->mod, name)))
			continue;
		/* The function must lie in a mapping (a module maps in parts). */
		if (symtab_lookup(st, func_start(m->mod, f), out) && out->name == f->name)
			return true;
	}
	memset(out, 0, sizeof(*out));
	return false;
}

void symtab_set_opener(struct symtab *st, symtab_open_fn fn, void *arg)
{
	st->opener = fn;
	st->opener_arg = arg;
}

size_t symbols_file_build_id(int fd, uint8_t *out, size_t max)
{
	/* libelf is initialized here too: a pprof session asks before any
	 * symtab_new (elf_begin is NULL until then, every id "none") */
	Elf *elf = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	const void *id;
	ssize_t n;

	if (!elf)
		return 0;
	n = dwelf_elf_gnu_build_id(elf, &id);
	if (n > 0 && (size_t)n <= max)
		memcpy(out, id, (size_t)n);
	else
		n = 0;
	elf_end(elf);
	return (size_t)n;
}

void symtab_foreach_build_id(struct symtab *st, symtab_build_id_fn fn, void *arg)
{
	for (struct module *m = st->mods; m; m = m->next) {
		const unsigned char *bits;
		GElf_Addr vaddr;
		int n = m->idlen;
		if (n > 0)
			fn(arg, m->path, m->id, (size_t)n);
		else if (m->dwmod && (n = dwfl_module_build_id(m->dwmod, &bits, &vaddr)) > 0)
			fn(arg, m->path, bits, (size_t)n);
	}
}

bool symtab_mapping(struct symtab *st, uint64_t addr, struct symtab_map *out)
{
	size_t i = first_ending_after(st, addr);
	const struct mapping *m;

	if (i >= st->nmaps || st->maps[i].start > addr)
		return false;
	m = &st->maps[i];
	*out = (struct symtab_map){ m->start, m->end, m->pgoff, m->name };
	return true;
}

/* ---- modules by soname ---------------------------------------------- */

/* Whether the ELF at PATH says DT_SONAME WANT. */
static bool has_soname(const char *path, const char *want)
{
	int fd = symbols_open_regular(path);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	bool found = false;

	for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn && !found;
	     scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (int i = 0; (size_t)i < sh.sh_size / sh.sh_entsize && !found; i++) {
			GElf_Dyn dyn;
			const char *s;
			if (!gelf_getdyn(d, i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			found = dyn.d_tag == DT_SONAME &&
				(s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)) && strcmp(s, want) == 0;
		}
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return found;
}

/* Whether the file name of PATH is WANT plus a version ("liblzma.so.5"
 * for liblzma.so.5.4.1): the soname convention, for a recorded path that
 * is not on this machine. */
static bool versioned_name_of(const char *path, const char *want)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t n = strlen(want);

	return strchr(want, '/') == NULL && strncmp(base, want, n) == 0 && base[n] == '.' &&
	       base[n + 1] >= '0' && base[n + 1] <= '9';
}

bool symbols_module_matches(const char *path, const char *want)
{
	if (!want)
		return true;
	if (!path)
		return false;
	return strcmp(path, want) == 0 || ends_with(path, want) || versioned_name_of(path, want) ||
	       (symbols_is_file_path(path) && has_soname(path, want));
}

/* ---- kernel symbols (/proc/kallsyms) -------------------------------- */

/* One kallsyms entry in 32 bytes (there are some 120,000).  While reading,
 * IDX and BIND choose among aliases; once sorted, only the functions stay,
 * each with its SIZE, to the next symbol (a data symbol's too). */
struct ksym {
	uint64_t start;
	const char *name;  /* NULL: a data symbol, only the end of the one before */
	uint32_t idx;      /* its line: the last tie-break */
	uint32_t module;   /* "[kernel.kallsyms]" or a module's "[name]" (perf's dso),
			    * by its index among the table's names */
	uint32_t size;
	uint8_t bind;      /* STB_* */
};

/* Kernel function names, copied one after another into 256 KB blocks:
 * kallsyms has some 200,000, each once, so nothing to intern. */
struct name_block {
	struct name_block *next;
	size_t used;
	char text[256 * 1024];
};

struct ksymtab {
	struct ksym *syms;  /* sorted by address, one per address; then functions only */
	size_t n, nfuncs;
	struct name_block *blocks;  /* the newest first */
	struct strpool names;       /* module names, few and repeated */
	uint8_t build_id[64];
	size_t build_id_len;
};

/* Text symbols (t, T; w, W weak) are functions; data symbols only end the
 * function before them; other kinds (absolute, ...) are skipped. */
static bool ksym_kind(char type, bool *text, uint8_t *bind)
{
	*text = type && strchr("tTwW", type);  /* strchr finds a NUL too */
	*bind = type == 'w' || type == 'W' ? STB_WEAK
		: type >= 'A' && type <= 'Z' ? STB_GLOBAL : STB_LOCAL;
	return type && strchr("tTwWdDbBrR", type);
}

/* A copy of NAME (LEN bytes) in K's name blocks, or NULL. */
static const char *ksym_name(struct ksymtab *k, const char *name, size_t len)
{
	struct name_block *b = k->blocks;

	if (len >= sizeof(b->text))
		return NULL;
	if (!b || sizeof(b->text) - b->used <= len) {
		if (!(b = malloc(sizeof(*b))))
			return NULL;
		b->used = 0;
		b->next = k->blocks;
		k->blocks = b;
	}
	char *copy = b->text + b->used;
	memcpy(copy, name, len);
	copy[len] = '\0';
	b->used += len + 1;
	return copy;
}

/* "ADDR TYPE NAME[\tMODULE]\n", parsed by hand: some 200,000 lines at
 * every start (sscanf took a third of a small session's reading). */
static bool parse_kallsyms_line(struct ksymtab *k, char *line, uint32_t idx, struct ksym *ks)
{
	unsigned long long addr;
	char type, *name, *mod, *end;
	bool text;

	errno = 0;
	addr = strtoull(line, &end, 16);
	if (end == line || errno || end[0] != ' ' || !end[1] || end[2] != ' ')
		return false;
	type = end[1];
	if (!ksym_kind(type, &text, &ks->bind))
		return false;
	line[strcspn(line, "\n")] = '\0';
	name = end + 3;
	mod = strchr(name, '\t');
	if (mod)
		*mod++ = '\0';
	if (!name[0])
		return false;
	*ks = (struct ksym){ .start = addr, .idx = idx, .bind = ks->bind };
	if (!text)
		return true;
	int64_t module = strpool_id(&k->names, mod && mod[0] ? mod : "[kernel.kallsyms]");
	ks->name = ksym_name(k, name, strlen(name));
	ks->module = (uint32_t)module;
	return ks->name && module >= 0;
}

/* Functions before data symbols at one address, then perf's choice among
 * aliases: the last in the file.  perf gives kallsyms' symbols size 0,
 * ends each where the next begins, then drops the size-0 aliases
 * (util/symbol.c __dso__load_kallsyms: symbols__fixup_end before
 * symbols__fixup_duplicate), so of __ia32_sys_vfork and __x64_sys_vfork
 * at one address it names the second. */
static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (!x->name || !y->name)
		return !x->name - !y->name;
	return x->idx > y->idx ? -1 : x->idx < y->idx;
}

static int read_kallsyms(struct ksymtab *k, FILE *f)
{
	char *line = NULL;
	size_t cap = 0, room = 0;
	uint32_t idx = 0;
	int rc = 0;

	while (getline(&line, &cap, f) > 0) {
		if (GROW(k->syms, k->n + 1, room) < 0) {
			rc = -1;
			break;
		}
		k->n += parse_kallsyms_line(k, line, idx++, &k->syms[k->n]);
	}
	free(line);
	return rc;
}

/* Sorted, one symbol per address, each ending where the next begins (the
 * last one a page after its page, as perf ends it); then only the
 * functions are kept. */
static void finish_kallsyms(struct ksymtab *k)
{
	size_t m = 0, f = 0;

	qsort(k->syms, k->n, sizeof(*k->syms), ksym_cmp);
	for (size_t i = 0; i < k->n; i++)
		if (m == 0 || k->syms[m - 1].start != k->syms[i].start)
			k->syms[m++] = k->syms[i];
	k->n = m;
	for (size_t i = 0; i < m; i++) {
		uint64_t end = i + 1 < m ? k->syms[i + 1].start : (k->syms[i].start | 4095) + 1 + 4096;
		uint64_t size = end - k->syms[i].start;
		k->syms[i].size = size < UINT32_MAX ? (uint32_t)size : UINT32_MAX;
		if (k->syms[i].name)
			k->syms[f++] = k->syms[i];
	}
	k->nfuncs = f;
	/* the table is kept for the session: none of the growth's slack */
	struct ksym *fit = f ? realloc(k->syms, f * sizeof(*fit)) : NULL;
	if (fit)
		k->syms = fit;
}

struct ksymtab *ksymtab_load(const char *kallsyms, const char *notes, char *err, size_t errsz)
{
	struct ksymtab *k = calloc(1, sizeof(*k));
	FILE *f = NULL;
	int rc;

	if (!kallsyms)
		kallsyms = "/proc/kallsyms";
	if (!k || !(f = sys_fopen(kallsyms, "re"))) {
		snprintf(err, errsz, "%s: %s", kallsyms, k ? strerror(errno) : "out of memory");
		free(k);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 16);  /* fewer reads of the kernel's pages */
	rc = read_kallsyms(k, f);
	fclose(f);
	if (rc == 0)
		finish_kallsyms(k);
	/* With kernel.kptr_restrict every address reads as 0: one entry left. */
	if (rc < 0 || k->n <= 1) {
		snprintf(err, errsz, "%s: %s", kallsyms,
			 rc < 0 ? "out of memory"
			 : k->n == 0 ? "no symbols" : "addresses hidden (kernel.kptr_restrict)");
		ksymtab_free(k);
		return NULL;
	}
	k->build_id_len = symbols_kernel_build_id(notes, k->build_id, sizeof(k->build_id));
	return k;
}

void ksymtab_free(struct ksymtab *k)
{
	if (!k)
		return;
	free(k->syms);
	for (struct name_block *b = k->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	strpool_free(&k->names);
	free(k);
}

bool ksymtab_lookup(const struct ksymtab *k, uint64_t addr, struct sym_info *out)
{
	size_t lo = 0, hi = k->nfuncs;
	const struct ksym *ks;

	memset(out, 0, sizeof(*out));
	while (lo < hi) {  /* first function starting after addr */
		size_t mid = lo + (hi - lo) / 2;
		if (k->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - k->syms[lo - 1].start >= k->syms[lo - 1].size)
		return false;
	ks = &k->syms[lo - 1];
	*out = (struct sym_info){ .name = ks->name, .start = ks->start, .size = ks->size,
				  .module = k->names.strs[ks->module] };
	return true;
}

bool ksymtab_matches(const struct ksymtab *k, const uint8_t *id, size_t len)
{
	return k->build_id_len > 0 && len == k->build_id_len &&
	       memcmp(id, k->build_id, len) == 0;
}

struct ksymtab *ksymtab_load_cached(const uint8_t *id, size_t len, char *err, size_t errsz)
{
	const char *home = getenv("HOME");
	char path[PATH_MAX], hex[2 * sizeof(((struct ksymtab *)0)->build_id) + 1];
	struct ksymtab *k;

	if (!home || len == 0 || len > sizeof(((struct ksymtab *)0)->build_id)) {
		snprintf(err, errsz, "no build-id cache to look in");
		return NULL;
	}
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	snprintf(path, sizeof(path), "%s/.debug/[kernel.kallsyms]/%s/kallsyms", home, hex);
	/* the notes of the running kernel do not apply: the cache is the id's */
	if (!(k = ksymtab_load(path, "/nonexistent", err, errsz)))
		return NULL;
	memcpy(k->build_id, id, len);
	k->build_id_len = len;
	return k;
}

/* 4-byte aligned length of a note's name or descriptor. */
static size_t note_pad(uint32_t n)
{
	return ((size_t)n + 3) & ~(size_t)3;
}

/* /sys/kernel/notes is the kernel's .notes section: ELF notes, each a
 * header, a padded name and a padded descriptor.  The GNU build id is the
 * descriptor of the note named "GNU" of type NT_GNU_BUILD_ID. */
size_t symbols_kernel_build_id(const char *notes, uint8_t *out, size_t max)
{
	uint8_t buf[4096];
	int fd = open(notes ? notes : "/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	size_t off = 0, n = got > 0 ? (size_t)got : 0;

	if (fd >= 0)
		close(fd);
	while (off + sizeof(Elf64_Nhdr) <= n) {
		Elf64_Nhdr h;
		memcpy(&h, buf + off, sizeof(h));
		off += sizeof(h);
		if (note_pad(h.n_namesz) > n - off ||
		    note_pad(h.n_descsz) > n - off - note_pad(h.n_namesz))
			break;
		const uint8_t *name = buf + off, *desc = name + note_pad(h.n_namesz);
		if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
		    h.n_descsz > 0 && h.n_descsz <= max) {
			memcpy(out, desc, h.n_descsz);
			return h.n_descsz;
		}
		off += note_pad(h.n_namesz) + note_pad(h.n_descsz);
	}
	return 0;
}
