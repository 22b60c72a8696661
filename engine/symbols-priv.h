/* The private side of engine/symbols.c and its rooms: the structures they
 * share and the functions one calls in another.  engine/symbols.h is the
 * public interface; nothing outside these files includes this.
 *
 *   symbols.c     the symtab: mappings, modules (libdwfl), the per-IP
 *                 cache, source lines, code bytes, lookup by name
 *   elf-funcs.c   a module's function table: ELF symbols, the alias perf
 *                 names, demangled names, images shared by every address
 *                 space, and code no symbol covers named by its FDE
 *   plt.c         NAME@plt functions for the PLT stubs
 *   jit-map.c     JIT code: /tmp/perf-PID.map
 *   kallsyms.c    kernel symbols (/proc/kallsyms), needing none of this
 *
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
#ifndef ENGINE_SYMBOLS_PRIV_H
#define ENGINE_SYMBOLS_PRIV_H

#include "engine/symbols.h"
#include "lib/hashtab.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>

/* A function as read (collect_funcs, add_plt_funcs, a perf map), before
 * finish_funcs keeps the best alias at each address in a struct func. */
struct func_sym {
	uint64_t start, end;  /* at the image's bias, [start, end) */
	uint64_t limit;       /* end of the symbol's section, 0 if unknown */
	const char *name;     /* the ELF's (libdw's strings) name of a FUNC_ELF or
			       * FUNC_PLT; a FUNC_NAMED's, kept in the image */
	uint32_t idx;         /* index in the symbol table: the last tie-break */
	uint8_t bind;         /* STB_* */
	uint8_t kind;         /* enum func_kind */
};

enum func_kind {
	FUNC_ELF,    /* an ELF symbol: shown demangled, without its version */
	FUNC_PLT,    /* a PLT stub: NAME@plt of the symbol of its GOT slot */
	FUNC_NAMED,  /* shown as it is: a JIT's name, *ABS*+0xADDR@plt, an FDE's */
};

/* struct func's flags. */
#define FUNC_SHOWN 1   /* name is the one shown (func_shown) */
#define FUNC_PARAMS 2  /* its name is another's: told apart by its parameters */
#define FUNC_ADDR 4    /* ... and still another's: by its address in the file */

/* A function of an image's table.  Its name is worked out (demangled, told
 * apart) on the first lookup that lands on it (func_shown): a process
 * samples some tens of its libc's thousands of functions. */
struct func {
	uint64_t start, end;  /* at its image's bias (struct func_image), [start, end) */
	const char *name;     /* FUNC_SHOWN: as shown; else a FUNC_NAMED's or the
			       * ELF name without its version, in the image */
	uint8_t kind;         /* enum func_kind */
	uint8_t flags;        /* FUNC_* */
};

/* The cached answer for one IP of a module. */
struct ip_entry {
	uint64_t ip;
	const struct func *func;  /* NULL: no function symbol covers ip */
	const char *file;         /* source line, valid when src_done */
	int line;
	bool src_done;
};

/* A module's function table, shared by every address space that maps the
 * same file (the same path and build id): a busy machine runs the same
 * libc in thousands of processes, each at its own bias.  Addresses are at
 * the bias of the module that built it; names are the image's own. */
struct func_image {
	char *path;
	unsigned char id[64];
	int idlen;             /* 0: no build id: owned by one module */
	uint64_t bias;
	struct func *funcs;
	size_t n;
	char *elf_names;       /* the ELF names of funcs (without versions) */
	uint64_t file_bias;    /* image address - file address (FUNC_ADDR's) */
	struct strpool names;  /* names as shown, FDEs' and addresses' */
	/* Code no symbol covers, named by the .eh_frame / .debug_frame FDE that
	 * does (fde_func): found as sampled, each allocated once (the cache
	 * and the callers keep pointers). */
	struct func **fde;
	size_t nfde, fde_alloc;
	struct func_image *next;  /* a JIT's: the table it replaced */
	uint64_t map_bytes;    /* a perf map's size when it was read */
};

/* The images of files with a build id (struct func_images, symbols.h),
 * kept as long as their owner, the session whose address spaces map them
 * (a busy machine's thousands of processes map a few hundred binaries),
 * found by build id and path in a table (a list walked with strcmp took
 * 3.5% of a system-wide watch); and how every image's functions are
 * named. */
struct func_images {
	struct func_image **v;
	size_t n, room;
	struct hashtab index;  /* build id and path -> v */
	bool demangle;         /* false: --no-demangle, the ELF names */
	int demangle_opts;     /* libiberty's: DMGL_PARAMS | DMGL_ANSI with --demangle-params */
};

struct module {
	const char *path;  /* interned */
	struct strpool *names;  /* the symtab's: display names */
	uint64_t bias;
	Dwfl_Module *dwmod;
	const struct func *funcs;  /* img's, at its bias (see fdelta) */
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
	struct func_images *images;      /* where its modules' tables are kept */
	struct func_images *own_images;  /* made by symtab_new(NULL), freed with it */
	struct mapping *maps;
	size_t nmaps, maps_alloc;
	struct module *mods;
	struct strpool names;
	int vdso_fd;  /* memfd with our vDSO image; -1 not made yet, -2 failed */
	symtab_open_fn opener;  /* recorded sessions: where the binaries are now */
	void *opener_arg;
	bool jit_reread;  /* a JIT's map may be read again (symtab_allow_jit_reread) */
	/* The last function found: the addresses [last_lo, last_hi) that
	 * symtab_lookup names as last (one mapping, where find_func gives
	 * that function).  Consecutive samples of a process mostly fall in
	 * one function (93% of a busy loop's): they skip the mapping's
	 * search and the per-IP cache.  Emptied when the mappings change. */
	uint64_t last_lo, last_hi;
	struct sym_info last;
	/* The mapping found last (an index; checked, as it may be stale): a
	 * stack's frames mostly lie in the mapping of the frame before. */
	size_t map_hint;
};

/* F's runtime start in MOD's address space. */
static inline uint64_t func_start(const struct module *mod, const struct func *f)
{
	return f->start - mod->fdelta;
}

/* --- symbols.c ------------------------------------------------------------ */

/* MOD's Dwfl module, reported now if it was not (NULL when that fails). */
Dwfl_Module *module_dw(struct module *mod);
/* ST's module of PATH at BIAS, if there is one. */
struct module *find_module(const struct symtab *st, const char *path, uint64_t bias);
/* A module of ST whose function table is IMG (no Dwfl module yet). */
struct module *module_from_image(struct symtab *st, const char *path, uint64_t bias,
				 struct func_image *img);

/* --- elf-funcs.c ---------------------------------------------------------- */

/* Keeps the best alias of S (N functions) at each address, in order, as
 * IMG's table, its names left to work out (func_shown) but which two of
 * them would be alike found now; gives size-0 ones their extent (MOD_END:
 * the module's end).  BIAS: IMG's addresses minus the file's.  The count;
 * 0 when out of memory. */
size_t finish_funcs(const struct func_images *fi, struct func_image *img,
		    const struct func_sym *s, size_t n, uint64_t mod_end, uint64_t bias);
/* F, of IMG's table, with its name as shown (worked out the first time);
 * NULL when out of memory. */
const struct func *func_shown(const struct func_images *fi, struct func_image *img,
			      struct func *f);
void image_free(struct func_image *img);
/* FI's image of the file PATH with build id ID, if read already. */
struct func_image *image_find(const struct func_images *fi, const char *path,
			      const unsigned char *id, int idlen);
/* MOD's function table, read (or found shared) once. */
void build_funcs(struct module *mod);
/* The function of MOD holding IP (a runtime address), or NULL; named
 * (func_shown). */
const struct func *find_func(struct module *mod, uint64_t ip);
/* Function K of MOD's table (built), named (func_shown); NULL when out of
 * memory. */
const struct func *module_func(struct module *mod, size_t k);
/* The function an FDE makes of code no symbol covers, or NULL. */
const struct func *fde_func(struct module *mod, uint64_t ip);
/* The function of MOD named NAME (every name worked out), or the FDE
 * function of that name found so far; NULL if none. */
const struct func *find_func_name(struct module *mod, const char *name);

/* --- plt.c ---------------------------------------------------------------- */

/* How many entries the ELF's PLT sections have at most. */
size_t plt_capacity(Elf *elf);
/* The functions of ELF's PLT stubs appended to S (room for
 * plt_capacity): FUNC_PLT of their GOT slot's symbol, or FUNC_NAMED
 * "*ABS*+0xADDR@plt" interned in POOL; their count. */
size_t add_plt_funcs(struct strpool *pool, Elf *elf, Dwarf_Addr bias, struct func_sym *s);
/* Whether IP lies in a PLT section of DM. */
bool in_plt(Dwfl_Module *dm, uint64_t ip);

/* --- jit-map.c ------------------------------------------------------------ */

/* The module of a JIT mapping NAME ("[JIT] tid PID") whose process wrote
 * a perf map; NULL when it wrote none. */
struct module *module_from_perf_map(struct symtab *st, const char *name);
/* The map of JIT mapping M read again when it grew; true when M's
 * functions changed. */
bool jit_map_reread(struct symtab *st, struct mapping *m);

#endif
