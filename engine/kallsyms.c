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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define KSYM_CHUNK (1024 * 1024)  /* /proc/kallsyms: room for this much a read */
#define KSYM_MODULE_MAX 256        /* a module's name is shorter */
#define KSYM_TEXT_MAX (UINT32_C(1) << 31)  /* a kept text's lines, by offset */

/* One kallsyms entry in 32 bytes (some 120,000 when the text is parsed
 * whole).  While reading, IDX and BIND choose among aliases; once sorted,
 * only the functions stay, each with its SIZE, to the next symbol (a data
 * symbol's too).  From the kept text: a function named, IDX its line's
 * offset in the text. */
struct ksym {
	uint64_t start;
	const char *name;  /* in the name blocks; NULL: a data symbol, only the
			    * end of the one before */
	uint32_t idx;      /* its line: the last tie-break */
	uint32_t module;   /* "[kernel.kallsyms]" or a module's "[name]" (perf's dso),
			    * by its index among the table's names */
	uint32_t size;
	uint8_t bind;      /* STB_* */
};

/* Kernel function names, copied one after another into 256 KB blocks:
 * each function's once, so nothing to intern. */
struct name_block {
	struct name_block *next;
	size_t used;
	char text[256 * 1024];
};

struct ksymtab {
	/* Read and parsed whole (an address went down): sorted by address, one
	 * per address, then functions only.  Kept as text (no address went
	 * down, as in every kernel's kallsyms seen): the functions named so
	 * far, in the order they were first looked up. */
	struct ksym *syms;
	size_t n, room, nfuncs;  /* N: the addresses; for the kept text 0, 1 or
				  * 2 for more */
	uint32_t lines;     /* lines read: the next one's index */
	struct name_block *blocks;  /* the newest first */
	struct strpool names;       /* module names, few and repeated */
	int64_t last_module;        /* the last line's module (a module's lines
				     * come together), -1 at first */
	bool sorted;        /* no address went down: no sort needed */
	/* The functions found last, by address bits: the same few kernel
	 * functions take most kernel samples (the idle loop, interrupt
	 * exits), each then found without a search.  Index + 1; 0 none. */
	uint32_t recent[256];
	/* The text kept: the file's lines, mapped or read (/proc), searched
	 * in place; the functions named so far by their line's offset
	 * (SYMS[i].idx). */
	char *text;
	size_t text_len;
	bool mapped;
	struct hashtab named;
	uint8_t build_id[64];
	size_t build_id_len;
};

/* Text symbols (t, T; w, W weak) are functions; data symbols only end the
 * function before them; other kinds (absolute, ...) are skipped. */
#define KIND_SYM 1   /* a symbol kallsyms' readers keep */
#define KIND_TEXT 2  /* ... a function */
#define KIND(bind, flags) (uint8_t)((bind) << 2 | (flags))

/* Each type letter's kind and binding, looked up once a line. */
static const uint8_t ksym_kinds[256] = {
	['t'] = KIND(STB_LOCAL, KIND_SYM | KIND_TEXT), ['T'] = KIND(STB_GLOBAL, KIND_SYM | KIND_TEXT),
	['w'] = KIND(STB_WEAK, KIND_SYM | KIND_TEXT), ['W'] = KIND(STB_WEAK, KIND_SYM | KIND_TEXT),
	['d'] = KIND(STB_LOCAL, KIND_SYM), ['D'] = KIND(STB_GLOBAL, KIND_SYM),
	['b'] = KIND(STB_LOCAL, KIND_SYM), ['B'] = KIND(STB_GLOBAL, KIND_SYM),
	['r'] = KIND(STB_LOCAL, KIND_SYM), ['R'] = KIND(STB_GLOBAL, KIND_SYM),
};

static inline bool ksym_kind(char type, bool *text, uint8_t *bind)
{
	uint8_t k = ksym_kinds[(unsigned char)type];

	*text = k & KIND_TEXT;
	*bind = k >> 2;
	return k & KIND_SYM;
}

/* Each hexadecimal digit's value plus one; 0 for any other byte. */
static const uint8_t hex_digit1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The hexadecimal number at *P (1 to 16 digits, before END), *P moved
 * past it; false when there is none or it is longer. */
static bool parse_hex(const char **p, const char *end, uint64_t *out)
{
	const unsigned char *start = (const unsigned char *)*p, *c = start;
	const unsigned char *stop = (const unsigned char *)end;
	uint64_t v = 0;
	unsigned d;

	for (; c < stop && (d = hex_digit1[*c]); c++)
		v = v << 4 | (d - 1);
	*p = (const char *)c;
	*out = v;
	return c > start && c - start <= 16;
}

#define ONES 0x0101010101010101ull

/* Whether the 8 bytes X (as loaded from memory) are hexadecimal digits:
 * each byte compared with the ranges' ends at once by a carry into its
 * top bit (some 120,000 lines a start, 16 digits each). */
static bool hex8_valid(uint64_t x)
{
	const uint64_t high = ONES << 7;

	if (x & high)
		return false;
#define GE(c) (x + (0x80 - (c)) * ONES)  /* top bit: the byte is at least c */
	uint64_t ok = (GE('0') & ~GE('9' + 1)) | (GE('a') & ~GE('f' + 1)) |
		      (GE('A') & ~GE('F' + 1));
#undef GE
	return (ok & high) == high;
}

/* The value of the 8 hexadecimal digits X, the first in its lowest byte. */
static uint64_t hex8_value(uint64_t x)
{
	/* '0'-'9' are 0x30-0x39, 'a'-'f' and 'A'-'F' 0x?1-0x?6 with 0x40 set */
	x = (x & 0x0f0f0f0f0f0f0f0full) + 9 * ((x >> 6) & ONES);
	x = ((x << 4) | (x >> 8)) & 0x00ff00ff00ff00ffull;  /* nibbles pairwise */
	x = ((x << 8) | (x >> 16)) & 0x0000ffff0000ffffull;
	return (x << 16 | x >> 32) & 0xffffffffull;
}

/* The usual address, 16 digits and a space at P (before END), in the two
 * words *HI and *LO as loaded; false when it is not so. */
static bool hex16_words(const char *p, const char *end, uint64_t *hi, uint64_t *lo)
{
	if (end - p <= 16 || p[16] != ' ')
		return false;
	memcpy(hi, p, 8);
	memcpy(lo, p + 8, 8);
	return hex8_valid(*hi) && hex8_valid(*lo);
}

/* parse_hex, the usual 16 digits eight at a time. */
static bool parse_hex16(const char **p, const char *end, uint64_t *out)
{
	uint64_t hi, lo;

	if (!hex16_words(*p, end, &hi, &lo))
		return parse_hex(p, end, out);
	*out = hex8_value(hi) << 32 | hex8_value(lo);
	*p += 16;
	return true;
}

/* An address as a key that orders as the address: its 16 digits in lower
 * case, read as two big-endian words (digits sort before letters). */
struct addr_key {
	uint64_t hi, lo;
};

static struct addr_key words_key(uint64_t hi, uint64_t lo)
{
	const uint64_t lower = 0x20 * ONES;  /* set in digits, lower case in letters */

	return (struct addr_key){ __builtin_bswap64(hi | lower), __builtin_bswap64(lo | lower) };
}

/* The 8 digits of V in lower case, as words_key has them: each nibble
 * spread to its byte, then made a digit ('a' - '0' - 10 more from 10 up). */
static uint64_t digits8(uint32_t v)
{
	uint64_t x = v;

	x = (x | x << 16) & 0x0000ffff0000ffffull;
	x = (x | x << 8) & 0x00ff00ff00ff00ffull;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
	return x + '0' * ONES + ((x + 6 * ONES) >> 4 & ONES) * ('a' - '0' - 10);
}

/* The address at *P as a key, *P moved past it: converted only when it is
 * not the usual 16 digits (a 32-bit kernel's 8: snprintf took 750
 * instructions a line). */
static bool parse_key(const char **p, const char *end, struct addr_key *key)
{
	uint64_t hi, lo, addr;

	if (hex16_words(*p, end, &hi, &lo)) {
		*key = words_key(hi, lo);
		*p += 16;
		return true;
	}
	if (!parse_hex(p, end, &addr))
		return false;
	*key = (struct addr_key){ digits8((uint32_t)(addr >> 32)), digits8((uint32_t)addr) };
	return true;
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

/* The index of module MOD (LEN bytes; "[kernel.kallsyms]" for none)
 * among K's module names: a module's lines come together, so the last
 * one's is compared first. */
static int64_t ksym_module(struct ksymtab *k, const char *mod, size_t len)
{
	char copy[KSYM_MODULE_MAX];

	if (len == 0) {
		mod = "[kernel.kallsyms]";
		len = strlen(mod);
	}
	if (len >= sizeof(copy))
		return -1;
	if (k->last_module >= 0 && strlen(k->names.strs[k->last_module]) == len &&
	    memcmp(k->names.strs[k->last_module], mod, len) == 0)
		return k->last_module;
	memcpy(copy, mod, len);
	copy[len] = '\0';
	return k->last_module = strpool_id(&k->names, copy);
}

/* "ADDR TYPE NAME[\tMODULE]" from LINE to EOL, parsed by hand and read
 * only: some 120,000 lines a start (sscanf took a third of a small
 * session's reading; then strtoull and getline's copies a quarter). */
static bool parse_kallsyms_line(struct ksymtab *k, const char *line, const char *eol,
				struct ksym *ks)
{
	const char *p = line, *name, *tab;
	uint64_t addr;
	bool text;
	uint8_t bind;

	if (!parse_hex(&p, eol, &addr) || eol - p < 4 || p[0] != ' ' || p[2] != ' ' ||
	    !ksym_kind(p[1], &text, &bind))
		return false;
	name = p + 3;
	tab = memchr(name, '\t', (size_t)(eol - name));
	size_t len = (size_t)((tab ? tab : eol) - name);
	if (len == 0 || name[0] == '\0')
		return false;
	*ks = (struct ksym){ .start = addr, .idx = k->lines, .bind = bind };
	if (!text)
		return true;
	int64_t module = tab ? ksym_module(k, tab + 1, (size_t)(eol - tab - 1))
			     : ksym_module(k, "", 0);
	ks->name = ksym_name(k, name, len);
	ks->module = (uint32_t)module;
	return ks->name && module >= 0;
}

/* Sixteen bytes as one vector: GCC's and clang's vector extensions, SSE2
 * on x86-64 and NEON on arm64 (both little-endian: the first byte is the
 * lowest of the first word, as words_key has it too). */
typedef unsigned char bytes16 __attribute__((vector_size(16)));
typedef signed char signed_bytes16 __attribute__((vector_size(16)));

static inline bytes16 load16(const char *p)
{
	bytes16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The bits of a comparison's result M (each byte 0 or 0xff), the first
 * byte's lowest: SSE2 gathers them in one instruction; elsewhere each
 * word's bytes are gathered by a multiplication. */
static inline unsigned mask16(bytes16 m)
{
#ifdef __SSE2__
	return (unsigned)_mm_movemask_epi8((__m128i)m);
#else
	const uint64_t gather = 0x0102040810204080ull;  /* byte i's low bit to bit 56 + i */
	uint64_t w[2];

	memcpy(w, &m, sizeof(w));
	return (unsigned)((w[0] & ONES) * gather >> 56 | ((w[1] & ONES) * gather >> 56) << 8);
#endif
}

/* The end of the line at P: its newline, or END.  Thirty-two bytes
 * compared at once, the length of most lines past their address (some 44
 * bytes in all): memchr's call cost a line was a fifth of the pass. */
static inline const char *line_end(const char *p, const char *end)
{
	for (; end - p >= 32; p += 32) {
		uint32_t m = mask16((bytes16)(load16(p) == '\n')) |
			     mask16((bytes16)(load16(p + 16) == '\n')) << 16;
		if (m)
			return p + __builtin_ctz(m);
	}
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl : end;
}

/* Every line of K's text parsed; 0, or -1 when out of memory. */
static int parse_lines(struct ksymtab *k)
{
	const char *p = k->text, *end = k->text + k->text_len, *nl;

	for (; p < end; p = nl + (nl < end), k->lines++) {
		nl = line_end(p, end);
		if (GROW(k->syms, k->n + 1, k->room) < 0)
			return -1;
		struct ksym *ks = &k->syms[k->n];
		if (!parse_kallsyms_line(k, p, nl, ks))
			continue;
		k->sorted &= k->n == 0 || ks->start >= k->syms[k->n - 1].start;
		k->n++;
	}
	return 0;
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

/* A regular file (the build-id cache's copy) is mapped: its pages come
 * from the page cache, none copied, all mapped at once since check_order
 * reads them all (some 1,300; a fault each 16 of them cost 0.5 ms more
 * here).  0, or 1 when F is no such file. */
static int map_text(struct ksymtab *k, FILE *f)
{
	struct stat st;
	int fd = fileno(f);
	void *map;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (map = sys_mmap((size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
				    0)) == MAP_FAILED)
		return 1;
	k->text = map;
	k->text_len = (size_t)st.st_size;
	k->mapped = true;
	return 0;
}

/* /proc/kallsyms cannot be mapped: it is read whole, as perf reads it,
 * into a buffer grown as it fills, then cut to fit.  0, or -1. */
static int read_text(struct ksymtab *k, FILE *f)
{
	char *buf = NULL, *fit;
	size_t room = 0, got = 1;

	while (got > 0) {
		if (GROW(buf, k->text_len + KSYM_CHUNK, room) < 0) {
			free(buf);
			return -1;
		}
		got = fread(buf + k->text_len, 1, room - k->text_len, f);
		k->text_len += got;
	}
	if (ferror(f)) {
		free(buf);
		return -1;
	}
	fit = realloc(buf, k->text_len ? k->text_len : 1);
	k->text = fit ? fit : buf;
	return 0;
}

static void drop_text(struct ksymtab *k)
{
	if (k->mapped)
		sys_munmap(k->text, k->text_len);
	else
		free(k->text);
	k->text = NULL;
	k->text_len = 0;
	k->mapped = false;
}

/* Whether the line from P (past its address) to EOL is one
 * parse_kallsyms_line takes, found without copying anything, and whether
 * it is a function's. */
static bool symbol_rest(const char *p, const char *eol, bool *func)
{
	const char *name, *tab;
	uint8_t bind;

	if (eol - p < 4 || p[0] != ' ' || p[2] != ' ' || !ksym_kind(p[1], func, &bind))
		return false;
	name = p + 3;
	if (name[0] == '\t' || name[0] == '\0')
		return false;
	if (!*func || eol - name < KSYM_MODULE_MAX)
		return true;  /* name and module shorter than their limits */
	tab = memchr(name, '\t', (size_t)(eol - name));
	return (size_t)((tab ? tab : eol) - name) < sizeof(((struct name_block *)0)->text) &&
	       (!tab || eol - tab - 1 < KSYM_MODULE_MAX);
}

/* symbol_rest of LINE, with its address's key. */
static bool symbol_line(const char *line, const char *eol, struct addr_key *key, bool *func)
{
	const char *p = line;

	return parse_key(&p, eol, key) && symbol_rest(p, eol, func);
}

/* symbol_rest of LINE, with its address. */
static bool symbol_addr(const char *line, const char *eol, uint64_t *addr, bool *func)
{
	const char *p = line;

	return parse_hex16(&p, eol, addr) && symbol_rest(p, eol, func);
}

/* Whether KEY is below PREV: the address went down. */
static inline bool key_below(struct addr_key key, struct addr_key prev)
{
	return key.hi < prev.hi || (key.hi == prev.hi && key.lo < prev.lo);
}

/* The lines from P on whose first 16 bytes are all from 0x21 to 0x7f (no
 * blank, newline, control byte nor UTF-8), compared by those bytes while
 * they do not go down from *PREV (then the last's key) and 64 bytes
 * remain: where the first line not so taken starts.  A symbol line's
 * address ends at a space, so a line so taken is either one of 16 digits,
 * whose bytes in lower case read as two big-endian words order as its
 * address (as words_key has it: no digit checked nor converted), or no
 * symbol line at all (a longer number, bytes that are no digits), which
 * only makes the check stricter.  Any other symbol line (a shorter
 * address, as a 32-bit kernel's 8 digits) has a blank among its first 16
 * bytes: left to the caller.  One load gives the key and tells that the
 * first 16 bytes hold no newline; the next 32 bytes hold most lines' end
 * (some 44 bytes long), the next 48 all but 2% of them. */
static const char *raw_run(const char *p, const char *end, struct addr_key *prev)
{
	struct addr_key key = *prev;
	uint64_t w[2];
	const char *last;

	if (end - p < 64)
		return p;
	for (last = end - 64; p <= last;) {
		bytes16 v = load16(p);
		/* signed: a byte from 0x80 up (UTF-8) is below too */
		if (mask16((bytes16)((signed_bytes16)v > ' ')) != 0xffff)
			break;
		v |= 0x20;  /* lower case */
		memcpy(w, &v, sizeof(w));
		struct addr_key k = { __builtin_bswap64(w[0]), __builtin_bswap64(w[1]) };
		if (key_below(k, key))
			break;
		key = k;
		uint32_t nl = mask16((bytes16)(load16(p + 16) == '\n')) |
			      mask16((bytes16)(load16(p + 32) == '\n')) << 16;
		if (nl) {
			p += 17 + (unsigned)__builtin_ctz(nl);
		} else if ((nl = mask16((bytes16)(load16(p + 48) == '\n')))) {
			p += 49 + (unsigned)__builtin_ctz(nl);
		} else {
			const char *eol = line_end(p + 64, end);
			p = eol + (eol < end);
		}
	}
	*prev = key;
	return p;
}

/* One pass over K's text, nothing kept: whether the addresses of its
 * symbol lines never go down, so that a lookup can search the text
 * itself.  1 as soon as one goes down (the text must then be parsed and
 * sorted), else 0.  The lines raw_run does not take are parsed: one that
 * is no symbol line is left out (one raw_run stopped at, going down: an
 * absolute symbol at 0, a line without a name). */
static int check_order(struct ksymtab *k)
{
	const char *p = k->text, *end = k->text + k->text_len, *nl;
	struct addr_key key, prev = { 0, 0 };
	bool func;

	if (k->text_len >= KSYM_TEXT_MAX)
		return 1;  /* lines named by a 32-bit offset: parsed whole */
	while ((p = raw_run(p, end, &prev)) < end) {
		nl = line_end(p, end);
		if (symbol_line(p, nl, &key, &func)) {
			if (key_below(key, prev))
				return 1;
			prev = key;
		}
		p = nl + (nl < end);
	}
	return 0;
}

/* The first symbol line from LINE (a line start) on, before END (a line
 * start or the text's end): its start, address and kind; END when none. */
static const char *symbol_from(const char *line, const char *end, uint64_t *addr, bool *func)
{
	const char *nl;

	for (; line < end; line = nl + 1) {
		nl = line_end(line, end);
		if (symbol_addr(line, nl, addr, func))
			return line;
		if (nl == end)
			break;
	}
	return end;
}

/* The last symbol line before LINE (a line start, or the text's end after
 * a last line without a newline), from TEXT on: its start, address and
 * kind; NULL when none. */
static const char *symbol_before(const char *text, const char *line, uint64_t *addr, bool *func)
{
	while (line > text) {
		const char *eol = line[-1] == '\n' ? line - 1 : line;
		const char *nl = memrchr(text, '\n', (size_t)(eol - text));
		line = nl ? nl + 1 : text;
		if (symbol_addr(line, eol, addr, func))
			return line;
	}
	return NULL;
}

/* How many addresses the kept text's symbol lines have, as ksymtab_load
 * wants to know: 0, 1, or 2 for more (they never go down: its first and
 * last symbol lines' differ). */
static size_t text_addresses(const struct ksymtab *k)
{
	const char *end = k->text + k->text_len;
	uint64_t first, last;
	bool func;

	if (symbol_from(k->text, end, &first, &func) == end)
		return 0;
	symbol_before(k->text, end, &last, &func);
	return first == last ? 1 : 2;
}

/* The text is kept and searched in place when no address goes down (as
 * in the kallsyms of a kernel without modules): some 120,000 lines, of
 * which a session names a few hundred functions.  Else it is parsed whole
 * and sorted. */
static int read_kallsyms(struct ksymtab *k, FILE *f)
{
	int rc;

	k->sorted = true;
	k->last_module = -1;
	if (map_text(k, f) != 0 && read_text(k, f) < 0)
		return -1;
	if (check_order(k) == 0) {
		k->n = text_addresses(k);
		return 0;
	}
	rc = parse_lines(k);
	drop_text(k);
	if (rc == 0)
		finish_kallsyms(k);
	return rc;
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
	hashtab_free(&k->named);
	drop_text(k);
	for (struct name_block *b = k->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	strpool_free(&k->names);
	free(k);
}

/* The index of the function holding ADDR, or -1. */
static ssize_t ksym_find(const struct ksymtab *k, uint64_t addr)
{
	size_t lo = 0, hi = k->nfuncs;

	while (lo < hi) {  /* first function starting after addr */
		size_t mid = lo + (hi - lo) / 2;
		if (k->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - k->syms[lo - 1].start >= k->syms[lo - 1].size)
		return -1;
	return (ssize_t)(lo - 1);
}

static bool named_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct ksymtab *k = ctx;

	return k->syms[idx].idx == *(const uint32_t *)key;
}

/* The function of the kept text's line at LINE (START, SIZE) in K->syms,
 * named on its first lookup: its index, or -1 when out of memory. */
static ssize_t ksym_named(struct ksymtab *k, const char *line, uint64_t start, uint32_t size)
{
	uint32_t key = (uint32_t)(line - k->text), found;
	uint64_t h = hash_mix(key);

	if ((found = hashtab_find(&k->named, h, &key, named_eq, k)) != HASHTAB_NONE)
		return found;
	if (GROW(k->syms, k->nfuncs + 1, k->room) < 0)
		return -1;
	struct ksym *ks = &k->syms[k->nfuncs];
	if (!parse_kallsyms_line(k, line, line_end(line, k->text + k->text_len), ks) ||
	    hashtab_add(&k->named, h, (uint32_t)k->nfuncs) < 0)
		return -1;
	ks->idx = key;
	ks->start = start;
	ks->size = size;
	return (ssize_t)k->nfuncs++;
}

/* The start of the first symbol line in K's text whose address is above
 * ADDR (the text's end when none), searched in the text itself: its
 * symbol lines' addresses never go down (check_order).  A probe goes
 * back to its line's start, then on to the first symbol line. */
static const char *first_above(const struct ksymtab *k, uint64_t addr)
{
	const char *lo = k->text, *hi = k->text + k->text_len, *end = hi, *line, *s;
	uint64_t at;
	bool func;

	while (lo < hi) {
		const char *mid = lo + (hi - lo) / 2, *nl = memrchr(lo, '\n', (size_t)(mid - lo));
		line = nl ? nl + 1 : lo;
		if ((s = symbol_from(line, hi, &at, &func)) == hi) {
			hi = line;
		} else if (at <= addr) {
			nl = line_end(s, end);
			lo = nl < end ? nl + 1 : end;
		} else {
			hi = s;
		}
	}
	return lo;
}

/* The function holding ADDR in the kept text, or -1: what finish_kallsyms
 * would make of it.  The symbols at the last address at or below ADDR end
 * at the next address (the last a page after its page); the function
 * among them last in the file is the one (none: data, naming nothing). */
static ssize_t ksym_find_text(struct ksymtab *k, uint64_t addr)
{
	const char *end = k->text + k->text_len, *above = first_above(k, addr), *line;
	uint64_t start, next, at;
	bool func, next_func;

	if (!(line = symbol_before(k->text, above, &start, &func)))
		return -1;
	if (symbol_from(above, end, &next, &next_func) == end)
		next = (start | 4095) + 1 + 4096;
	uint32_t size = next - start < UINT32_MAX ? (uint32_t)(next - start) : UINT32_MAX;
	if (addr - start >= size)
		return -1;
	while (!func)
		if (!(line = symbol_before(k->text, line, &at, &func)) || at != start)
			return -1;
	return ksym_named(k, line, start, size);
}

bool ksymtab_lookup(struct ksymtab *k, uint64_t addr, struct sym_info *out)
{
	uint32_t *recent = &k->recent[(addr >> 4) % (sizeof(k->recent) / sizeof(k->recent[0]))];
	const struct ksym *ks = *recent ? &k->syms[*recent - 1] : NULL;
	ssize_t i;

	memset(out, 0, sizeof(*out));
	if (!ks || addr < ks->start || addr - ks->start >= ks->size) {
		if ((i = k->text ? ksym_find_text(k, addr) : ksym_find(k, addr)) < 0)
			return false;
		*recent = (uint32_t)i + 1;
		ks = &k->syms[i];
	}
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
