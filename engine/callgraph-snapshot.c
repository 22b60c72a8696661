/* Call graph snapshots (engine/callgraph.h) and their queries.  A snapshot
 * shares the graph's store (engine/callgraph-priv.h): the functions and
 * each node's (function, parent) are read where the graph wrote them, only
 * the counts are copied.  Everything else is derived from them: subtree
 * sums in one backward pass, self/total and the edges in one depth-first
 * walk that keeps on-path counters, so that a function or a caller->callee
 * pair repeated by recursion counts once per sample. */
#include "engine/callgraph-priv.h"

#include <stdlib.h>
#include <string.h>

struct cg_snapshot {
	int n_events;
	uint64_t samples[CG_EVENTS_MAX], truncated[CG_EVENTS_MAX], overflow[CG_EVENTS_MAX];
	uint64_t stacks[CG_EVENTS_MAX], stacks_truncated[CG_EVENTS_MAX];
	/* The store, held: FNS and LINKS are copies of its chunk directories
	 * as they were (the graph may move its own), covering N_FNS functions
	 * and N_NODES nodes.  Those were written before the snapshot and are
	 * never written again; the graph only adds past them. */
	struct cg_store *store;
	struct fn **fns;
	struct cg_link **links;
	size_t n_fns;
	size_t n_nodes;             /* the root and the overflow node included */
	struct hashtab fn_index;    /* as in struct callgraph, as it was */
	uint64_t *cnt;              /* [node * n_events + ev]: a copy */
	uint64_t *self, *total;     /* [fid * n_events + ev] */
	struct cg_edge *edges[2];   /* CALLERS, CALLEES, grouped by (ev, function) */
	size_t *off[2];             /* [ev * n_fns + fid], one more at the end */
};

enum { CALLERS, CALLEES };

static uint32_t snap_fid(const struct cg_snapshot *s, size_t c)
{
	return link_at(s->links, (uint32_t)c)->fid;
}

static uint32_t snap_parent(const struct cg_snapshot *s, size_t c)
{
	return link_at(s->links, (uint32_t)c)->parent;
}

static const struct fn *snap_fn_at(const struct cg_snapshot *s, size_t f)
{
	return fn_at(s->fns, (uint32_t)f);
}

/* ---- snapshots ----------------------------------------------------------- */

void cg_snapshot_free(struct cg_snapshot *s)
{
	if (!s)
		return;
	free(s->fns);
	free(s->links);
	cg_store_unref(s->store);
	hashtab_free(&s->fn_index);
	free(s->self);
	free(s->total);
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

/* The functions and nodes, shared: a reference to the store and the chunk
 * pointers (a few hundred for a million nodes); and the function index,
 * which the graph rehashes as it grows: copied. */
static int share_store(struct cg_snapshot *s, const struct callgraph *cg)
{
	const struct cg_store *st = cg->store;

	s->store = cg_store_ref(cg->store);
	s->n_fns = cg->n_fns;
	s->n_nodes = cg->n_nodes;
	s->fns = dup_mem(st->fn_chunks, chunks_for(s->n_fns, FN_CHUNK_BITS) * sizeof(*s->fns));
	s->links = dup_mem(st->link_chunks,
			   chunks_for(s->n_nodes, LINK_CHUNK_BITS) * sizeof(*s->links));
	return s->fns && s->links && hashtab_copy(&s->fn_index, &cg->fn_index) == 0 ? 0 : -1;
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
		uint32_t p = snap_parent(s, c);
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
	return c != ROOT && snap_parent(s, c) == ROOT &&
	       strcmp(snap_fn_at(s, snap_fid(s, c))->module, CG_PROCESS_MODULE) == 0;
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
		uint32_t p = snap_parent(s, c);
		if (above_outermost(s, p) || is_process(s, (uint32_t)c)) {
			w->edge_of[c] = NONE;
			continue;
		}
		struct pair_key key = { snap_fid(s, p), snap_fid(s, c) };
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
	uint32_t f = snap_fid(s, c), e = w->edge_of[c];

	add_counts(&s->self[f * ne], &s->cnt[c * ne], ne);
	/* the outermost occurrence on the path carries the whole subtree */
	if (w->on_fn[f]++ == 0)
		add_counts(&s->total[f * ne], &w->sub[c * ne], ne);
	if (e != NONE && w->on_edge[e]++ == 0)
		add_counts(&w->esamples[e * ne], &w->sub[c * ne], ne);
}

static void leave_node(const struct cg_snapshot *s, struct work *w, uint32_t c)
{
	w->on_fn[snap_fid(s, c)]--;
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
			c = snap_parent(s, c);
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
					snap_fn_at(s, other[i])->name,
					snap_fn_at(s, other[i])->module,
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
	s->cnt = dup_mem(cg->cnt, cg->n_nodes * (size_t)cg->n_events * sizeof(*s->cnt));
	if (share_store(s, cg) < 0 || !s->cnt || derive(s) < 0) {
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
	*name = snap_fn_at(s, i)->name;
	*module = snap_fn_at(s, i)->module;
}

static uint32_t snap_fn(const struct cg_snapshot *s, const char *name, const char *module)
{
	return cg_fn_lookup(s->fns, &s->fn_index, or_unknown(name), or_unknown(module));
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
		if (snap_fid(s, c) == f) {
			w[c] = v;
		} else {
			w[snap_parent(s, c)] += v;
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
	for (uint32_t a = snap_parent(t->s, c); !above_outermost(t->s, a);
	     a = snap_parent(t->s, a)) {
		t->rows[r].more = true;
		if (t->rows[r].depth >= (uint32_t)max_depth)
			break;
		if ((r = ctree_row(t, r, snap_fid(t->s, a))) == NONE)
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
		const struct fn *f = snap_fn_at(t->s, t->rows[r].fid);
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
			const struct fn *f = snap_fn_at(t->s, r->fid);
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

	/* each name and ';' or '\0' */
	for (; c != ROOT; c = snap_parent(s, c))
		n += strlen(snap_fn_at(s, snap_fid(s, c))->name) + 1;
	return n;
}

/* Writes the path to C, root first, into P (LEN bytes, path_bytes), filling
 * it from the end: the leaf's name, then ';' and its caller's, and so on. */
static void path_text(const struct cg_snapshot *s, uint32_t c, char *p, size_t len)
{
	size_t pos = len - 1;

	p[pos] = '\0';
	for (; c != ROOT; c = snap_parent(s, c)) {
		const char *name = snap_fn_at(s, snap_fid(s, c))->name;
		size_t l = strlen(name);
		pos -= l;
		for (size_t i = 0; i < l; i++) {
			unsigned char ch = (unsigned char)name[i];
			p[pos + i] = ch == ';' ? ':' : ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
		}
		if (snap_parent(s, c) != ROOT)
			p[--pos] = ';';
	}
}

/* Each path's sum over DIV, rounded (a path that rounds to 0 is left out). */
static int write_lines(struct fline *v, size_t n, uint64_t div, FILE *out)
{
	qsort(v, n, sizeof(*v), fline_cmp);
	for (size_t i = 0; i < n;) {
		uint64_t sum = 0;
		size_t j = i;
		for (; j < n && strcmp(v[j].text, v[i].text) == 0; j++)
			sum += v[j].n;
		sum = (sum + div / 2) / div;
		if (sum && fprintf(out, "%s %llu\n", v[i].text, (unsigned long long)sum) < 0)
			return -1;
		i = j;
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

int cg_write_folded(const struct cg_snapshot *s, int ev, FILE *out)
{
	return cg_write_folded_div(s, ev, 1, out);
}

int cg_write_folded_div(const struct cg_snapshot *s, int ev, uint64_t div, FILE *out)
{
	if (!ev_ok(s, ev) || !out || !div)
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
		rc = write_lines(v, n, div, out);
	}
	free(v);
	free(text);
	return rc;
}

/* A path's depth: how many frames from node C up to the root. */
static size_t path_depth(const struct cg_snapshot *s, uint32_t c)
{
	size_t n = 0;

	for (; c != ROOT; c = snap_parent(s, c))
		n++;
	return n;
}

int cg_foreach_path(const struct cg_snapshot *s, cg_path_fn fn, void *arg)
{
	return cg_foreach_path_of(s, NULL, fn, arg);
}

int cg_foreach_path_of(const struct cg_snapshot *s, const char *process, cg_path_fn fn,
		       void *arg)
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
		uint32_t x = (uint32_t)c;
		for (; !above_outermost(s, x); x = snap_parent(s, x))
			frames[k++] = (struct cg_frame){ snap_fn_at(s, snap_fid(s, x))->name,
							 snap_fn_at(s, snap_fid(s, x))->module };
		/* X is the root, or the process frame the path starts at */
		if (process && (!is_process(s, x) ||
				strcmp(snap_fn_at(s, snap_fid(s, x))->name, process) != 0))
			continue;
		if (k)
			rc = fn(arg, frames, k, cnt);
	}
	free(frames);
	return rc;
}
