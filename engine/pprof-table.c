/* engine/pprof-table.h: a pair-keyed map and a string table. */
#include <stdlib.h>
#include <string.h>

#include "engine/pprof-table.h"

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = (a ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;

	h = (h ^ b ^ (h >> 29)) * 0x94d049bb133111ebull;
	return h ^ (h >> 32);
}

static int pair_grow(struct pair_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	struct pair *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->t[i].v) {
			size_t k = mix(m->t[i].a, m->t[i].b) & (cap - 1);
			while (t[k].v)
				k = (k + 1) & (cap - 1);
			t[k] = m->t[i];
		}
	free(m->t);
	m->t = t;
	m->cap = cap;
	return 0;
}

static size_t pair_probe(const struct pair_map *m, uint64_t a, uint64_t b)
{
	size_t k = mix(a, b) & (m->cap - 1);

	while (m->t[k].v && (m->t[k].a != a || m->t[k].b != b))
		k = (k + 1) & (m->cap - 1);
	return k;
}

uint64_t *pair_slot(struct pair_map *m, uint64_t a, uint64_t b)
{
	if (2 * (m->n + 1) > m->cap && pair_grow(m) < 0)
		return NULL;
	size_t k = pair_probe(m, a, b);
	if (!m->t[k].v) {   /* new: counted now, filled by the caller */
		m->t[k].a = a;
		m->t[k].b = b;
		m->n++;
	}
	return &m->t[k].v;
}

uint64_t pair_find(const struct pair_map *m, uint64_t a, uint64_t b)
{
	return m->cap ? m->t[pair_probe(m, a, b)].v : 0;
}

void pair_map_free(struct pair_map *m)
{
	free(m->t);
	*m = (struct pair_map){ 0 };
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;   /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int str_grow(struct str_table *t)
{
	size_t scap = t->scap ? t->scap * 2 : 4096;
	uint32_t *slot = calloc(scap, sizeof(*slot));
	char **v = slot ? realloc(t->v, scap / 2 * sizeof(*v)) : NULL;

	if (!v) {
		free(slot);
		return -1;
	}
	for (size_t i = 0; i < t->n; i++) {
		size_t k = str_hash(v[i]) & (scap - 1);
		while (slot[k])
			k = (k + 1) & (scap - 1);
		slot[k] = (uint32_t)i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->scap = scap;
	t->v = v;
	t->cap = scap / 2;
	return 0;
}

int64_t str_table_id(struct str_table *t, const char *s)
{
	if (t->n + 1 > t->cap && (t->n >= UINT32_MAX / 4 || str_grow(t) < 0))
		return -1;
	size_t k = str_hash(s) & (t->scap - 1);
	for (; t->slot[k]; k = (k + 1) & (t->scap - 1))
		if (strcmp(t->v[t->slot[k] - 1], s) == 0)
			return t->slot[k] - 1;
	if (!(t->v[t->n] = strdup(s)))
		return -1;
	t->slot[k] = (uint32_t)++t->n;
	return (int64_t)t->n - 1;
}

void str_table_free(struct str_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	free(t->slot);
	*t = (struct str_table){ 0 };
}
