/* The call graph (engine/callgraph.h) as samples arrive.  Stacks go into a
 * path trie, root first: a node is a function under its parent node and
 * counts the samples whose stack ends there.  A child's index is always
 * above its parent's; children are found through one hash table on
 * (parent, function).  Functions and each node's (function, parent) are
 * only ever added, so they live in a store shared with the snapshots
 * (engine/callgraph-priv.h); the counts, which change, in one flat array
 * that snapshots copy.  Snapshots and their queries are in
 * engine/callgraph-snapshot.c. */
#include "engine/callgraph-priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- the shared store ------------------------------------------------------ */

struct cg_store *cg_store_ref(struct cg_store *st)
{
	__atomic_add_fetch(&st->refs, 1, __ATOMIC_RELAXED);
	return st;
}

void cg_store_unref(struct cg_store *st)
{
	/* acquire-release: whoever frees it sees every write of the others */
	if (!st || __atomic_sub_fetch(&st->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	for (size_t i = 0; i < st->n_fn_chunks; i++)
		free(st->fn_chunks[i]);
	free(st->fn_chunks);
	for (size_t i = 0; i < st->n_link_chunks; i++)
		free(st->link_chunks[i]);
	free(st->link_chunks);
	strpool_free(&st->strings);
	free(st);
}

/* Room for element I of a directory of chunks (1 << BITS elements each): a
 * new chunk when I starts one.  Chunks are never moved nor freed before the
 * store, so a snapshot's copy of the directory keeps pointing at them.  The
 * functions' and the links' directories (DIR, its count N and room ALLOC). */
#define CHUNK_RESERVE(dir, n, alloc, bits, i) \
	chunk_reserve((void **)&(dir), sizeof(*(dir)), &(n), &(alloc), sizeof(**(dir)) << (bits), \
		      (size_t)(i) >> (bits))

static int chunk_reserve(void **dir, size_t ptr_size, size_t *n, size_t *alloc, size_t chunk_bytes,
			 size_t chunk_no)
{
	if (chunk_no < *n)
		return 0;
	void *chunk = malloc(chunk_bytes);
	if (!chunk || grow_array(dir, ptr_size, *n + 1, alloc) < 0) {
		free(chunk);
		return -1;
	}
	/* the directory's slots are typed pointers: stored by their bytes */
	memcpy((char *)*dir + *n * ptr_size, &chunk, ptr_size);
	(*n)++;
	return 0;
}

/* ---- hashing and interning -------------------------------------------- */

/* Each part hashed whole: ("ab", "c") and ("a", "bc") differ. */
static uint64_t hash_fn(const char *name, const char *module)
{
	return hash_mix(hash_str(name) ^ hash_mix(hash_str(module)));
}

struct fn_key {
	const char *name, *module;
};

static bool fn_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct fn_key *k = key;
	const struct fn *f = fn_at(ctx, idx);

	return strcmp(f->name, k->name) == 0 && strcmp(f->module, k->module) == 0;
}

static bool child_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct pair_key *k = key;
	const struct cg_link *l = link_at(ctx, idx);

	return l->parent == k->parent && l->fid == k->fid;
}

/* The function table's lookup; shared by the graph and its snapshots. */
uint32_t cg_fn_lookup(struct fn *const *fns, const struct hashtab *index, const char *name,
		      const char *module)
{
	struct fn_key key = { name, module };

	return hashtab_find(index, hash_fn(name, module), &key, fn_eq, fns);
}

static const struct fn *cg_fn(const struct callgraph *cg, uint32_t f)
{
	return fn_at(cg->store->fn_chunks, f);
}

static uint32_t fn_intern(struct callgraph *cg, const char *name, const char *module)
{
	struct cg_store *st = cg->store;
	uint32_t f = cg_fn_lookup(st->fn_chunks, &cg->fn_index, name, module);

	if (f != NONE)
		return f;
	f = (uint32_t)cg->n_fns;
	if (CHUNK_RESERVE(st->fn_chunks, st->n_fn_chunks, st->fn_chunks_alloc, FN_CHUNK_BITS, f) < 0)
		return NONE;
	/* copied once, into the pool: snapshots point at these copies */
	const char *n = strpool_intern(&st->strings, name);
	const char *m = strpool_intern(&st->strings, module);
	if (!n || !m || hashtab_add(&cg->fn_index, hash_fn(name, module), f) < 0)
		return NONE;
	st->fn_chunks[f >> FN_CHUNK_BITS][f & ((1u << FN_CHUNK_BITS) - 1)] = (struct fn){ n, m };
	cg->n_fns++;
	return f;
}

static struct fn_memo *memo_slot(struct callgraph *cg, const char *name, const char *module)
{
	uint64_t h = hash_mix((uint64_t)(uintptr_t)name ^ ((uint64_t)(uintptr_t)module << 1));

	return &cg->memo[h & (FN_MEMO - 1)];
}

/* The function (NAME, MODULE) through the memo, else the index (INTERN:
 * adding it when new); NONE when it is not there (or out of memory). */
static uint32_t fn_get(struct callgraph *cg, const char *name, const char *module, bool intern)
{
	struct fn_memo *m = memo_slot(cg, name, module);

	if (m->name == name && m->module == module && m->fid < cg->n_fns &&
	    strcmp(cg_fn(cg, m->fid)->name, name) == 0 &&
	    strcmp(cg_fn(cg, m->fid)->module, module) == 0)
		return m->fid;
	uint32_t f = intern ? fn_intern(cg, name, module)
			    : cg_fn_lookup(cg->store->fn_chunks, &cg->fn_index, name, module);
	if (f != NONE)
		*m = (struct fn_memo){ name, module, f };
	return f;
}

/* ---- the trie ------------------------------------------------------------ */

static uint32_t child_find(const struct callgraph *cg, uint32_t parent, uint32_t f)
{
	struct pair_key key = { parent, f };

	return hashtab_find(&cg->child_index, hash_pair(parent, f), &key, child_eq,
			    cg->store->link_chunks);
}

/* Room for one more node: its link, and its counts zeroed. */
static int nodes_reserve(struct callgraph *cg)
{
	size_t need = cg->n_nodes + 1, ne = (size_t)cg->n_events, had = cg->cnt_alloc;

	if (CHUNK_RESERVE(cg->store->link_chunks, cg->store->n_link_chunks,
			   cg->store->link_chunks_alloc, LINK_CHUNK_BITS, cg->n_nodes) < 0 ||
	    GROW(cg->cnt, need * ne, cg->cnt_alloc) < 0)
		return -1;
	memset(cg->cnt + had, 0, (cg->cnt_alloc - had) * sizeof(*cg->cnt));
	return 0;
}

/* A new node F under PARENT (which has no such child yet). */
static uint32_t node_add(struct callgraph *cg, uint32_t parent, uint32_t f)
{
	if (nodes_reserve(cg) < 0)
		return NONE;
	uint32_t c = (uint32_t)cg->n_nodes;
	/* the root is nobody's child */
	if (parent != NONE && hashtab_add(&cg->child_index, hash_pair(parent, f), c) < 0)
		return NONE;
	/* written once, in a slot no snapshot covers yet (they stop at n_nodes) */
	cg->store->link_chunks[c >> LINK_CHUNK_BITS][c & ((1u << LINK_CHUNK_BITS) - 1)] =
		(struct cg_link){ f, parent };
	cg->n_nodes++;
	return c;
}

static size_t default_max_nodes(int n_events)
{
	/* fid, parent, counts, and two index slots (the index stays half empty) */
	size_t per_node = 2 * sizeof(uint32_t) + (size_t)n_events * sizeof(uint64_t) +
			  2 * sizeof(uint32_t);
	size_t n = CG_BYTES_MAX / per_node;

	return n < CG_NODES_MAX_DEFAULT ? n : CG_NODES_MAX_DEFAULT;
}

struct callgraph *callgraph_new(int n_events)
{
	if (n_events < 1 || n_events > CG_EVENTS_MAX) {
		errno = EINVAL;
		return NULL;
	}
	struct callgraph *cg = calloc(1, sizeof(*cg));
	if (!cg)
		return NULL;
	cg->store = calloc(1, sizeof(*cg->store));
	if (!cg->store) {
		free(cg);
		return NULL;
	}
	cg->store->refs = 1;
	cg->n_events = n_events;
	cg->max_nodes = default_max_nodes(n_events);
	uint32_t f = fn_intern(cg, CG_OVERFLOW_NAME, CG_OVERFLOW_MODULE);
	if (f == NONE || node_add(cg, NONE, NONE) != ROOT ||
	    node_add(cg, ROOT, f) != OVERFLOW_NODE) {
		callgraph_free(cg);
		return NULL;
	}
	return cg;
}

void callgraph_free(struct callgraph *cg)
{
	if (!cg)
		return;
	/* the functions and links stay while a snapshot holds them */
	cg_store_unref(cg->store);
	hashtab_free(&cg->fn_index);
	free(cg->cnt);
	hashtab_free(&cg->child_index);
	free(cg);
}
void callgraph_set_max_nodes(struct callgraph *cg, size_t max)
{
	/* node indices are 32-bit, NONE included */
	cg->max_nodes = max < UINT32_MAX - FIXED_NODES - 1 ? max : UINT32_MAX - FIXED_NODES - 1;
}

/* The node of the longest prefix of the stack already in the trie; *LEFT
 * gets how many frames (the innermost ones) are not. */
static uint32_t existing_prefix(struct callgraph *cg, const struct cg_frame *frames,
				size_t n, size_t *left)
{
	uint32_t node = ROOT;

	for (; n > 0; n--) {
		const struct cg_frame *fr = &frames[n - 1];
		uint32_t f = fn_get(cg, or_unknown(fr->name), or_unknown(fr->module), false);
		uint32_t c = f == NONE ? NONE : child_find(cg, node, f);
		if (c == NONE)
			break;
		node = c;
	}
	*left = n;
	return node;
}

/* Adds the N innermost frames under NODE; NONE when out of memory. */
static uint32_t extend(struct callgraph *cg, uint32_t node, const struct cg_frame *frames,
		       size_t n)
{
	for (; n > 0; n--) {
		const struct cg_frame *fr = &frames[n - 1];
		uint32_t f = fn_get(cg, or_unknown(fr->name), or_unknown(fr->module), true);
		if (f == NONE)
			return NONE;
		uint32_t c = child_find(cg, node, f);
		node = c != NONE ? c : node_add(cg, node, f);
		if (node == NONE)
			return NONE;
	}
	return node;
}

int callgraph_add(struct callgraph *cg, int ev, const struct cg_frame *frames, size_t n,
		  bool truncated, uint64_t weight)
{
	if (!cg || ev < 0 || ev >= cg->n_events || !frames || n == 0) {
		errno = EINVAL;
		return -1;
	}
	size_t left;
	uint32_t node = existing_prefix(cg, frames, n, &left);
	bool over = false;
	int rc = 0;

	if (left > 0) {
		/* all or nothing: a half-made path would hold nodes without samples */
		if (cg->n_nodes - FIXED_NODES + left > cg->max_nodes) {
			over = true;
		} else if ((node = extend(cg, node, frames, left)) == NONE) {
			over = true;
			rc = -1;
		}
	}
	if (over) {
		node = OVERFLOW_NODE;
		cg->overflow[ev] += weight;
	}
	cg->cnt[(size_t)node * (size_t)cg->n_events + (size_t)ev] += weight;
	cg->samples[ev] += weight;
	cg->stacks[ev]++;
	if (truncated) {
		cg->truncated[ev] += weight;
		cg->stacks_truncated[ev]++;
	}
	return rc;
}
