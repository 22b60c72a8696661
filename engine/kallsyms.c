/* Kernel symbols: /proc/kallsyms (or a build-id cache's copy) as perf
 * reads it, and the running kernel's build id (see engine/symbols.h). */
#include "engine/symbols.h"

#include "lib/hashtab.h"
#include "engine/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One kallsyms entry in 32 bytes (there are some 120,000).  While reading,
 * IDX and BIND choose among aliases; once sorted, only the functions stay,
 * each with its SIZE, to the next symbol (a data symbol's too). */
struct ksym {
	uint64_t start;
	const char *name;  /* in the table's text; NULL: a data symbol, only the
			    * end of the one before */
	uint32_t idx;      /* its line: the last tie-break */
	uint32_t module;   /* "[kernel.kallsyms]" or a module's "[name]" (perf's dso),
			    * by its index among the table's names */
	uint32_t size;
	uint8_t bind;      /* STB_* */
};

struct ksymtab {
	struct ksym *syms;  /* sorted by address, one per address; then functions only */
	size_t n, nfuncs;
	char *text;         /* the file as read, each line cut at its end, while it
			     * is parsed; then the functions' names alone */
	struct strpool names;  /* module names, few and repeated */
	const char *last_module;  /* the last line's module and its index: */
	int64_t last_module_id;   /* a module's lines come together */
	bool sorted;        /* no address went down: no sort needed */
	uint8_t build_id[64];
	size_t build_id_len;
};

/* Text symbols (t, T; w, W weak) are functions; data symbols only end the
 * function before them; other kinds (absolute, ...) are skipped. */
static bool ksym_kind(char type, bool *text, uint8_t *bind)
{
	switch (type) {
	case 't': case 'd': case 'b': case 'r':
		*bind = STB_LOCAL;
		break;
	case 'T': case 'D': case 'B': case 'R':
		*bind = STB_GLOBAL;
		break;
	case 'w': case 'W':
		*bind = STB_WEAK;
		break;
	default:
		return false;
	}
	*text = type == 't' || type == 'T' || type == 'w' || type == 'W';
	return true;
}

/* Each hexadecimal digit's value plus one; 0 for any other byte. */
static const uint8_t hex_digit1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The hexadecimal number at *P (1 to 16 digits), *P moved past it; false
 * when there is none or it is longer. */
static bool parse_hex(const char **p, uint64_t *out)
{
	const unsigned char *start = (const unsigned char *)*p, *c = start;
	uint64_t v = 0;
	unsigned d;

	while ((d = hex_digit1[*c++]))
		v = v << 4 | (d - 1);
	*p = (const char *)--c;
	*out = v;
	return c > start && c - start <= 16;
}

/* The index of MOD among K's module names ("[kernel.kallsyms]" for none):
 * looked up once for each run of lines of one module. */
static int64_t ksym_module(struct ksymtab *k, const char *mod)
{
	if (!mod || !mod[0])
		mod = "[kernel.kallsyms]";
	if (k->last_module && strcmp(mod, k->last_module) == 0)
		return k->last_module_id;
	k->last_module = mod;
	return k->last_module_id = strpool_id(&k->names, mod);
}

/* "ADDR TYPE NAME[\tMODULE]", the line cut at its end, parsed by hand and
 * in place: some 120,000 lines a start (sscanf took a third of a small
 * session's reading; then strtoull, getline's copies and the names'
 * copies a quarter). */
static bool parse_kallsyms_line(struct ksymtab *k, char *line, uint32_t idx, struct ksym *ks)
{
	const char *end = line;
	uint64_t addr;
	char type, *name, *mod;
	bool text;

	if (!parse_hex(&end, &addr) || end[0] != ' ' || !end[1] || end[2] != ' ')
		return false;
	type = end[1];
	if (!ksym_kind(type, &text, &ks->bind))
		return false;
	name = line + (end + 3 - line);
	mod = strchr(name, '\t');
	if (mod)
		*mod++ = '\0';
	if (!name[0])
		return false;
	*ks = (struct ksym){ .start = addr, .idx = idx, .bind = ks->bind };
	if (!text)
		return true;
	int64_t module = ksym_module(k, mod);
	ks->name = name;
	ks->module = (uint32_t)module;
	return module >= 0;
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

/* All of F in one buffer, NUL-terminated; NULL when out of memory or
 * unreadable. */
static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 0, n = 0, got;
	char *buf = NULL, *bigger;

	do {
		if (cap - n < 2) {
			cap = cap ? 2 * cap : (size_t)1 << 20;
			if (!(bigger = realloc(buf, cap))) {
				free(buf);
				return NULL;
			}
			buf = bigger;
		}
		n += got = fread(buf + n, 1, cap - n - 1, f);
	} while (got > 0);
	if (ferror(f)) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int read_kallsyms(struct ksymtab *k, FILE *f)
{
	size_t len, room = 0;
	uint32_t idx = 0;
	uint64_t prev = 0;

	if (!(k->text = read_all(f, &len)))
		return -1;
	k->sorted = true;
	for (char *line = k->text, *end = k->text + len, *nl; line < end; line = nl + 1) {
		if (!(nl = memchr(line, '\n', (size_t)(end - line))))
			nl = end;
		*nl = '\0';
		if (GROW(k->syms, k->n + 1, room) < 0)
			return -1;
		if (!parse_kallsyms_line(k, line, idx++, &k->syms[k->n]))
			continue;
		k->sorted &= k->syms[k->n].start >= prev;
		prev = k->syms[k->n++].start;
	}
	return 0;
}

/* One symbol per address: of each run at one address (the table sorted by
 * address), the first by ksym_cmp.  Sorting is skipped when no address
 * went down, as in /proc/kallsyms of the kernels seen: a run is then
 * short, and its first is found in place. */
static size_t one_per_address(struct ksymtab *k)
{
	size_t m = 0;

	if (!k->sorted)
		qsort(k->syms, k->n, sizeof(*k->syms), ksym_cmp);
	for (size_t i = 0; i < k->n; i++) {
		if (m == 0 || k->syms[m - 1].start != k->syms[i].start)
			k->syms[m++] = k->syms[i];
		else if (ksym_cmp(&k->syms[i], &k->syms[m - 1]) < 0)
			k->syms[m - 1] = k->syms[i];
	}
	return m;
}

/* Sorted, one symbol per address, each ending where the next begins (the
 * last one a page after its page, as perf ends it); then only the
 * functions are kept. */
static void finish_kallsyms(struct ksymtab *k)
{
	size_t m = one_per_address(k), f = 0;

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

/* The functions' names moved out of the file's text into a buffer of
 * their size: the session keeps half the memory; -1 when out of it. */
static int keep_names(struct ksymtab *k)
{
	size_t len = 0;
	char *names, *at;

	for (size_t i = 0; i < k->nfuncs; i++)
		len += strlen(k->syms[i].name) + 1;
	if (!(names = malloc(len ? len : 1)))
		return -1;
	at = names;
	for (size_t i = 0; i < k->nfuncs; i++) {
		size_t n = strlen(k->syms[i].name) + 1;
		memcpy(at, k->syms[i].name, n);
		k->syms[i].name = at;
		at += n;
	}
	free(k->text);
	k->text = names;
	return 0;
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
	rc = read_kallsyms(k, f);
	fclose(f);
	if (rc == 0) {
		finish_kallsyms(k);
		rc = keep_names(k);
	}
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
	free(k->text);
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
