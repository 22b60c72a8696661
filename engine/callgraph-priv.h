/* The call graph's insides, shared by its two files and no other:
 * engine/callgraph.c keeps the trie as samples arrive (functions, nodes,
 * the caches), engine/callgraph-snapshot.c makes the snapshots and answers
 * their queries.
 *
 * What never changes once written sits in a store that the graph and its
 * snapshots own together (a reference count): the function names and
 * modules (a string pool: its blocks never move), the function table and
 * each node's function and parent (chunks of fixed size, never moved nor
 * rewritten: functions and nodes are only ever added).  A snapshot keeps
 * the store, a copy of the chunk directories as they were, and how many
 * functions and nodes it covers; it copies only the counts, which change. */
#ifndef ENGINE_CALLGRAPH_PRIV_H
#define ENGINE_CALLGRAPH_PRIV_H

#include "engine/callgraph.h"
#include "lib/hashtab.h"

#define NONE UINT32_MAX
#define ROOT 0u
#define OVERFLOW_NODE 1u     /* a child of the root, made by callgraph_new */
#define FIXED_NODES 2u       /* root and overflow: not counted against the cap */
#define FN_MEMO 1024u        /* a power of two */

/* Functions and nodes a chunk (a power of two each): 16 KB and 32 KB. */
#define FN_CHUNK_BITS 10u
#define LINK_CHUNK_BITS 12u

struct fn {
	const char *name, *module;  /* in the store's string pool */
};

/* A trie node's function and parent node: written once, when it is made. */
struct cg_link {
	uint32_t fid, parent;
};

/* What a graph and its snapshots share.  Only the graph writes it (adds
 * strings, functions and nodes, grows the directories); a snapshot reads
 * only the functions and nodes that were there when it was made, through
 * its own copy of the directories, so the graph's later additions (other
 * slots, new chunks, a moved directory) never touch what it reads.  The
 * last of them to let go frees it. */
struct cg_store {
	unsigned long refs;         /* atomic: the owners may live in several threads */
	struct strpool strings;     /* names and modules, each distinct string once */
	struct fn **fn_chunks;      /* [fid >> FN_CHUNK_BITS] */
	size_t n_fn_chunks, fn_chunks_alloc;
	struct cg_link **link_chunks; /* [node >> LINK_CHUNK_BITS] */
	size_t n_link_chunks, link_chunks_alloc;
};

struct callgraph {
	int n_events;
	size_t max_nodes;
	struct cg_store *store;     /* functions and nodes, shared with the snapshots */
	size_t n_fns;
	struct hashtab fn_index;    /* (name, module) -> fid */
	uint64_t *cnt;              /* [node * n_events + ev]: samples ending at node */
	size_t n_nodes, cnt_alloc;  /* cnt: in counts */
	struct hashtab child_index; /* (parent, fid) -> node */
	uint64_t samples[CG_EVENTS_MAX], truncated[CG_EVENTS_MAX], overflow[CG_EVENTS_MAX];
	uint64_t stacks[CG_EVENTS_MAX], stacks_truncated[CG_EVENTS_MAX];  /* not weighed */
	/* The last function seen through each pair of string pointers: the
	 * symbolizer hands out the same pointers for a function again and
	 * again, so a frame is found without hashing its strings (a hit is
	 * still checked by comparing them: a pointer may be reused). */
	struct fn_memo {
		const char *name, *module;
		uint32_t fid;
	} memo[FN_MEMO];
};

/* Function F and node C's link through a chunk directory (the store's, or
 * a snapshot's copy of it). */
static inline const struct fn *fn_at(struct fn *const *chunks, uint32_t f)
{
	return &chunks[f >> FN_CHUNK_BITS][f & ((1u << FN_CHUNK_BITS) - 1)];
}

static inline const struct cg_link *link_at(struct cg_link *const *chunks, uint32_t c)
{
	return &chunks[c >> LINK_CHUNK_BITS][c & ((1u << LINK_CHUNK_BITS) - 1)];
}

/* How many chunks of 2^BITS hold N elements. */
static inline size_t chunks_for(size_t n, unsigned bits)
{
	return (n + ((size_t)1 << bits) - 1) >> bits;
}

/* A new reference to ST; cg_store_unref drops one (ST may be NULL) and
 * frees the store with the last. */
struct cg_store *cg_store_ref(struct cg_store *st);
void cg_store_unref(struct cg_store *st);

/* The function (NAME, MODULE) among those INDEX holds (the table FNS,
 * through its chunk directory), or NONE. */
uint32_t cg_fn_lookup(struct fn *const *fns, const struct hashtab *index, const char *name,
		      const char *module);

/* (parent, fid) pairs, against the nodes of a graph, a snapshot's edges or
 * the rows of a caller tree. */
struct pair_key {
	uint32_t parent, fid;
};

/* Every input bit reaches the low bits the tables use. */
static inline uint64_t hash_pair(uint32_t a, uint32_t b)
{
	return hash_mix((uint64_t)a << 32 | b);
}

static inline const char *or_unknown(const char *s)
{
	return s ? s : CG_UNKNOWN;
}

#endif
