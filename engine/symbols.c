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
#include "engine/symbols-priv.h"

#include "engine/sys.h"

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

struct module *find_module(const struct symtab *st, const char *path, uint64_t bias)
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
struct module *module_from_image(struct symtab *st, const char *path, uint64_t bias,
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
Dwfl_Module *module_dw(struct module *mod)
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
	struct func_image *img = idlen ? image_find(st->images, path, id, (int)idlen) : NULL;
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

struct symtab *symtab_new(struct func_images *fi)
{
	struct symtab *st;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->vdso_fd = -1;
	st->images = fi ? fi : (st->own_images = func_images_new(NULL));
	st->dwfl = st->images ? dwfl_begin(&dwfl_callbacks) : NULL;
	if (!st->dwfl) {
		func_images_free(st->own_images);
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
	func_images_free(st->own_images);
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
	st->last_hi = 0;
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
	st->last_hi = 0;
}

/* The index of the mapping holding ADDR, or nmaps.  Mappings do not
 * overlap: a hint that holds ADDR is the answer, however old. */
static size_t mapping_index(struct symtab *st, uint64_t addr)
{
	size_t i = st->map_hint;

	if (i < st->nmaps && st->maps[i].start <= addr && addr < st->maps[i].end)
		return i;
	i = first_ending_after(st, addr);
	if (i >= st->nmaps || st->maps[i].start > addr)
		return st->nmaps;
	st->map_hint = i;
	return i;
}

static struct mapping *find_mapping(struct symtab *st, uint64_t ip)
{
	size_t i = mapping_index(st, ip);
	struct mapping *m;

	if (i == st->nmaps)
		return NULL;
	m = &st->maps[i];
	if (!m->resolved)
		resolve_mapping(st, m);
	return m;
}

/* Code of an ELF that no symbol and no FDE covers: named by its address in
 * the file as perf report prints it (util/sort.c _hist_entry__sym_snprintf
 * "%-#.*llx" of the map__map_ip address: ip - start + pgoff), so each
 * sampled address is a row of its own, as perf's.  The name depends on the
 * file alone: it is interned once per distinct address in the function
 * table every address space mapping the file shares (the per-IP cache
 * holds one entry for each address already). */
static void address_name(struct symtab *st, const struct mapping *m, uint64_t ip,
			 struct sym_info *out)
{
	char name[2 + 16 + 1];
	struct strpool *pool = m->mod->img ? &m->mod->img->names : &st->names;

	snprintf(name, sizeof(name), "0x%016" PRIx64, ip - m->start + m->pgoff);
	if (!(out->name = strpool_intern(pool, name)))
		return;
	out->start = ip;
	out->address = true;
}

/* Remembers OUT, the lookup of an address of F in M, for the addresses
 * where the lookup gives the same: F's part of M up to the next function
 * (find_func takes the last one starting at or before an address). */
static void remember_func(struct symtab *st, const struct mapping *m, const struct func *f,
			  const struct sym_info *out)
{
	const struct module *mod = m->mod;
	uint64_t lo = func_start(mod, f), hi = f->end - mod->fdelta;
	uintptr_t at = (uintptr_t)f - (uintptr_t)mod->funcs;
	size_t k = at / sizeof(*f);

	if ((uintptr_t)f < (uintptr_t)mod->funcs || k >= mod->nfuncs)
		return;   /* an FDE's function: not in the table */
	if (k + 1 < mod->nfuncs && mod->funcs[k + 1].start - mod->fdelta < hi)
		hi = mod->funcs[k + 1].start - mod->fdelta;
	st->last_lo = lo > m->start ? lo : m->start;
	st->last_hi = hi < m->end ? hi : m->end;
	st->last = *out;
}

bool symtab_lookup(struct symtab *st, uint64_t ip, struct sym_info *out)
{
	struct mapping *m;
	const struct func *f = NULL;

	if (ip >= st->last_lo && ip < st->last_hi) {
		*out = st->last;
		return true;
	}
	m = find_mapping(st, ip);
	memset(out, 0, sizeof(*out));
	if (!m)
		return false;
	out->module = m->name;
	out->module_base = m->mod ? m->mod->bias : m->start - m->pgoff;
	if (m->mod) {
		struct ip_entry *e = cache_get(m->mod, ip);
		f = e ? e->func : find_func(m->mod, ip);
	}
	if (!f && st->jit_reread) {
		st->last_hi = 0;   /* the JIT's mapping may get another table */
		if (jit_map_reread(st, m))
			return symtab_lookup(st, ip, out);  /* once: jit_reread is off now */
	}
	if (f) {
		out->name = f->name;
		out->start = func_start(m->mod, f);
		out->size = f->end - f->start;
		remember_func(st, m, f, out);
	} else if (m->mod && module_dw(m->mod)) {
		address_name(st, m, ip, out);
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

/* The address named NAME (perf's "0x" and 16 hex digits of an address in
 * the file) of code no symbol and no FDE covers in a module MODULE
 * matches, when a mapping holds it. */
static bool find_address(struct symtab *st, const char *name, const char *module,
			 struct sym_info *out)
{
	char *end;
	uint64_t off;

	if (strncmp(name, "0x", 2) != 0 || strlen(name) != 18 ||
	    (off = strtoull(name + 2, &end, 16), *end != '\0'))
		return false;
	for (size_t i = 0; i < st->nmaps; i++) {
		struct mapping *m = &st->maps[i];
		if (!symbols_module_matches(m->name, module) || off < m->pgoff ||
		    off - m->pgoff >= m->end - m->start)
			continue;
		if (symtab_lookup(st, m->start + (off - m->pgoff), out) && out->address &&
		    strcmp(out->name, name) == 0)
			return true;
	}
	return false;
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
		if (!m->mod || !(f = find_func_name(m->mod, name)))
			continue;
		/* The function must lie in a mapping (a module maps in parts). */
		if (symtab_lookup(st, func_start(m->mod, f), out) && out->name == f->name)
			return true;
	}
	if (find_address(st, name, module, out))
		return true;
	memset(out, 0, sizeof(*out));
	return false;
}

int symtab_open_module(struct symtab *st, const char *path)
{
	return open_module_file(st, path);
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
	size_t i = mapping_index(st, addr);
	const struct mapping *m;

	if (i == st->nmaps)
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
