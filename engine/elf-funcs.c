/* A module's function table (see engine/symbols-priv.h): its ELF function
 * symbols, the alias perf names at each address, demangled names, the
 * images shared by every address space that maps the same file (struct
 * func_images, made and passed by its owner: a session), and code
 * no symbol covers, named by the FDE that does. */
#include "engine/symbols-priv.h"

#include <inttypes.h>
#include <libiberty/demangle.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---------------------------------------------------------- */

/* Whether libiberty's cplus_demangle may demangle NAME: with no DMGL_TYPES
 * nor a style, it tries Rust's manglings (_R, _ZN) and the C++ ABI's (_Z,
 * _GLOBAL_[._$][DI]_) and gives NULL for any other name (checked on the
 * 115,000 names of libc6-dbg, libstdc++ and libLLVM), after a call:
 * 0.9M instructions of libc's and ld.so's tables, asked of C names. */
static bool maybe_mangled(const char *name)
{
	return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R' || name[1] == 'G');
}

/* The length of the ELF name RAW without its version suffix (a .symtab's
 * "_IO_file_write@@GLIBC_2.2.5"); all of it when it starts with '@'. */
static size_t base_len(const char *raw)
{
	size_t n = strlen(raw);  /* and memchr: strcspn took twice as long */
	const char *at = memchr(raw, '@', n);

	return at && at > raw ? (size_t)(at - raw) : n;
}

/* BASE, an ELF name without its version, as shown: demangled (C++, Rust
 * legacy and v0) as perf report prints it: perf up to 6.3 (and any built
 * with libbfd) uses libiberty without DMGL_PARAMS, which it passes only
 * with -v, so "ns::Box<long>::spin", not its parameters and clone suffix;
 * perf 6.4 on built without libbfd (Debian's: 6.12 in Debian 13)
 * demangles with abi::__cxa_demangle, which writes them
 * ("ns::Box<long>::spin(long) [clone .isra.0]"): --demangle-params,
 * libiberty's DMGL_PARAMS | DMGL_ANSI.  BASE itself when neither
 * applies, else *DEM, which the caller frees. */
static const char *demangled(const struct func_images *fi, const char *base, char **dem)
{
	*dem = NULL;
	if (fi->demangle && maybe_mangled(base) &&
	    (*dem = cplus_demangle(base, fi->demangle_opts)) != NULL)
		return *dem;
	return base;
}

/* F's name (not shown yet: F's name is its ELF name without its version)
 * before another of the same is told apart: demangled, a PLT stub's
 * NAME@plt.  F's name or *OWN, which the caller frees; NULL when out of
 * memory. */
static const char *plain_name(const struct func_images *fi, const struct func *f, char **own)
{
	const char *name;
	char *dem, *plt;

	*own = NULL;
	if (f->kind == FUNC_NAMED)
		return f->name;
	name = demangled(fi, f->name, &dem);
	if (f->kind == FUNC_ELF) {
		*own = dem;
		return name;
	}
	size_t len = strlen(name);  /* asprintf: 1,000 instructions */
	if ((plt = malloc(len + sizeof("@plt")))) {
		memcpy(plt, name, len);
		memcpy(plt + len, "@plt", sizeof("@plt"));
	}
	free(dem);
	return *own = plt;
}

/* F's name told apart from another's by its parameters, as perf report
 * -v does: a C++ function's overloads ("ns::spin(long)" and
 * "ns::spin(double)"), a clone ("ns::spin(long) [clone .cold]").  NULL
 * when it has none to add (not a C++ name, or shown with them already);
 * else the caller frees it. */
static char *params_name(const struct func_images *fi, const struct func *f)
{
	char buf[4096];

	if (f->kind != FUNC_ELF || !fi->demangle || (fi->demangle_opts & DMGL_PARAMS) ||
	    !maybe_mangled(f->name))
		return NULL;
	snprintf(buf, sizeof(buf), "%s", f->name);
	return maybe_mangled(buf) ? cplus_demangle(buf, DMGL_PARAMS | DMGL_ANSI) : NULL;
}

/* A function's name is worked out when a lookup first lands on it: the
 * table keeps its ELF name (finish_funcs), and which two functions would
 * be named alike (tell_apart).  Interning, demangling and telling apart
 * every function of a table, when a process samples some tens of them,
 * took 3.8M instructions of the 7.9M that read the tables of a shell's
 * images (libc's 6,818 functions of its debuginfo among them). */
const struct func *func_shown(const struct func_images *fi, struct func_image *img,
			      struct func *f)
{
	char *own, *params = NULL, buf[4096];
	const char *name;

	if (f->flags & FUNC_SHOWN)
		return f;
	name = plain_name(fi, f, &own);
	if (name && (f->flags & FUNC_PARAMS) && (params = params_name(fi, f)))
		name = params;
	if (name && (f->flags & FUNC_ADDR)) {
		snprintf(buf, sizeof(buf), "%s [%#" PRIx64 "]", name, f->start - img->file_bias);
		name = buf;
	}
	if (name && name != f->name)
		name = strpool_intern(&img->names, name);
	free(own);
	free(params);
	if (!name)
		return NULL;
	f->name = name;
	f->flags |= FUNC_SHOWN;
	return f;
}

/* ---- function tables ------------------------------------------------ */

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* The name X is compared by as an alias: its ELF name, version suffix
 * included; a PLT stub's NAME@plt as shown (*OWN, which the caller
 * frees: no symbol shares a stub's address but another stub's). */
static const char *alias_name(const struct func_images *fi, const struct func_sym *x,
			      char **own)
{
	char *base;

	*own = NULL;
	if (x->kind != FUNC_PLT || !(base = strndup(x->name, base_len(x->name))))
		return x->name;
	struct func f = { .name = base, .kind = FUNC_PLT };
	const char *name = plain_name(fi, &f, own);
	free(base);
	return name ? name : x->name;
}

/* Which alias names an address, as perf report chooses (util/symbol.c
 * choose_best_symbol): a real size beats a size-0 label, non-weak beats
 * weak, global beats local, fewer leading underscores, the longer name,
 * then the first in the symbol table.  So libc's strcoll_l (weak) shows as
 * __strcoll_l (global) and write (weak) as __GI___libc_write (local).
 * Names compare raw, version suffix included. */
static int alias_cmp(const struct func_images *fi, const struct func_sym *x,
		     const struct func_sym *y)
{
	bool xs = x->end > x->start, ys = y->end > y->start;
	char *ox, *oy;
	int ux, uy, cmp;
	size_t nx, ny;

	if (xs != ys)
		return xs ? -1 : 1;
	if ((x->bind == STB_WEAK) != (y->bind == STB_WEAK))
		return x->bind == STB_WEAK ? 1 : -1;
	if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL))
		return x->bind == STB_GLOBAL ? -1 : 1;
	const char *a = alias_name(fi, x, &ox), *b = alias_name(fi, y, &oy);
	ux = leading_underscores(a);
	uy = leading_underscores(b);
	nx = strlen(a);
	ny = strlen(b);
	free(ox);
	free(oy);
	if (ux != uy)
		cmp = ux < uy ? -1 : 1;
	else if (nx != ny)
		cmp = nx > ny ? -1 : 1;
	else
		cmp = x->idx < y->idx ? -1 : x->idx > y->idx;
	return cmp;
}

/* A function's start and its place in the table, as sort_by_start sorts. */
struct start_pos {
	uint64_t start;
	uint32_t pos;
};

/* V (N) sorted by start, stably, through TMP (N more): a byte of the key
 * a pass, from the lowest, skipping the bytes every start shares (libc's
 * starts differ in their low three).  qsort with alias_cmp took 3.2M
 * instructions of libc's and ld.so's tables (a 40-byte copy and a call a
 * comparison); this, 0.2M.  Returns the sorted array (V or TMP). */
static struct start_pos *sort_by_start(struct start_pos *v, struct start_pos *tmp, size_t n)
{
	uint64_t differ = 0;

	for (size_t i = 1; i < n; i++)
		differ |= v[i].start ^ v[0].start;
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };
		if (!((differ >> shift) & 0xff))
			continue;
		for (size_t i = 0; i < n; i++)
			count[((v[i].start >> shift) & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i].start >> shift) & 0xff]++] = v[i];
		struct start_pos *t = v;
		v = tmp;
		tmp = t;
	}
	return v;
}

/* The indices into S (N) of the best alias (alias_cmp; the first in S of
 * two alike) at each start, in order of start: as a stable sort by start
 * and alias_cmp keeping the first of each start.  Their count in *K;
 * NULL when out of memory. */
static uint32_t *best_by_start(const struct func_images *fi, const struct func_sym *s,
			       size_t n, size_t *k)
{
	struct start_pos *v = n <= UINT32_MAX ? malloc(2 * n * sizeof(*v)) : NULL, *by;
	uint32_t *best = v ? malloc(n * sizeof(*best)) : NULL;

	*k = 0;
	if (!best) {
		free(v);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (struct start_pos){ s[i].start, (uint32_t)i };
	by = sort_by_start(v, v + n, n);
	for (size_t i = 0, j; i < n; i = j) {
		uint32_t b = by[i].pos;
		for (j = i + 1; j < n && by[j].start == by[i].start; j++)
			if (alias_cmp(fi, &s[by[j].pos], &s[b]) < 0)
				b = by[j].pos;
		best[(*k)++] = b;
	}
	free(v);
	return best;
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

/* Where collect_funcs is: the functions so far, and the section of the
 * one before (a file's functions follow one another in .text: two libelf
 * lookups a function, 0.35M instructions of libc's table, now one in 70). */
struct collect {
	struct func_sym *f;
	size_t k;
	Elf *elf;
	GElf_Word shndx;
	uint64_t end;
};

/* Symbol I (SYM named NAME at ADDR, in section SHNDX of ELF loaded at
 * BIAS, as dwfl_module_getsym_info gives them) appended if a function. */
static void collect_sym(struct collect *c, int i, const GElf_Sym *sym, const char *name,
			GElf_Addr addr, GElf_Word shndx, Elf *elf, Dwarf_Addr bias)
{
	if (!is_function(sym, name, shndx, elf))
		return;
	if (!c->elf || elf != c->elf || shndx != c->shndx) {
		c->elf = elf;
		c->shndx = shndx;
		c->end = section_end(elf, shndx, bias);
	}
	c->f[c->k++] = (struct func_sym){ .start = addr, .end = addr + sym->st_size,
					  .limit = c->end, .name = name, .idx = (uint32_t)i,
					  .bind = (uint8_t)GELF_ST_BIND(sym->st_info),
					  .kind = FUNC_ELF };
}

/* The symbol table libdwfl chose for a module (collect_funcs), when it is
 * one section of one ELF: the file's .symtab or .dynsym, or its
 * debuginfo's; not .gnu_debugdata's merged with .dynsym, nor one found
 * from the dynamic segment.  Its symbols are then read there, doing once
 * what dwfl_module_getsym_info does for each (280 instructions a symbol:
 * 3.0M of a shell's images' 10,838). */
struct sym_section {
	Elf *elf;
	Elf_Data *syms, *strs;
	Dwarf_Addr bias;
	/* a 64-bit ELF's symbols as libelf holds them, read in place
	 * (gelf_getsym's copy: 30 instructions a symbol) */
	const Elf64_Sym *sym64;
	size_t n64;
};

/* Whether libdwfl's symbol I of DM is symbol I of T: its name the same
 * bytes in memory, its value the same. */
static bool same_sym(Dwfl_Module *dm, const struct sym_section *t, int i)
{
	GElf_Sym a, b;
	GElf_Addr addr;
	GElf_Word shndx;
	Elf *elf = NULL;
	Dwarf_Addr bias = 0;
	const char *name = dwfl_module_getsym_info(dm, i, &a, &addr, &shndx, &elf, &bias);

	return name && elf == t->elf && bias == t->bias && gelf_getsym(t->syms, i, &b) &&
	       b.st_name < t->strs->d_size && name == (const char *)t->strs->d_buf + b.st_name &&
	       a.st_value == b.st_value && a.st_info == b.st_info;
}

/* T, the section of DM's NSYMS symbols; false when libdwfl's table is
 * not one section's, or its values need more than a bias (an Arm
 * Thumb bit, PowerPC descriptors, a section index past 65,279). */
static bool sym_section_of(Dwfl_Module *dm, int nsyms, struct sym_section *t)
{
	GElf_Sym sym;
	GElf_Addr addr;
	GElf_Word shndx;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;

	*t = (struct sym_section){ 0 };
	if (!dwfl_module_getsym_info(dm, nsyms - 1, &sym, &addr, &shndx, &t->elf, &t->bias) ||
	    !t->elf || !gelf_getehdr(t->elf, &eh) ||
	    (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64 && eh.e_machine != EM_386))
		return false;
	while ((scn = elf_nextscn(t->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB_SHNDX)
			return false;
		if (!t->syms && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) &&
		    sh.sh_entsize && sh.sh_size / sh.sh_entsize == (uint64_t)nsyms) {
			t->syms = elf_getdata(scn, NULL);
			t->strs = elf_getdata(elf_getscn(t->elf, sh.sh_link), NULL);
		}
	}
	if (t->syms && gelf_getclass(t->elf) == ELFCLASS64 && t->syms->d_type == ELF_T_SYM) {
		t->sym64 = t->syms->d_buf;
		t->n64 = t->sym64 ? t->syms->d_size / sizeof(*t->sym64) : 0;
	}
	return t->syms && t->strs && t->strs->d_buf && same_sym(dm, t, 0) &&
	       same_sym(dm, t, nsyms / 2) && same_sym(dm, t, nsyms - 1) &&
	       (nsyms < 2 || same_sym(dm, t, 1));
}

/* T's symbols into C as dwfl_module_getsym_info gives them (libdwfl's
 * __libdwfl_getsym): a non-allocated section's index is -1, and only
 * values in an allocated section are biased (not SHN_ABS, SHN_COMMON
 * nor SHN_UNDEF ones).  False on a symbol read otherwise (SHN_XINDEX). */
static bool collect_section(const struct sym_section *t, int nsyms, struct collect *c)
{
	GElf_Word last = SHN_UNDEF;
	bool alloc = true;

	for (int i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Shdr sh;
		int type;
		if (t->sym64 && (size_t)i < t->n64)
			sym = t->sym64[i];
		else if (t->sym64 || !gelf_getsym(t->syms, i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
			continue;   /* is_function's first test */
		if (sym.st_shndx == SHN_XINDEX)
			return false;
		if (sym.st_name >= t->strs->d_size)
			continue;
		GElf_Word shndx = sym.st_shndx;
		GElf_Addr addr = sym.st_value;
		bool in_sec = shndx != SHN_UNDEF && shndx < SHN_LORESERVE;
		if (in_sec && shndx != last) {
			last = shndx;
			alloc = !gelf_getshdr(elf_getscn(t->elf, shndx), &sh) ||
				(sh.sh_flags & SHF_ALLOC);
		}
		if (in_sec && !alloc)
			shndx = (GElf_Word)-1;
		else if (shndx != SHN_UNDEF && shndx != SHN_ABS && shndx != SHN_COMMON)
			addr += t->bias;
		collect_sym(c, i, &sym, (const char *)t->strs->d_buf + sym.st_name, addr, shndx,
			    t->elf, t->bias);
	}
	return true;
}

/* Appends the module's function symbols to F (room for all of them):
 * .symtab of the file or of its separate debuginfo, else .dynsym (libdwfl
 * picks). */
static size_t collect_funcs(Dwfl_Module *dm, int nsyms, struct func_sym *f)
{
	struct collect c = { .f = f };
	struct sym_section t;

	if (sym_section_of(dm, nsyms, &t) && collect_section(&t, nsyms, &c))
		return c.k;
	c = (struct collect){ .f = f };
	for (int i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		const char *name = dwfl_module_getsym_info(dm, i, &sym, &addr, &shndx, &elf, &bias);
		collect_sym(&c, i, &sym, name, addr, shndx, elf, bias);
	}
	return c.k;
}

/* ---- one name, two functions ------------------------------------------ */

/* NAME's hash for flag_alike, 8 bytes at a time (hash_str, FNV-1a a byte
 * at a time, took 120 instructions a name). */
static uint32_t name_hash(const char *name)
{
	size_t n = strlen(name);
	const char *end = name + n;
	uint64_t h = n, w = 0;

	for (; end - name > 8; name += 8) {
		memcpy(&w, name, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	}
	if (n >= 8)
		memcpy(&w, end - 8, 8);  /* the last 8, overlapping the word before */
	else
		while (name < end)
			w = w << 8 | (unsigned char)*name++;
	return (uint32_t)hash_mix(h ^ w);
}

/* Flags FLAG each of F (N) whose NAME another has too (an open-addressed
 * table of the names' hashes: one hash a name, strings compared only when
 * two hashes are equal); -1 when out of memory. */
static int flag_alike(struct func *f, const char *const *name, size_t n, uint8_t flag)
{
	size_t size = 16;  /* a power of two, twice N at least */

	while (size < 2 * n)
		size <<= 1;
	uint32_t *slot = calloc(size, sizeof(*slot)), *h = malloc(n * sizeof(*h));
	for (size_t i = 0; slot && h && i < n; i++) {
		size_t j;
		h[i] = name_hash(name[i]);
		for (j = h[i] & (size - 1); slot[j]; j = (j + 1) & (size - 1)) {
			size_t o = slot[j] - 1;
			if (h[o] == h[i] && strcmp(name[o], name[i]) == 0) {
				f[o].flags |= flag;
				f[i].flags |= flag;
				break;
			}
		}
		if (!slot[j])
			slot[j] = (uint32_t)i + 1;
	}
	int rc = slot && h ? 0 : -1;
	free(slot);
	free(h);
	return rc;
}

/* Two functions of one module named alike are two functions (perf report
 * keeps them apart by address, util/sort.c sort__sym_cmp): each of F (N)
 * that shares its name (plain_name) with another is told apart, as perf
 * report -v does: a C++ function by its parameters (FUNC_PARAMS,
 * params_name) and, when that is no different (two static functions of
 * one name, two JIT code objects), by its address in the file (FUNC_ADDR):
 * "helper [0x1139]".  Only flagged here; func_shown names.  -1 when out
 * of memory. */
static int tell_apart(const struct func_images *fi, struct func *f, size_t n)
{
	char **own = calloc(n, sizeof(*own)), *p;
	const char **name = calloc(n, sizeof(*name));
	bool renamed = false;
	int rc = -1;

	for (size_t i = 0; own && name && i < n; i++)
		if (f[i].kind == FUNC_ELF && !maybe_mangled(f[i].name))
			name[i] = f[i].name;  /* plain_name's most common answer, sooner */
		else if (!(name[i] = plain_name(fi, &f[i], &own[i])))
			goto out;
	if (!own || !name || flag_alike(f, name, n, FUNC_PARAMS) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		if ((f[i].flags & FUNC_PARAMS) && (p = params_name(fi, &f[i]))) {
			free(own[i]);
			name[i] = own[i] = p;
			renamed = true;
		}
	for (size_t i = 0; !renamed && i < n; i++)  /* the same names: the same twins */
		if (f[i].flags & FUNC_PARAMS)
			f[i].flags |= FUNC_ADDR;
	rc = renamed ? flag_alike(f, name, n, FUNC_ADDR) : 0;
out:
	for (size_t i = 0; own && i < n; i++)
		if (own[i])
			free(own[i]);
	free(own);
	free(name);
	return rc;
}

/* IMG's table of the N functions S[BEST[i]] (best_by_start's), their ELF
 * names without versions copied (libdw's go with the Dwfl that read
 * them; the table lives as long as the session); size-0 ones extended to
 * the next (or their section's or MOD_END). */
static bool keep_funcs(struct func_image *img, const struct func_sym *s, const uint32_t *best,
		       size_t n, uint64_t mod_end)
{
	size_t bytes = 0, at = 0;
	uint32_t *len = malloc(n * sizeof(*len));

	for (size_t i = 0; len && i < n; i++) {
		const struct func_sym *x = &s[best[i]];
		len[i] = x->kind == FUNC_NAMED ? 0 : (uint32_t)base_len(x->name);
		bytes += x->kind == FUNC_NAMED ? 0 : len[i] + 1;
	}
	if (!len || bytes > UINT32_MAX || !(img->funcs = malloc(n * sizeof(*img->funcs))) ||
	    (bytes && !(img->elf_names = malloc(bytes)))) {
		free(len);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		const struct func_sym *x = &s[best[i]];
		struct func *f = &img->funcs[i];
		uint64_t next = i + 1 < n ? s[best[i + 1]].start : mod_end;
		*f = (struct func){ x->start, x->end, x->name, x->kind, 0 };
		if (x->kind != FUNC_NAMED) {
			memcpy(img->elf_names + at, x->name, len[i]);
			img->elf_names[at + len[i]] = '\0';
			f->name = img->elf_names + at;
			at += len[i] + 1;
		}
		if (x->limit > x->start && x->limit < next)
			next = x->limit;
		if (f->end == f->start)
			f->end = next > f->start ? next : f->start + 1;
	}
	free(len);
	return true;
}

size_t finish_funcs(const struct func_images *fi, struct func_image *img,
		    const struct func_sym *s, size_t n, uint64_t mod_end, uint64_t bias)
{
	size_t k = 0;
	uint32_t *best = n ? best_by_start(fi, s, n, &k) : NULL;
	bool ok = k && keep_funcs(img, s, best, k, mod_end) && tell_apart(fi, img->funcs, k) == 0;

	free(best);
	img->file_bias = bias;
	if (ok)
		return img->n = k;
	free(img->funcs);  /* out of memory: no table */
	free(img->elf_names);
	img->funcs = NULL;
	img->elf_names = NULL;
	return img->n = 0;
}

/* ---- the images of a session's binaries --------------------------------- */

struct func_images *func_images_new(const struct sym_naming *how)
{
	struct func_images *fi = calloc(1, sizeof(*fi));

	if (!fi)
		return NULL;
	fi->demangle = !how || !how->mangled;
	fi->demangle_opts = how && how->params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS;
	return fi;
}

void func_images_free(struct func_images *fi)
{
	if (!fi)
		return;
	for (size_t i = 0; i < fi->n; i++)
		image_free(fi->v[i]);
	free(fi->v);
	hashtab_free(&fi->index);
	free(fi);
}

struct image_key {
	const char *path;
	const unsigned char *id;
	int idlen;
};

static uint64_t image_hash(const struct image_key *k)
{
	return hash_mix(hash_bytes(k->id, (size_t)k->idlen) ^ hash_str(k->path));
}

static bool image_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct image_key *k = key;
	const struct func_image *img = ((const struct func_images *)ctx)->v[idx];

	return img->idlen == k->idlen && memcmp(img->id, k->id, (size_t)k->idlen) == 0 &&
	       strcmp(img->path, k->path) == 0;
}

/* IMG (with its build id) kept in FI and found from now on; false when
 * out of memory. */
static bool image_keep(struct func_images *fi, struct func_image *img)
{
	struct image_key k = { img->path, img->id, img->idlen };

	if (fi->n >= HASHTAB_NONE || GROW(fi->v, fi->n + 1, fi->room) < 0 ||
	    hashtab_add(&fi->index, image_hash(&k), (uint32_t)fi->n) < 0)
		return false;
	fi->v[fi->n++] = img;
	return true;
}

void image_free(struct func_image *img)
{
	if (!img)
		return;
	free(img->funcs);
	free(img->elf_names);
	for (size_t i = 0; i < img->nfde; i++)
		free(img->fde[i]);
	free(img->fde);
	strpool_free(&img->names);
	free(img->path);
	free(img);
}

struct func_image *image_find(const struct func_images *fi, const char *path,
			      const unsigned char *id, int idlen)
{
	struct image_key k = { path, id, idlen };
	uint32_t i = hashtab_find(&fi->index, image_hash(&k), &k, image_eq, fi);

	return i == HASHTAB_NONE ? NULL : fi->v[i];
}

/* The table read from MOD's ELF (NULL when out of memory). */
static struct func_image *image_build(const struct func_images *fi, struct module *mod)
{
	Dwarf_Addr lo, hi, bias = 0;
	Elf *elf = dwfl_module_getelf(mod->dwmod, &bias);
	int nsyms = dwfl_module_getsymtab(mod->dwmod);
	size_t cap = (nsyms > 0 ? (size_t)nsyms : 0) + (elf ? plt_capacity(elf) : 0), n;
	struct func_image *img = calloc(1, sizeof(*img));
	struct func_sym *s;

	if (!img || !(img->path = strdup(mod->path))) {
		free(img);
		return NULL;
	}
	img->bias = mod->bias;
	if (cap == 0 || !(s = malloc(cap * sizeof(*s))))
		return img;
	n = nsyms > 0 ? collect_funcs(mod->dwmod, nsyms, s) : 0;
	if (elf)
		n += add_plt_funcs(&img->names, elf, bias, s + n);
	dwfl_module_info(mod->dwmod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	finish_funcs(fi, img, s, n, hi, bias);
	free(s);
	return img;
}

void build_funcs(struct module *mod)
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
		img = image_find(mod->st->images, mod->path, id, idlen);
	else
		idlen = 0;
	if (!img) {
		if (!(img = image_build(mod->st->images, mod)))
			return;
		if (idlen > 0) {
			memcpy(img->id, id, (size_t)idlen);
			img->idlen = idlen;
		}
		if (idlen == 0 || !image_keep(mod->st->images, img))
			mod->own = img;
	}
	mod->img = img;
	mod->funcs = img->funcs;
	mod->nfuncs = img->n;
	mod->fdelta = img->bias - mod->bias;
}

const struct func *find_func(struct module *mod, uint64_t ip)
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
	return module_func(mod, lo - 1);
}

const struct func *module_func(struct module *mod, size_t k)
{
	return func_shown(mod->st->images, mod->img, &mod->img->funcs[k]);
}

/* ---- code without a symbol: the function its FDE covers --------------- */

/* .eh_frame_hdr's binary search table: FDE_COUNT pairs (initial location,
 * FDE address), datarel sdata4 from the header's address, sorted by
 * location (the LSB's "Exception Frames"; the table unwinders search,
 * engine/unwind-files.c hands the same one to libunwind). */
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

const struct func *fde_func(struct module *mod, uint64_t ip)
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
	base = base ? base + 1 : mod->path;
	/* [dash+0x4580]; a module named in brackets too: [vdso+0x780] */
	size_t len = strlen(base);
	if (len > 2 && base[0] == '[' && base[len - 1] == ']')
		snprintf(name, sizeof(name), "[%.*s+%#" PRIx64 "]", (int)(len - 2), base + 1,
			 (uint64_t)(start - mod->bias));
	else
		snprintf(name, sizeof(name), "[%s+%#" PRIx64 "]", base,
			 (uint64_t)(start - mod->bias));
	struct func *f = calloc(1, sizeof(*f));
	if (!f || GROW(img->fde, img->nfde + 1, img->fde_alloc) < 0 ||
	    !(f->name = strpool_intern(&img->names, name))) {
		free(f);
		return NULL;
	}
	f->start = start + mod->fdelta;
	f->end = end + mod->fdelta;
	f->kind = FUNC_NAMED;
	f->flags = FUNC_SHOWN;
	k = fde_after(img, f->start);  /* kept sorted by start */
	memmove(img->fde + k + 1, img->fde + k, (img->nfde - k) * sizeof(*img->fde));
	img->fde[k] = f;
	img->nfde++;
	return f;
}

const struct func *find_func_name(struct module *mod, const char *name)
{
	const struct func *f;

	if (!mod->funcs_built)
		build_funcs(mod);
	for (size_t i = 0; i < mod->nfuncs; i++)  /* names each, once */
		if ((f = module_func(mod, i)) && strcmp(f->name, name) == 0)
			return f;
	for (size_t i = 0; mod->img && i < mod->img->nfde; i++)
		if (strcmp(mod->img->fde[i]->name, name) == 0)
			return mod->img->fde[i];
	return NULL;
}
