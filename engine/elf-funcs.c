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

/* The name shown for the ELF symbol name RAW: without its version suffix
 * (a .symtab's "_IO_file_write@@GLIBC_2.2.5"), demangled (C++, Rust legacy
 * and v0) as perf report prints it: perf up to 6.3 (and any built with
 * libbfd) uses libiberty without DMGL_PARAMS, which it passes only with -v,
 * so "ns::Box<long>::spin", not its parameters and clone suffix; perf 6.4
 * on built without libbfd (Debian's: 6.12 in Debian 13) demangles with
 * abi::__cxa_demangle, which writes them ("ns::Box<long>::spin(long)
 * [clone .isra.0]"): --demangle-params, libiberty's DMGL_PARAMS | DMGL_ANSI.
 * RAW itself when neither applies, else *BASE or *DEM, which the caller
 * frees; NULL when out of memory. */
static const char *shown_name(const struct func_images *fi, const char *raw, char **base,
			      char **dem)
{
	size_t n = strcspn(raw, "@");
	const char *out = raw;

	*base = *dem = NULL;
	if (raw[n] && n > 0) {
		if (!(*base = strndup(raw, n)))
			return NULL;
		out = *base;
	}
	if (fi->demangle && maybe_mangled(out) &&
	    (*dem = cplus_demangle(out, fi->demangle_opts)) != NULL)
		out = *dem;
	return out;
}

const char *display_name(const struct func_images *fi, struct strpool *pool, const char *raw)
{
	char *base, *dem;
	const char *out = shown_name(fi, raw, &base, &dem);

	if (out && out != raw)
		out = strpool_intern(pool, out);
	free(base);
	free(dem);
	return out;
}

/* RAW's display name interned in POOL: its number there; -1 when out of
 * memory. */
static int64_t display_id(const struct func_images *fi, struct strpool *pool, const char *raw)
{
	char *base, *dem;
	const char *out = shown_name(fi, raw, &base, &dem);
	int64_t id = out ? strpool_id(pool, out) : -1;

	free(base);
	free(dem);
	return id;
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

/* A function's start and its place in the table, as sort_by_start sorts. */
struct start_pos {
	uint64_t start;
	uint32_t pos;
};

/* V (N) sorted by start, stably, through TMP (N more): a byte of the key
 * a pass, from the lowest, skipping the bytes every start shares (libc's
 * starts differ in their low three).  qsort with func_cmp took 3.2M
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

/* F (N) in order of start, the best alias (alias_cmp; the first in F of
 * two alike) at each: as qsort with func_cmp and keeping the first of
 * each start (glibc's qsort is a stable merge sort).  Their count. */
static size_t best_by_start(struct func *f, size_t n)
{
	struct start_pos *v = malloc(2 * n * sizeof(*v)), *by;
	struct func *out = malloc(n * sizeof(*out));
	size_t k = 0;

	if (!v || !out || n > UINT32_MAX) {
		free(v);
		free(out);
		qsort(f, n, sizeof(*f), func_cmp);
		for (size_t i = 0; i < n; i++)
			if (k == 0 || f[k - 1].start != f[i].start)
				f[k++] = f[i];
		return k;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (struct start_pos){ f[i].start, (uint32_t)i };
	by = sort_by_start(v, v + n, n);
	for (size_t i = 0, j; i < n; i = j) {
		const struct func *best = &f[by[i].pos];
		for (j = i + 1; j < n && by[j].start == by[i].start; j++)
			if (alias_cmp(&f[by[j].pos], best) < 0)
				best = &f[by[j].pos];
		out[k++] = *best;
	}
	memcpy(f, out, k * sizeof(*f));
	free(out);
	free(v);
	return k;
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
	/* the section of the function before: a file's functions follow one
	 * another in .text (two libelf lookups a function, 0.35M
	 * instructions of libc's table, now one in 70) */
	Elf *last_elf = NULL;
	GElf_Word last_shndx = 0;
	uint64_t last_end = 0;

	for (int i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		const char *name = dwfl_module_getsym_info(dm, i, &sym, &addr, &shndx, &elf, &bias);
		if (!is_function(&sym, name, shndx, elf))
			continue;
		if (!last_elf || elf != last_elf || shndx != last_shndx) {
			last_elf = elf;
			last_shndx = shndx;
			last_end = section_end(elf, shndx, bias);
		}
		f[k++] = (struct func){ .start = addr, .end = addr + sym.st_size, .name = name,
					.limit = last_end, .idx = (uint32_t)i,
					.bind = (uint8_t)GELF_ST_BIND(sym.st_info) };
	}
	return k;
}

/* ---- one name, two functions ------------------------------------------ */

/* While names are compared, each function's display name is its number in
 * the image's pool (ID[i] of F[i]: one name, one number), which finds two
 * functions of one name without hashing a string (a table of the names
 * hashed each name twice more: 1.8M instructions of libc's table; a sort
 * by name took a third of reading it). */

/* The functions IDX (N indices into ID) whose name another has too, moved
 * to its front in their order; how many.  NIDS: the pool's count. */
static size_t shared_names(const uint32_t *id, uint32_t *idx, size_t n, size_t nids)
{
	uint32_t *count = calloc(nids, sizeof(*count));
	size_t k = 0;

	for (size_t i = 0; count && i < n; i++)
		count[id[idx[i]]]++;
	for (size_t i = 0; count && i < n; i++)
		if (count[id[idx[i]]] > 1)
			idx[k++] = idx[i];
	free(count);
	return k;
}

/* Each of the functions IDX (N) of F shares its name with another: each is
 * named by what tells it apart, as perf report -v does: a C++ function by
 * its parameters (overloads, "ns::spin(long)" and "ns::spin(double)"; a
 * clone, "ns::spin(long) [clone .cold]") and, when that is no different
 * (two static functions of one name, two JIT code objects), by its address
 * in the file: "helper [0x1139]".  PASS 0 gives the parameters (from RAW,
 * the ELF names), pass 1 the addresses; ID follows. */
static void tell_apart(const struct func_images *fi, struct strpool *pool, struct func *f,
		       const char **raw, uint32_t *id, const uint32_t *idx, size_t n, int pass,
		       uint64_t bias)
{
	for (size_t k = 0; k < n; k++) {
		struct func *g = &f[idx[k]];
		char *dem = NULL, buf[4096];
		int64_t to = -1;
		if (pass == 0 && !g->named && fi->demangle && !(fi->demangle_opts & DMGL_PARAMS)) {
			size_t len = strcspn(raw[idx[k]], "@");
			snprintf(buf, sizeof(buf), "%.*s", (int)len, raw[idx[k]]);
			if (maybe_mangled(buf) &&
			    (dem = cplus_demangle(buf, DMGL_PARAMS | DMGL_ANSI)) != NULL)
				to = strpool_id(pool, dem);
		} else if (pass == 1) {
			snprintf(buf, sizeof(buf), "%s [%#" PRIx64 "]", g->name, g->start - bias);
			to = strpool_id(pool, buf);
		}
		if (to >= 0) {
			g->name = pool->strs[to];
			id[idx[k]] = (uint32_t)to;
		}
		free(dem);
	}
}

/* Two functions of one module named alike are two functions (perf report
 * keeps them apart by address, util/sort.c sort__sym_cmp): each of F (N)
 * that shares its display name (number ID) with another is renamed by
 * tell_apart.  RAW holds their ELF names; BIAS is the module's (image
 * addresses minus BIAS are the file's). */
static void distinct_names(const struct func_images *fi, struct strpool *pool, struct func *f,
			   const char **raw, uint32_t *id, size_t n, uint64_t bias)
{
	uint32_t *idx = malloc(n * sizeof(*idx));

	for (int pass = 0; idx && pass < 2; pass++) {
		for (size_t i = 0; i < n; i++)
			idx[i] = (uint32_t)i;
		tell_apart(fi, pool, f, raw, id, idx, shared_names(id, idx, n, pool->n), pass,
			   bias);
	}
	free(idx);
}

/* Sorts, keeps the best alias per address with its display name (told
 * apart from another function's of the same name, distinct_names), and
 * extends size-0 symbols to the next symbol (or their section's or the
 * module's end).  Every name ends interned in POOL (none left in libdw's
 * strings); none when out of memory.  BIAS: the module's load bias. */
size_t finish_funcs(const struct func_images *fi, struct strpool *pool, struct func *f, size_t n,
		    uint64_t mod_end, uint64_t bias)
{
	size_t k = n ? best_by_start(f, n) : 0, i;
	const char **raw = k ? malloc(k * sizeof(*raw)) : NULL;
	uint32_t *id = k ? malloc(k * sizeof(*id)) : NULL;

	for (i = 0; raw && id && i < k; i++) {
		uint64_t next = i + 1 < k ? f[i + 1].start : mod_end;
		int64_t d = f[i].named ? strpool_id(pool, f[i].name)
				       : display_id(fi, pool, f[i].name);
		if (d < 0)
			break;
		raw[i] = f[i].name;
		id[i] = (uint32_t)d;
		f[i].name = pool->strs[d];
		if (f[i].limit > f[i].start && f[i].limit < next)
			next = f[i].limit;
		if (f[i].end == f[i].start)
			f[i].end = next > f[i].start ? next : f[i].start + 1;
	}
	if (k && i == k)
		distinct_names(fi, pool, f, raw, id, k, bias);
	else
		k = 0;  /* out of memory: no table rather than names libdw frees */
	free(raw);
	free(id);
	return k;
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

/* The table read from MOD's ELF (NULL when out of memory); every name
 * interned in the image (finish_funcs), as libdw's strings go with MOD's
 * Dwfl. */
static struct func_image *image_build(const struct func_images *fi, struct module *mod)
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
	if (cap == 0 || !(img->funcs = malloc(cap * sizeof(*img->funcs))))
		return img;
	img->n = nsyms > 0 ? collect_funcs(mod->dwmod, nsyms, img->funcs) : 0;
	if (elf)
		img->n += add_plt_funcs(fi, &img->names, elf, bias, img->funcs + img->n);
	dwfl_module_info(mod->dwmod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	img->n = finish_funcs(fi, &img->names, img->funcs, img->n, hi, bias);
	if (img->n > 0) {  /* most symbols are not functions: give back */
		struct func *f = realloc(img->funcs, img->n * sizeof(*f));
		if (f)
			img->funcs = f;
	}
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
	return &mod->funcs[lo - 1];
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
const struct func *fde_find_name(const struct func_image *img, const char *name)
{
	for (size_t i = 0; img && i < img->nfde; i++)
		if (strcmp(img->fde[i]->name, name) == 0)
			return img->fde[i];
	return NULL;
}
