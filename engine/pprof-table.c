/* engine/pprof-table.h: a pair-keyed map and a string table. */
#include "engine/pprof-table.h"

#include <stdlib.h>
#include <string.h>

static uint64_t pair_hash(uint64_t a, uint64_t b)
{
	return hash_mix(hash_mix(a) ^ b);
}

static bool pair_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct pair *k = key, *p = &((const struct pair_map *)ctx)->t[idx];

	return p->a == k->a && p->b == k->b;
}

uint64_t *pair_slot(struct pair_map *m, uint64_t a, uint64_t b)
{
	struct pair key = { a, b, 0 };
	uint64_t h = pair_hash(a, b);
	uint32_t i = hashtab_find(&m->index, h, &key, pair_eq, m);

	if (i != HASHTAB_NONE)
		return &m->t[i].v;
	if (m->n >= HASHTAB_NONE - 1 || GROW(m->t, m->n + 1, m->alloc) < 0 ||
	    hashtab_add(&m->index, h, (uint32_t)m->n) < 0)
		return NULL;
	m->t[m->n] = key;   /* new: counted now, filled by the caller */
	return &m->t[m->n++].v;
}

uint64_t pair_find(const struct pair_map *m, uint64_t a, uint64_t b)
{
	struct pair key = { a, b, 0 };
	uint32_t i = hashtab_find(&m->index, pair_hash(a, b), &key, pair_eq, m);

	return i == HASHTAB_NONE ? 0 : m->t[i].v;
}

void pair_map_free(struct pair_map *m)
{
	free(m->t);
	hashtab_free(&m->index);
	*m = (struct pair_map){ 0 };
}

int64_t str_table_id(struct str_table *t, const char *s)
{
	return strpool_id(&t->pool, s);
}

void str_table_free(struct str_table *t)
{
	strpool_free(&t->pool);
}
