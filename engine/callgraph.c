/* The call graph (engine/callgraph.h).  Stacks go into a path trie, root
 * first: a node is a function under its parent node and counts the samples
 * whose stack ends there.  Nodes live in flat arrays (a child's index is
 * always above its parent's), children are found through one hash table on
 * (parent, function).  A snapshot copies the trie and derives everything
 * else from it: subtree sums in one backward pass, self/total and the edges
 * in one depth-first walk that keeps on-path counters, so that a function
 * or a caller->callee pair repeated by recursion counts once per sample. */
#include "engine/callgraph.h"

#include "lib/hashtab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define ROOT 0u
#define OVERFLOW_NODE 1u     /* a child of the root, made by callgraph_new */
#define FIXED_NODES 2u       /* root and overflow: not counted against the cap */
#define FN_MEMO 1024u        /* a power of two */

struct fn {
	const char *name, *module;  /* one allocation "name\0module\0", at name */
};

struct callgraph {
	int n_events;
	size_t max_nodes;
	struct fn *fns;
	size_t n_fns, fns_alloc;
	struct hashtab fn_index;    /* (name, module) -> fid */
	uint32_t *fid, *parent;     /* per node */
	uint64_t *cnt;              /* [node * n_events + ev]: samples ending at node */
	size_t n_nodes, fid_alloc, parent_alloc, cnt_alloc;  /* cnt: in counts */
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

struct cg_snapshot {
	int n_events;
	uint64_t samples[CG_EVENTS_MAX], truncated[CG_EVENTS_MAX], overflow[CG_EVENTS_MAX];
	uint64_t stacks[CG_EVENTS_MAX], stacks_truncated[CG_EVENTS_MAX];
	size_t n_fns;
	struct fn *fns;             /* strings in STRINGS */
	char *strings;
	struct hashtab fn_index;    /* as in struct callgraph */
	uint64_t *self, *total;     /* [fid * n_events + ev] */
	size_t n_nodes;             /* the root and the overflow node included */
	uint32_t *fid, *parent;
	uint64_t *cnt;
	struct cg_edge *edges[2];   /* CALLERS, CALLEES, grouped by (ev, function) */
	size_t *off[2];             /* [ev * n_fns + fid], one more at the end */
};

enum { CALLERS, CALLEES };

/* ---- hashing and interning -------------------------------------------- */

/* Each part hashed whole: ("ab", "c") and ("a", "bc") differ. */
static uint64_t hash_fn(const char *name, const char *module)
{
	return hash_mix(hash_str(name) ^ hash_mix(hash_str(module)));
}

/* Every input bit reaches the low bits the tables use. */
static uint64_t hash_pair(uint32_t a, uint32_t b)
{
	return hash_mix((uint64_t)a << 32 | b);
}

struct fn_key {
	const char *name, *module;
};

static bool fn_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct fn_key *k = key;
	const struct fn *f = &((const struct fn *)ctx)[idx];

	return strcmp(f->name, k->name) == 0 && strcmp(f->module, k->module) == 0;
}

/* (parent, fid) pairs, against the nodes of a graph or the rows of a tree */
struct pair_key {
	uint32_t parent, fid;
};

static bool child_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct pair_key *k = key;
	const struct callgraph *cg = ctx;

	return cg->parent[idx] == k->parent && cg->fid[idx] == k->fid;
}

static const char *or_unknown(const char *s)
{
	return s ? s : CG_UNKNOWN;
}

/* The function table's lookup; shared by the graph and its snapshots. */
static uint32_t fn_lookup(const struct fn *fns, const struct hashtab *index,
			  const char *name, const char *module)
{
	struct fn_key key = { name, module };

	return hashtab_find(index, hash_fn(name, module), &key, fn_eq, fns);
}

static uint32_t fn_intern(struct callgraph *cg, const char *name, const char *module)
{
	uint32_t f = fn_lookup(cg->fns, &cg->fn_index, name, module);

	if (f != NONE)
		return f;
	if (GROW(cg->fns, cg->n_fns + 1, cg->fns_alloc) < 0)
		return NONE;
	size_t ln = strlen(name) + 1, lm = strlen(module) + 1;
	char *str = malloc(ln + lm);
	if (!str)
		return NONE;
	memcpy(str, name, ln);
	memcpy(str + ln, module, lm);
	f = (uint32_t)cg->n_fns;
	if (hashtab_add(&cg->fn_index, hash_fn(name, module), f) < 0) {
		free(str);
		return NONE;
	}
	cg->n_fns++;
	cg->fns[f].name = str;
	cg->fns[f].module = str + ln;
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
	    strcmp(cg->fns[m->fid].name, name) == 0 && strcmp(cg->fns[m->fid].module, module) == 0)
		return m->fid;
	uint32_t f = intern ? fn_intern(cg, name, module)
			    : fn_lookup(cg->fns, &cg->fn_index, name, module);
	if (f != NONE)
		*m = (struct fn_memo){ name, module, f };
	return f;
}

/* ---- the trie ------------------------------------------------------------ */

static uint32_t child_find(const struct callgraph *cg, uint32_t parent, uint32_t f)
{
	struct pair_key key = { parent, f };

	return hashtab_find(&cg->child_index, hash_pair(parent, f), &key, child_eq, cg);
}

/* Room for one more node in each per-node array, its counts zeroed. */
static int nodes_reserve(struct callgraph *cg)
{
	size_t need = cg->n_nodes + 1, ne = (size_t)cg->n_events, had = cg->cnt_alloc;

	if (GROW(cg->fid, need, cg->fid_alloc) < 0 || GROW(cg->parent, need, cg->parent_alloc) < 0 ||
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
	cg->n_nodes++;
	cg->fid[c] = f;
	cg->parent[c] = parent;
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
	for (size_t i = 0; i < cg->n_fns; i++)
		free((char *)cg->fns[i].name);
	free(cg->fns);
	hashtab_free(&cg->fn_index);
	free(cg->fid);
	free(cg->parent);
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

/* ---- snapshots ----------------------------------------------------------- */

void cg_snapshot_free(struct cg_snapshot *s)
{
	if (!s)
		return;
	free(s->fns);
	free(s->strings);
	hashtab_free(&s->fn_index);
	free(s->self);
	free(s->total);
	free(s->fid);
	free(s->parent);
	free(s->cnt);
	for (int d = 0; d < 2; d++) {
		free(s->edges[d]);
		free(s->off[d]);
	}
	free(s);
}

static void *dup_mem(const void *p, size_t n)
{
	void *q = malloc(n ? n : 1);

	if (q && n)
		memcpy(q, p, n);
	return q;
}

/* The function table, its index and its strings (in one block). */
static int copy_functions(struct cg_snapshot *s, const struct callgraph *cg)
{
	size_t bytes = 0;

	for (size_t i = 0; i < cg->n_fns; i++)
		bytes += strlen(cg->fns[i].name) + strlen(cg->fns[i].module) + 2;
	s->n_fns = cg->n_fns;
	s->fns = malloc(cg->n_fns * sizeof(*s->fns) + 1);
	s->strings = malloc(bytes + 1);
	if (!s->fns || !s->strings || hashtab_copy(&s->fn_index, &cg->fn_index) < 0)
		return -1;
	char *p = s->strings;
	for (size_t i = 0; i < cg->n_fns; i++) {
		size_t ln = strlen(cg->fns[i].name) + 1, lm = strlen(cg->fns[i].module) + 1;
		memcpy(p, cg->fns[i].name, ln + lm);   /* name\0module\0 */
		s->fns[i].name = p;
		s->fns[i].module = p + ln;
		p += ln + lm;
	}
	return 0;
}

static int copy_trie(struct cg_snapshot *s, const struct callgraph *cg)
{
	size_t ne = (size_t)cg->n_events;

	s->n_nodes = cg->n_nodes;
	s->fid = dup_mem(cg->fid, cg->n_nodes * sizeof(*s->fid));
	s->parent = dup_mem(cg->parent, cg->n_nodes * sizeof(*s->parent));
	s->cnt = dup_mem(cg->cnt, cg->n_nodes * ne * sizeof(*s->cnt));
	return s->fid && s->parent && s->cnt ? 0 : -1;
}

/* Working data of one snapshot computation. */
struct work {
	uint64_t *sub;              /* [node * ne]: samples in the subtree */
	uint32_t *first_child, *next_sibling;
	uint32_t *edge_of;          /* [node]: the (parent, node) edge, NONE under the root */
	uint32_t *ecaller, *ecallee;
	uint64_t *esamples;         /* [edge * ne] */
	size_t n_edges;
	uint32_t *on_fn, *on_edge;  /* times on the current path */
};

static void work_free(struct work *w)
{
	free(w->sub);
	free(w->first_child);
	free(w->next_sibling);
	free(w->edge_of);
	free(w->ecaller);
	free(w->ecallee);
	free(w->esamples);
	free(w->on_fn);
	free(w->on_edge);
}

/* Subtree sums (children come after their parent) and child lists. */
static int subtree_sums(const struct cg_snapshot *s, struct work *w)
{
	size_t ne = (size_t)s->n_events, n = s->n_nodes;

	w->sub = dup_mem(s->cnt, n * ne * sizeof(*w->sub));
	w->first_child = malloc(n * sizeof(uint32_t));
	w->next_sibling = malloc(n * sizeof(uint32_t));
	if (!w->sub || !w->first_child || !w->next_sibling)
		return -1;
	memset(w->first_child, 0xff, n * sizeof(uint32_t));
	for (size_t c = n - 1; c >= 1; c--) {
		uint32_t p = s->parent[c];
		for (size_t e = 0; e < ne; e++)
			w->sub[p * ne + e] += w->sub[c * ne + e];
		w->next_sibling[c] = w->first_child[p];
		w->first_child[p] = (uint32_t)c;
	}
	w->next_sibling[ROOT] = NONE;
	return 0;
}

static bool edge_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct pair_key *k = key;
	const struct work *w = ctx;

	return w->ecaller[idx] == k->parent && w->ecallee[idx] == k->fid;
}

/* Whether node C is a process frame (CG_PROCESS_MODULE): only ever a
 * child of the root. */
static bool is_process(const struct cg_snapshot *s, uint32_t c)
{
	return c != ROOT && s->parent[c] == ROOT &&
	       strcmp(s->fns[s->fid[c]].module, CG_PROCESS_MODULE) == 0;
}

/* Whether walking up from a frame ends at node C: the root, or the process
 * frame above the outermost function. */
static bool above_outermost(const struct cg_snapshot *s, uint32_t c)
{
	return c == ROOT || is_process(s, c);
}

/* Numbers the distinct (caller, callee) pairs of parent->child links. */
static int find_edges(const struct cg_snapshot *s, struct work *w)
{
	size_t n = s->n_nodes;
	struct hashtab index = { 0 };
	int rc = -1;

	w->edge_of = malloc(n * sizeof(uint32_t));
	w->ecaller = malloc(n * sizeof(uint32_t));
	w->ecallee = malloc(n * sizeof(uint32_t));
	if (!w->edge_of || !w->ecaller || !w->ecallee)
		return -1;
	w->edge_of[ROOT] = NONE;
	for (size_t c = 1; c < n; c++) {
		uint32_t p = s->parent[c];
		if (above_outermost(s, p) || is_process(s, (uint32_t)c)) {
			w->edge_of[c] = NONE;
			continue;
		}
		struct pair_key key = { s->fid[p], s->fid[c] };
		uint64_t h = hash_pair(key.parent, key.fid);
		uint32_t e = hashtab_find(&index, h, &key, edge_eq, w);
		if (e == NONE) {
			e = (uint32_t)w->n_edges;
			if (hashtab_add(&index, h, e) < 0)
				goto out;
			w->ecaller[e] = key.parent;
			w->ecallee[e] = key.fid;
			w->n_edges++;
		}
		w->edge_of[c] = e;
	}
	w->esamples = calloc(w->n_edges * (size_t)s->n_events + 1, sizeof(uint64_t));
	rc = w->esamples ? 0 : -1;
out:
	hashtab_free(&index);
	return rc;
}

static void add_counts(uint64_t *dst, const uint64_t *src, size_t ne)
{
	for (size_t e = 0; e < ne; e++)
		dst[e] += src[e];
}

static void enter_node(struct cg_snapshot *s, struct work *w, uint32_t c)
{
	size_t ne = (size_t)s->n_events;
	uint32_t f = s->fid[c], e = w->edge_of[c];

	add_counts(&s->self[f * ne], &s->cnt[c * ne], ne);
	/* the outermost occurrence on the path carries the whole subtree */
	if (w->on_fn[f]++ == 0)
		add_counts(&s->total[f * ne], &w->sub[c * ne], ne);
	if (e != NONE && w->on_edge[e]++ == 0)
		add_counts(&w->esamples[e * ne], &w->sub[c * ne], ne);
}

static void leave_node(const struct cg_snapshot *s, struct work *w, uint32_t c)
{
	w->on_fn[s->fid[c]]--;
	if (w->edge_of[c] != NONE)
		w->on_edge[w->edge_of[c]]--;
}

/* Self and total per function, samples per edge: one depth-first walk. */
static int walk(struct cg_snapshot *s, struct work *w)
{
	size_t ne = (size_t)s->n_events;

	s->self = calloc(s->n_fns * ne + 1, sizeof(uint64_t));
	s->total = calloc(s->n_fns * ne + 1, sizeof(uint64_t));
	w->on_fn = calloc(s->n_fns + 1, sizeof(uint32_t));
	w->on_edge = calloc(w->n_edges + 1, sizeof(uint32_t));
	if (!s->self || !s->total || !w->on_fn || !w->on_edge)
		return -1;
	uint32_t c = w->first_child[ROOT];
	while (c != NONE) {
		enter_node(s, w, c);
		if (w->first_child[c] != NONE) {
			c = w->first_child[c];
			continue;
		}
		/* leave C and every ancestor whose children are all done */
		for (;;) {
			leave_node(s, w, c);
			if (w->next_sibling[c] != NONE) {
				c = w->next_sibling[c];
				break;
			}
			c = s->parent[c];
			if (c == ROOT) {
				c = NONE;
				break;
			}
		}
	}
	return 0;
}

static int edge_cmp(const void *a, const void *b)
{
	const struct cg_edge *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->module, y->module);
}

/* The edges of direction D grouped by (event, function), each group sorted:
 * callers are grouped by callee, callees by caller. */
static int edge_tables(struct cg_snapshot *s, const struct work *w, int d)
{
	size_t ne = (size_t)s->n_events, nf = s->n_fns, used = 0;
	const uint32_t *key = d == CALLERS ? w->ecallee : w->ecaller;
	const uint32_t *other = d == CALLERS ? w->ecaller : w->ecallee;
	size_t *off = calloc(ne * nf + 1, sizeof(*off));

	s->off[d] = off;
	if (!off)
		return -1;
	for (size_t i = 0; i < w->n_edges; i++)
		for (size_t e = 0; e < ne; e++)
			if (w->esamples[i * ne + e]) {
				off[e * nf + key[i]]++;
				used++;
			}
	size_t start = 0;
	for (size_t k = 0; k <= ne * nf; k++) {   /* counts -> starts */
		size_t c = k < ne * nf ? off[k] : 0;
		off[k] = start;
		start += c;
	}
	struct cg_edge *v = malloc(used * sizeof(*v) + 1);
	size_t *pos = dup_mem(off, (ne * nf + 1) * sizeof(*off));
	if (!v || !pos) {
		free(v);
		free(pos);
		return -1;
	}
	for (size_t i = 0; i < w->n_edges; i++)
		for (size_t e = 0; e < ne; e++)
			if (w->esamples[i * ne + e])
				v[pos[e * nf + key[i]]++] = (struct cg_edge){
					s->fns[other[i]].name, s->fns[other[i]].module,
					w->esamples[i * ne + e] };
	free(pos);
	for (size_t k = 0; k < ne * nf; k++)
		qsort(v + off[k], off[k + 1] - off[k], sizeof(*v), edge_cmp);
	s->edges[d] = v;
	return 0;
}

static int derive(struct cg_snapshot *s)
{
	struct work w;
	int rc;

	memset(&w, 0, sizeof(w));
	rc = subtree_sums(s, &w) < 0 || find_edges(s, &w) < 0 || walk(s, &w) < 0 ||
	     edge_tables(s, &w, CALLERS) < 0 || edge_tables(s, &w, CALLEES) < 0 ? -1 : 0;
	work_free(&w);
	return rc;
}

struct cg_snapshot *callgraph_snapshot(const struct callgraph *cg)
{
	struct cg_snapshot *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->n_events = cg->n_events;
	memcpy(s->samples, cg->samples, sizeof(s->samples));
	memcpy(s->truncated, cg->truncated, sizeof(s->truncated));
	memcpy(s->overflow, cg->overflow, sizeof(s->overflow));
	memcpy(s->stacks, cg->stacks, sizeof(s->stacks));
	memcpy(s->stacks_truncated, cg->stacks_truncated, sizeof(s->stacks_truncated));
	if (copy_functions(s, cg) < 0 || copy_trie(s, cg) < 0 || derive(s) < 0) {
		cg_snapshot_free(s);
		return NULL;
	}
	return s;
}

/* ---- queries ------------------------------------------------------------- */

static bool ev_ok(const struct cg_snapshot *s, int ev)
{
	return s && ev >= 0 && ev < s->n_events;
}

int cg_n_events(const struct cg_snapshot *s)
{
	return s->n_events;
}

uint64_t cg_samples(const struct cg_snapshot *s, int ev)
{
	return ev_ok(s, ev) ? s->samples[ev] : 0;
}

uint64_t cg_truncated(const struct cg_snapshot *s, int ev)
{
	return ev_ok(s, ev) ? s->truncated[ev] : 0;
}

uint64_t cg_overflow(const struct cg_snapshot *s, int ev)
{
	return ev_ok(s, ev) ? s->overflow[ev] : 0;
}

uint64_t cg_stacks(const struct cg_snapshot *s, int ev)
{
	return ev_ok(s, ev) ? s->stacks[ev] : 0;
}

uint64_t cg_stacks_truncated(const struct cg_snapshot *s, int ev)
{
	return ev_ok(s, ev) ? s->stacks_truncated[ev] : 0;
}

size_t cg_nodes(const struct cg_snapshot *s)
{
	return s->n_nodes - FIXED_NODES;
}

size_t cg_functions(const struct cg_snapshot *s)
{
	return s->n_fns;
}

void cg_function_at(const struct cg_snapshot *s, size_t i, const char **name,
		    const char **module)
{
	*name = s->fns[i].name;
	*module = s->fns[i].module;
}

static uint32_t snap_fn(const struct cg_snapshot *s, const char *name, const char *module)
{
	return fn_lookup(s->fns, &s->fn_index, or_unknown(name), or_unknown(module));
}

bool cg_function(const struct cg_snapshot *s, const char *name, const char *module, int ev,
		 uint64_t *self, uint64_t *total)
{
	uint32_t f = ev_ok(s, ev) ? snap_fn(s, name, module) : NONE;
	uint64_t sf = 0, tot = 0;

	if (f != NONE) {
		size_t k = (size_t)f * (size_t)s->n_events + (size_t)ev;
		sf = s->self[k];
		tot = s->total[k];
	}
	if (self)
		*self = sf;
	if (total)
		*total = tot;
	return f != NONE;
}

static size_t edges_of(const struct cg_snapshot *s, int d, const char *name,
		       const char *module, int ev, const struct cg_edge **out)
{
	uint32_t f = ev_ok(s, ev) ? snap_fn(s, name, module) : NONE;

	*out = NULL;
	if (f == NONE)
		return 0;
	size_t k = (size_t)ev * s->n_fns + f, n = s->off[d][k + 1] - s->off[d][k];
	if (n)
		*out = s->edges[d] + s->off[d][k];
	return n;
}

size_t cg_callers(const struct cg_snapshot *s, const char *name, const char *module, int ev,
		  const struct cg_edge **out)
{
	return edges_of(s, CALLERS, name, module, ev, out);
}

size_t cg_callees(const struct cg_snapshot *s, const char *name, const char *module, int ev,
		  const struct cg_edge **out)
{
	return edges_of(s, CALLEES, name, module, ev, out);
}

/* ---- the caller tree ------------------------------------------------------ */

struct trow {
	uint32_t fid, parent, depth;
	uint64_t samples;
	bool more;
};

struct ctree {
	const struct cg_snapshot *s;
	struct trow *rows;
	size_t n, alloc;
	struct hashtab index;       /* (parent row, fid) -> row */
};

static bool row_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct pair_key *k = key;
	const struct trow *r = &((const struct ctree *)ctx)->rows[idx];

	return r->parent == k->parent && r->fid == k->fid;
}

/* Row F under row PARENT, made when missing; NONE when out of memory. */
static uint32_t ctree_row(struct ctree *t, uint32_t parent, uint32_t f)
{
	struct pair_key key = { parent, f };
	uint64_t h = hash_pair(parent, f);
	uint32_t r = hashtab_find(&t->index, h, &key, row_eq, t);

	if (r != NONE)
		return r;
	if (GROW(t->rows, t->n + 1, t->alloc) < 0 ||
	    hashtab_add(&t->index, h, (uint32_t)t->n) < 0)
		return NONE;
	t->rows[t->n] = (struct trow){ f, parent, t->rows[parent].depth + 1, 0, false };
	return (uint32_t)t->n++;
}

/* Per node of function F: the samples of EV whose innermost F frame it is
 * (NULL when out of memory).  Backward pass: children before parents. */
static uint64_t *innermost_weights(const struct cg_snapshot *s, uint32_t f, int ev)
{
	uint64_t *w = calloc(s->n_nodes, sizeof(*w));

	if (!w)
		return NULL;
	for (size_t c = s->n_nodes - 1; c >= 1; c--) {
		uint64_t v = w[c] + s->cnt[c * (size_t)s->n_events + (size_t)ev];
		if (s->fid[c] == f) {
			w[c] = v;
		} else {
			w[s->parent[c]] += v;
			w[c] = 0;
		}
	}
	return w;
}

/* Adds the callers above node C (weight W) to the tree, MAX_DEPTH deep. */
static int ctree_add_path(struct ctree *t, uint32_t c, uint64_t w, int max_depth)
{
	uint32_t r = 0;

	t->rows[0].samples += w;
	for (uint32_t a = t->s->parent[c]; !above_outermost(t->s, a); a = t->s->parent[a]) {
		t->rows[r].more = true;
		if (t->rows[r].depth >= (uint32_t)max_depth)
			break;
		if ((r = ctree_row(t, r, t->s->fid[a])) == NONE)
			return -1;
		t->rows[r].samples += w;
	}
	return 0;
}

/* A row as the sort sees it: siblings together (by parent), then samples
 * descending, name, module. */
struct tkey {
	uint32_t row, parent;
	uint64_t samples;
	const char *name, *module;
};

static int tkey_cmp(const void *a, const void *b)
{
	const struct tkey *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->module, y->module);
}

static int ctree_build(struct ctree *t, uint32_t f, int ev, int max_depth)
{
	uint64_t *w = innermost_weights(t->s, f, ev);

	t->alloc = 64;
	t->rows = malloc(t->alloc * sizeof(*t->rows));
	if (!w || !t->rows) {
		free(w);
		return -1;
	}
	t->rows[0] = (struct trow){ f, NONE, 0, 0, false };
	t->n = 1;
	for (size_t c = 1; c < t->s->n_nodes; c++)
		if (w[c] && ctree_add_path(t, (uint32_t)c, w[c], max_depth) < 0) {
			free(w);
			return -1;
		}
	free(w);
	return 0;
}

/* ORDER: the rows but the first, siblings together and sorted; FIRST[r] to
 * FIRST[r + 1]: row r's children in ORDER. */
static int ctree_sort(const struct ctree *t, uint32_t *order, size_t *first)
{
	size_t n = t->n;
	struct tkey *key = malloc(n * sizeof(*key));

	if (!key)
		return -1;
	for (size_t r = 1; r < n; r++) {
		const struct fn *f = &t->s->fns[t->rows[r].fid];
		key[r - 1] = (struct tkey){ (uint32_t)r, t->rows[r].parent, t->rows[r].samples,
					    f->name, f->module };
	}
	qsort(key, n - 1, sizeof(*key), tkey_cmp);
	size_t k = 0;
	for (size_t r = 0; r <= n; r++) {
		first[r] = k;
		for (; r < n && k < n - 1 && key[k].parent == r; k++)
			order[k] = key[k].row;
	}
	free(key);
	return 0;
}

/* Writes the rows depth first from a stack of rows to visit (children
 * pushed last first). */
static int ctree_emit(const struct ctree *t, struct cg_row *out, size_t max_rows)
{
	size_t n = t->n, sp = 0, written = 0;
	uint32_t *order = malloc(n * sizeof(*order));
	size_t *first = malloc((n + 1) * sizeof(*first));
	uint32_t *stack = malloc(n * sizeof(*stack));
	int rc = -1;

	if (order && first && stack && ctree_sort(t, order, first) == 0) {
		stack[sp++] = 0;
		while (sp > 0) {
			uint32_t ri = stack[--sp];
			const struct trow *r = &t->rows[ri];
			const struct fn *f = &t->s->fns[r->fid];
			if (written < max_rows)
				out[written] = (struct cg_row){ (int)r->depth, f->name, f->module,
								r->samples, r->more };
			written++;
			for (size_t i = first[ri + 1]; i > first[ri]; i--)
				stack[sp++] = order[i - 1];
		}
		rc = 0;
	}
	free(order);
	free(first);
	free(stack);
	return rc;
}

size_t cg_caller_tree(const struct cg_snapshot *s, const char *name, const char *module, int ev,
		      int max_depth, struct cg_row *rows, size_t max_rows)
{
	uint32_t f = ev_ok(s, ev) ? snap_fn(s, name, module) : NONE;

	if (f == NONE || s->total[f * (size_t)s->n_events + (size_t)ev] == 0)
		return 0;
	struct ctree t = { .s = s };
	size_t n = 0;
	if (ctree_build(&t, f, ev, max_depth < 0 ? 0 : max_depth) == 0 &&
	    ctree_emit(&t, rows, max_rows) == 0)
		n = t.n;
	free(t.rows);
	hashtab_free(&t.index);
	return n;
}

/* ---- folded stacks ---------------------------------------------------------- */

struct fline {
	const char *text;
	uint64_t n;
};

static int fline_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fline *)a)->text, ((const struct fline *)b)->text);
}

static size_t path_bytes(const struct cg_snapshot *s, uint32_t c)
{
	size_t n = 0;

	for (; c != ROOT; c = s->parent[c])
		n += strlen(s->fns[s->fid[c]].name) + 1;   /* the name and ';' or '\0' */
	return n;
}

/* Writes the path to C, root first, into P (LEN bytes, path_bytes), filling
 * it from the end: the leaf's name, then ';' and its caller's, and so on. */
static void path_text(const struct cg_snapshot *s, uint32_t c, char *p, size_t len)
{
	size_t pos = len - 1;

	p[pos] = '\0';
	for (; c != ROOT; c = s->parent[c]) {
		const char *name = s->fns[s->fid[c]].name;
		size_t l = strlen(name);
		pos -= l;
		for (size_t i = 0; i < l; i++) {
			unsigned char ch = (unsigned char)name[i];
			p[pos + i] = ch == ';' ? ':' : ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
		}
		if (s->parent[c] != ROOT)
			p[--pos] = ';';
	}
}

static int write_lines(struct fline *v, size_t n, FILE *out)
{
	qsort(v, n, sizeof(*v), fline_cmp);
	for (size_t i = 0; i < n;) {
		uint64_t sum = 0;
		size_t j = i;
		for (; j < n && strcmp(v[j].text, v[i].text) == 0; j++)
			sum += v[j].n;
		if (fprintf(out, "%s %llu\n", v[i].text, (unsigned long long)sum) < 0)
			return -1;
		i = j;
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

int cg_write_folded(const struct cg_snapshot *s, int ev, FILE *out)
{
	if (!ev_ok(s, ev) || !out)
		return -1;
	size_t ne = (size_t)s->n_events, n = 0, bytes = 0;
	for (size_t c = 1; c < s->n_nodes; c++)
		if (s->cnt[c * ne + (size_t)ev]) {
			n++;
			bytes += path_bytes(s, (uint32_t)c);
		}
	struct fline *v = malloc(n * sizeof(*v) + 1);
	char *text = malloc(bytes + 1);
	int rc = -1;
	if (v && text) {
		char *p = text;
		size_t k = 0;
		for (size_t c = 1; c < s->n_nodes; c++) {
			uint64_t cnt = s->cnt[c * ne + (size_t)ev];
			if (!cnt)
				continue;
			size_t len = path_bytes(s, (uint32_t)c);
			path_text(s, (uint32_t)c, p, len);
			v[k++] = (struct fline){ p, cnt };
			p += len;
		}
		rc = write_lines(v, n, out);
	}
	free(v);
	free(text);
	return rc;
}

/* A path's depth: how many frames from node C up to the root. */
static size_t path_depth(const struct cg_snapshot *s, uint32_t c)
{
	size_t n = 0;

	for (; c != ROOT; c = s->parent[c])
		n++;
	return n;
}

int cg_foreach_path(const struct cg_snapshot *s, cg_path_fn fn, void *arg)
{
	size_t ne = (size_t)s->n_events, cap = 0;
	struct cg_frame *frames = NULL;
	int rc = 0;

	for (size_t c = 1; c < s->n_nodes && !rc; c++) {
		const uint64_t *cnt = &s->cnt[c * ne];
		bool any = false;
		for (size_t e = 0; e < ne; e++)
			any |= cnt[e] != 0;
		if (!any)
			continue;
		size_t n = path_depth(s, (uint32_t)c);
		if (n > cap) {
			struct cg_frame *v = realloc(frames, n * sizeof(*v));
			if (!v) {
				rc = -1;
				break;
			}
			frames = v;
			cap = n;
		}
		size_t k = 0;
		for (uint32_t x = (uint32_t)c; !above_outermost(s, x); x = s->parent[x])
			frames[k++] = (struct cg_frame){ s->fns[s->fid[x]].name,
							 s->fns[s->fid[x]].module };
		if (k)
			rc = fn(arg, frames, k, cnt);
	}
	free(frames);
	return rc;
}
