#include "lib/hashtab.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_BYTES (64u * 1024u)
#define FIRST_BLOCK_BYTES 512u

uint64_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 14695981039346656037ull;  /* FNV-1a 64 */

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

uint64_t hash_str(const char *s)
{
	return hash_bytes(s, strlen(s));
}

static void place(struct hashtab_slot *slots, size_t cap, struct hashtab_slot s)
{
	size_t i = s.hash & (cap - 1);

	while (slots[i].idx1)
		i = (i + 1) & (cap - 1);
	slots[i] = s;
}

static int grow(struct hashtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 16;
	struct hashtab_slot *slots;

	if (cap > (size_t)1 << 31 || !(slots = calloc(cap, sizeof(*slots))))
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].idx1)
			place(slots, cap, t->slots[i]);
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

int hashtab_add(struct hashtab *t, uint64_t h, uint32_t idx)
{
	if (idx == HASHTAB_NONE || ((t->n + 1) * 2 > t->cap && grow(t) < 0))
		return -1;
	place(t->slots, t->cap, (struct hashtab_slot){ idx + 1, (uint32_t)h });
	t->n++;
	return 0;
}

int hashtab_copy(struct hashtab *dst, const struct hashtab *src)
{
	*dst = (struct hashtab){ 0 };
	if (!src->cap)
		return 0;
	if (!(dst->slots = malloc(src->cap * sizeof(*dst->slots))))
		return -1;
	memcpy(dst->slots, src->slots, src->cap * sizeof(*dst->slots));
	dst->cap = src->cap;
	dst->n = src->n;
	return 0;
}

void hashtab_clear(struct hashtab *t)
{
	if (t->cap)
		memset(t->slots, 0, t->cap * sizeof(*t->slots));
	t->n = 0;
}

void hashtab_free(struct hashtab *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

int grow_array(void **p, size_t elsize, size_t need, size_t *alloc)
{
	size_t n = *alloc;
	void *q;

	if (need <= n)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n = n ? n * 2 : 16;
	}
	if (n > SIZE_MAX / elsize || !(q = realloc(*p, n * elsize)))
		return -1;
	*p = q;
	*alloc = n;
	return 0;
}

/* --- the string pool ------------------------------------------------------ */

struct strpool_block {
	struct strpool_block *next;
	size_t used, cap;
	char text[];
};

static bool str_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct strpool *p = ctx;

	return strcmp(key, p->strs[idx]) == 0;
}

const char *strpool_find(const struct strpool *p, const char *s)
{
	uint32_t i = hashtab_find(&p->index, hash_str(s), s, str_eq, p);

	return i == HASHTAB_NONE ? NULL : p->strs[i];
}

/* A copy of S (LEN bytes and its NUL) in the pool's blocks. */
static char *copy_in(struct strpool *p, const char *s, size_t len)
{
	struct strpool_block *b = p->blocks;

	if (!b || b->cap - b->used < len + 1) {
		/* blocks double from a small first one: a pool per address
		 * space (a few paths each, thousands of them with -a) must
		 * not cost a whole block each */
		size_t cap = b ? b->cap * 2 : FIRST_BLOCK_BYTES;
		if (cap > BLOCK_BYTES)
			cap = BLOCK_BYTES;
		if (cap < len + 1)
			cap = len + 1;
		if (!(b = malloc(sizeof(*b) + cap)))
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = p->blocks;
		p->blocks = b;
	}
	char *c = b->text + b->used;
	memcpy(c, s, len + 1);
	b->used += len + 1;
	return c;
}

int64_t strpool_id(struct strpool *p, const char *s)
{
	uint64_t h = hash_str(s);
	uint32_t i = hashtab_find(&p->index, h, s, str_eq, p);

	if (i != HASHTAB_NONE)
		return i;
	if (p->n >= HASHTAB_NONE - 1 || GROW(p->strs, p->n + 1, p->alloc) < 0)
		return -1;
	char *c = copy_in(p, s, strlen(s));
	if (!c || hashtab_add(&p->index, h, (uint32_t)p->n) < 0)
		return -1;  /* a copy left in a block is freed with the pool */
	p->strs[p->n] = c;
	return (int64_t)p->n++;
}

const char *strpool_intern(struct strpool *p, const char *s)
{
	int64_t i = strpool_id(p, s);

	return i < 0 ? NULL : p->strs[i];
}

void strpool_free(struct strpool *p)
{
	for (struct strpool_block *b = p->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	hashtab_free(&p->index);
	free(p->strs);
	memset(p, 0, sizeof(*p));
}
