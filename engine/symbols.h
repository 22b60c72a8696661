/* Symbols and source lines through elfutils libdwfl.
 *
 * One symtab per address space.  Modules are added as they are mapped (MMAP2
 * records, or /proc/PID/maps lines on attach).  Each ELF file is opened once;
 * its function symbols are sorted once into a table searched by binary
 * search, and results are cached per address, so the cost of symbolization
 * does not grow with the number of samples. */
#ifndef ENGINE_SYMBOLS_H
#define ENGINE_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symtab;

struct sym_info {
	const char *name;    /* function, or NULL when unknown */
	uint64_t start;      /* runtime address of the function (0 if unknown) */
	uint64_t size;
	const char *module;  /* path of the mapping ("[vdso]", "[anon]", ...), NULL if none */
	uint64_t module_base;/* runtime address where the module's vaddr 0 lies (load bias) */
	bool address;        /* no function: code of an ELF that no symbol and no FDE
			      * covers, named by its own address as perf report names
			      * it (symtab_lookup); start is that address, size 0 */
};

/* How functions are named (see Names below); zeroed: as perf report. */
struct sym_naming {
	bool mangled;  /* --no-demangle: the ELF names */
	bool params;   /* --demangle-params: C++ names with their parameters */
};

/* The function tables of the binaries some address spaces map, one a
 * binary (by path and build id), read once and shared by every symtab
 * made with it (a busy machine runs the same libc in thousands of
 * processes), each named as HOW says (NULL: as perf report).  Its owner
 * (a session) frees it after every such symtab.  NULL when out of
 * memory. */
struct func_images;
struct func_images *func_images_new(const struct sym_naming *how);
void func_images_free(struct func_images *fi);

/* An address space's symbols, its modules' tables kept in FI (NULL: its
 * own, named as perf report, freed with it). */
struct symtab *symtab_new(struct func_images *fi);
void symtab_free(struct symtab *st);

/* Records that PATH is mapped executable at [START, END) from file offset
 * PGOFF.  Anonymous, "[heap]", "//anon" etc. mappings are kept so that their
 * addresses report the mapping as module with an unknown function. */
int symtab_add_map(struct symtab *st, const char *path, uint64_t start, uint64_t end,
		   uint64_t pgoff);

/* Adds every executable mapping of /proc/PID/maps. */
int symtab_add_proc_maps(struct symtab *st, int pid);

/* Copies every mapping of SRC into DST (fork). */
int symtab_copy_maps(struct symtab *dst, const struct symtab *src);

/* Drops every mapping (exec). */
void symtab_clear(struct symtab *st);

/* The function and module containing IP.  Returns false when IP lies in no
 * known mapping (then module is NULL too).  Strings live as long as ST.
 * Code of an ELF file that neither a symbol nor an FDE covers has no
 * function: it is named by its address, as perf report names it on a row
 * of its own, "0x%016" PRIx64 of the address in the file (the mapping's
 * file offset plus IP's distance from the mapping's start: perf's
 * map__map_ip, which for a non-PIE executable is not the ELF address), and
 * ADDRESS is set.  Code in memory no ELF backs (a JIT without a map that
 * names it) stays without a name. */
bool symtab_lookup(struct symtab *st, uint64_t ip, struct sym_info *out);

/* Source file and line of IP from DWARF (separate debuginfo by build-id or
 * debuglink too).  Returns false when there is no line information. */
bool symtab_srcline(struct symtab *st, uint64_t ip, const char **file, int *line);

/* The code bytes at runtime address ADDR, from the ELF section (or, without
 * section headers, the loadable segment) that holds them: a pointer into the
 * mapped file, valid as long as ST, and in *AVAIL how many bytes follow ADDR
 * in that section.  NULL when ADDR lies in no file-backed code. */
const uint8_t *symtab_code(struct symtab *st, uint64_t addr, size_t *avail);
/* The ELF machine (e_machine: EM_X86_64, EM_AARCH64...) of the file mapped
 * at ADDR, which says how its code decodes; EM_NONE when none is known. */
uint16_t symtab_machine(struct symtab *st, uint64_t addr);

/* The function called NAME (in a module MODULE matches, see
 * symbols_module_matches, when MODULE is not NULL), among every mapped
 * module, or the code no symbol and no FDE covers that symtab_lookup names
 * NAME (0x and 16 hex digits).  False if none. */
bool symtab_find(struct symtab *st, const char *name, const char *module,
		 struct sym_info *out);

/* A JIT's /tmp/perf-PID.map grows as it compiles: let the next address of
 * a JIT mapping that its map does not name (or that had no map) read the
 * map again if it grew, once (a live watch calls this every refresh). */
void symtab_allow_jit_reread(struct symtab *st);

/* Whether a mapping's name is a file to open: not "//anon", a memfd or a
 * deleted file (its path may now name another build). */
bool symbols_is_file_path(const char *name);
/* The module name of a mapping of PATH in process PID: PATH, or perf's
 * "[JIT] tid PID" (written in BUF) for executable memory no file backs
 * (anonymous, /dev/zero, the heap, the stack, SysV shm), whose functions
 * come from /tmp/perf-PID.map when the process wrote one. */
const char *symbols_map_name(const char *path, long pid, char *buf, size_t size);
/* Opens PATH read-only if it is a regular file (a device or fifo could
 * block or act); -1 otherwise. */
int symbols_open_regular(const char *path);

/* Recorded sessions: FN(ARG, PATH) opens the binary recorded as PATH (a
 * file descriptor, or -1 when it is not to be found) instead of PATH itself. */
typedef int (*symtab_open_fn)(void *arg, const char *path);
void symtab_set_opener(struct symtab *st, symtab_open_fn fn, void *arg);
/* A descriptor of the binary of the mapping named PATH, found as the
 * symbols are (the opener, our vDSO, the path); -1 when none. */
int symtab_open_module(struct symtab *st, const char *path);

/* The GNU build id of the ELF file open on FD into OUT (at most MAX bytes).
 * Returns its length, 0 if none. */
size_t symbols_file_build_id(int fd, uint8_t *out, size_t max);

/* Calls FN for every module symbolized so far that has a build id. */
typedef void (*symtab_build_id_fn)(void *arg, const char *path, const uint8_t *id,
				   size_t len);
void symtab_foreach_build_id(struct symtab *st, symtab_build_id_fn fn, void *arg);

/* The executable mapping containing ADDR: [start, end) maps path (interned,
 * valid as long as ST) from file offset pgoff.  A binary search; no ELF is
 * opened.  False when ADDR lies in no known mapping. */
struct symtab_map {
	uint64_t start, end, pgoff;
	const char *path;
};
bool symtab_mapping(struct symtab *st, uint64_t addr, struct symtab_map *out);

/* Names.  Functions are named as perf report names them: among aliases at
 * one address perf's choice (a sized symbol, non-weak, global, fewer
 * leading underscores, the longer name, the first); no version suffix
 * ("@@GLIBC_2.2.5"); C++ and Rust names demangled with libiberty, without
 * parameters; PLT stubs NAME@plt as objdump names them (.plt, .plt.sec,
 * .plt.got).  struct sym_naming's mangled (--no-demangle) keeps the ELF
 * names; params (--demangle-params) gives C++ names their parameters and
 * qualifiers, as perf 6.4 and later (abi::__cxa_demangle) print them. */

/* Whether the module mapped from PATH is WANT: the same path, a path
 * ending with WANT, or its soname (DT_SONAME of the file, or for a file
 * that is not here the file name WANT.VERSION: "liblzma.so.5" matches
 * .../liblzma.so.5.4.1).  WANT NULL matches every module. */
bool symbols_module_matches(const char *path, const char *want);

/* Kernel symbols from /proc/kallsyms, loaded once and looked up by
 * address, for samples whose cpumode is kernel.  Text symbols only
 * (t T w W); each ends where the next symbol (of any kind) begins; among
 * aliases perf's choice.  The module is "[kernel.kallsyms]", or "[MOD]"
 * for a loaded module's code, as perf report names them. */
struct ksymtab;

/* KALLSYMS and NOTES NULL: /proc/kallsyms and /sys/kernel/notes (the
 * running kernel's build id).  NULL with one line in ERR when the file
 * cannot be read or hides the addresses (kernel.kptr_restrict, or not
 * root): then name kernel samples "[unknown]" in "[kernel.kallsyms]". */
struct ksymtab *ksymtab_load(const char *kallsyms, const char *notes, char *err,
			     size_t errsz);
void ksymtab_free(struct ksymtab *k);
/* The kernel function holding ADDR; false (OUT zeroed) outside every text
 * symbol.  Strings live as long as K, which remembers the functions found
 * last (not thread-safe). */
bool ksymtab_lookup(struct ksymtab *k, uint64_t addr, struct sym_info *out);
/* Whether K's kernel is the one of build id ID (a recorded session's
 * [kernel.kallsyms] build id): only then do its symbols name the
 * session's kernel samples.  False when either build id is unknown. */
bool ksymtab_matches(const struct ksymtab *k, const uint8_t *id, size_t len);
/* The kallsyms perf record keeps in its build-id cache for the kernel of
 * build id ID ($HOME/.debug/[kernel.kallsyms]/HEX/kallsyms), as perf
 * report reads them: a file, read without the kernel formatting
 * /proc/kallsyms line by line.  NULL (a line in ERR) when there is none. */
struct ksymtab *ksymtab_load_cached(const uint8_t *id, size_t len, char *err, size_t errsz);
/* The GNU build id in the kernel notes file NOTES (NULL:
 * /sys/kernel/notes) into OUT (at most MAX bytes): its length, 0 if none. */
size_t symbols_kernel_build_id(const char *notes, uint8_t *out, size_t max);

#endif
