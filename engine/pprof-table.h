/* The tables the pprof writer (pprof-write.c) and its per-thread sample
 * store (pprof-acc.c) share: a map from a pair of 64-bit keys to a value,
 * and a string table that gives each distinct string an index (the
 * profile's string_table).  Both on lib/hashtab.h's one table and pool. */
#ifndef ENGINE_PPROF_TABLE_H
#define ENGINE_PPROF_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/hashtab.h"

/* (a, b) -> v, stored values >= 1. */
struct pair_map {
	struct pair { uint64_t a, b, v; } *t;   /* in the order they came */
	size_t n, alloc;
	struct hashtab index;
};

/* The value slot of (A, B), made (holding 0) when new; NULL when out of
 * memory.  Valid until the next pair_slot on M. */
uint64_t *pair_slot(struct pair_map *m, uint64_t a, uint64_t b);
/* The value of (A, B), 0 when absent. */
uint64_t pair_find(const struct pair_map *m, uint64_t a, uint64_t b);
void pair_map_free(struct pair_map *m);

/* The profile's string table: strpool's strings by index (strs, n). */
struct str_table {
	struct strpool pool;
};

/* The index of S (copied in when new); -1 when out of memory. */
int64_t str_table_id(struct str_table *t, const char *s);
void str_table_free(struct str_table *t);

#endif
