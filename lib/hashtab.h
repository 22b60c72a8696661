/* One open-addressing hash table, one string pool and one growth rule for
 * every map and array in cyctop (perf's and git's hashmap.h, git's
 * ALLOC_GROW).  Pure data structures: no system calls, usable from every
 * layer.
 *
 * The table holds no keys: each slot is an index into the caller's own
 * array (plus the low bits of its hash, to skip most comparisons), so the
 * caller keeps its records where it likes and says only how a key hashes
 * and whether a key is the record at an index.  Linear probing, grown to
 * stay at most half full; no deletion (clear it and add what is kept). */
#ifndef LIB_HASHTAB_H
#define LIB_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HASHTAB_NONE UINT32_MAX

struct hashtab_slot {
	uint32_t idx1;   /* index + 1; 0: empty */
	uint32_t hash;   /* the low 32 bits of its key's hash */
};

struct hashtab {
	struct hashtab_slot *slots;
	size_t cap;      /* 0 or a power of two */
	size_t n;
};

/* Whether KEY is the caller's record IDX. */
typedef bool (*hashtab_eq_fn)(const void *key, uint32_t idx, const void *ctx);

/* The index of KEY (hash H), or HASHTAB_NONE.  Inline: every sample looks
 * up its address here (engine/profile.c, engine/symbols.c), and inlined
 * the compiler calls EQ directly, most often inlined too. */
static inline uint32_t hashtab_find(const struct hashtab *t, uint64_t h, const void *key,
				    hashtab_eq_fn eq, const void *ctx)
{
	uint32_t h32 = (uint32_t)h;

	if (!t->cap)
		return HASHTAB_NONE;
	for (size_t i = h32 & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		const struct hashtab_slot *s = &t->slots[i];
		if (!s->idx1)
			return HASHTAB_NONE;
		if (s->hash == h32 && eq(key, s->idx1 - 1, ctx))
			return s->idx1 - 1;
	}
}
/* Adds record IDX under hash H (its key must not be in the table yet).
 * Returns 0, or -1 when out of memory (the table is unchanged). */
int hashtab_add(struct hashtab *t, uint64_t h, uint32_t idx);
/* DST as a copy of SRC (for an immutable snapshot); 0, or -1 when out of
 * memory (DST then empty). */
int hashtab_copy(struct hashtab *dst, const struct hashtab *src);
/* Empties T, keeping its memory. */
void hashtab_clear(struct hashtab *t);
void hashtab_free(struct hashtab *t);

/* The hashes every table uses: FNV-1a over bytes and strings (one seed),
 * and a 64-bit mixer (splitmix64's finalizer) for numbers and to combine. */
uint64_t hash_bytes(const void *p, size_t n);
uint64_t hash_str(const char *s);
/* Inline: the profile hashes every sample's keys with it, and the call
 * cost as much as the mixing. */
static inline uint64_t hash_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Interned strings: each distinct string once, its address stable for the
 * pool's life, so equal strings compare by pointer.  Out of memory:
 * strpool_intern returns NULL (the one policy). */
struct strpool {
	struct hashtab index;
	char **strs;         /* the copies, by index: the order they came in */
	size_t n, alloc;
	struct strpool_block *blocks;
};

const char *strpool_intern(struct strpool *p, const char *s);
/* S's index among the pool's strings (interned when new), -1 when out of
 * memory: a table of distinct strings by number (pprof's string_table). */
int64_t strpool_id(struct strpool *p, const char *s);
/* The interned copy of S, or NULL when S was never interned. */
const char *strpool_find(const struct strpool *p, const char *s);
void strpool_free(struct strpool *p);

/* Makes room for NEED elements of ELSIZE bytes in *P, whose room is *ALLOC
 * elements: doubled (at least 16) until it fits.  0, or -1 when out of
 * memory (or the size overflows) with *P unchanged. */
int grow_array(void **p, size_t elsize, size_t need, size_t *alloc);
#define GROW(ptr, need, alloc) grow_array((void **)&(ptr), sizeof(*(ptr)), (need), &(alloc))

#endif
