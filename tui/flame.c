/* The flame graph's model, metrics and layout (tui/flame.h). */
#include "tui/flame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/counts.h"
#include "arch/penalty.h"
#include "arch/tree.h"
#include "lib/hashtab.h"
#include "engine/callgraph.h"
#include "engine/profile.h"

static uint64_t *counts_of(struct flame *f, int node)
{
	return &f->counts[(size_t)node * 2 * (size_t)f->n_events];
}

/* The children index: a child is found by its parent and its interned
 * name (compared by pointer). */
struct child_key {
	int parent;
	const char *name;
};

static uint64_t child_hash(int parent, const char *name)
{
	return hash_mix((uint64_t)(uintptr_t)name ^ hash_mix((uint64_t)parent));
}

static bool child_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct child_key *k = key;
	const struct flame_node *n = &((const struct flame *)ctx)->nodes[idx];

	return n->parent == k->parent && n->name == k->name;
}

static int new_node(struct flame *f, int parent, const char *name, const char *module)
{
	size_t per = 2 * (size_t)f->n_events;

	if (GROW(f->nodes, f->n + 1, f->cap) < 0 || GROW(f->counts, (f->n + 1) * per, f->ccap) < 0)
		return -1;
	struct flame_node *nd = &f->nodes[f->n];
	nd->name = strpool_intern(&f->names, name ? name : CG_UNKNOWN);
	nd->module = strpool_intern(&f->names, module ? module : CG_UNKNOWN);
	if (!nd->name || !nd->module ||
	    (parent >= 0 && hashtab_add(&f->children, child_hash(parent, nd->name),
					(uint32_t)f->n) < 0))
		return -1;
	nd->parent = parent;
	nd->first_child = -1;
	nd->next = -1;
	nd->depth = parent < 0 ? 0 : f->nodes[parent].depth + 1;
	memset(counts_of(f, (int)f->n), 0, per * sizeof(uint64_t));
	if (parent >= 0) {
		nd->next = f->nodes[parent].first_child;
		f->nodes[parent].first_child = (int)f->n;
	}
	return (int)f->n++;
}

struct flame *flame_new(int n_events)
{
	struct flame *f;

	if (n_events < 1 || n_events > FLAME_EVENTS_MAX || !(f = calloc(1, sizeof(*f))))
		return NULL;
	f->n_events = n_events;
	for (int e = 0; e < FLAME_EVENTS_MAX; e++)
		f->scale[e] = 1;
	if (new_node(f, -1, FLAME_ROOT_NAME, "") < 0) {
		flame_free(f);
		return NULL;
	}
	return f;
}

void flame_free(struct flame *f)
{
	if (!f)
		return;
	strpool_free(&f->names);
	hashtab_free(&f->children);
	free(f->nodes);
	free(f->counts);
	free(f);
}

void flame_set_scale(struct flame *f, int ev, double scale)
{
	if (ev >= 0 && ev < f->n_events && scale > 0)
		f->scale[ev] = scale;
}

int flame_set_event(struct flame *f, int ev, const char *name)
{
	if (ev < 0 || ev >= f->n_events)
		return 0;
	f->ev_name[ev] = strpool_intern(&f->names, name);
	return f->ev_name[ev] ? 0 : -1;
}

void flame_scale_from(struct flame *f, const struct snapshot *s)
{
	for (int e = 0; e < s->n_events && e < f->n_events; e++) {
		const struct snap_event *ev = &s->ev[e];
		/* out of memory: the name stays NULL, the tree metrics say n/a */
		(void)flame_set_event(f, e, ev->name);
		/* frequency mode: the samples sum their periods already */
		double per = ev->nsamples == 0 && ev->sav > 0 ? (double)ev->sav : 1;
		flame_set_scale(f, e, per / (ev->coverage > 0 ? ev->coverage : 1));
	}
}

int flame_child(const struct flame *f, int p, const char *name)
{
	struct child_key k = { p, strpool_find(&f->names, name) };

	if (!k.name)
		return -1;
	uint32_t c = hashtab_find(&f->children, child_hash(p, k.name), &k, child_eq, f);
	return c == HASHTAB_NONE ? -1 : (int)c;
}

int flame_add_path(struct flame *f, const char *const *names, const char *const *modules,
		   size_t n, const uint64_t *counts)
{
	int node = 0;

	for (size_t i = 0; i < n; i++) {
		const char *name = names[i] ? names[i] : CG_UNKNOWN;
		int c = flame_child(f, node, name);
		if (c < 0 && (c = new_node(f, node, name, modules ? modules[i] : NULL)) < 0)
			return -1;
		node = c;
	}
	uint64_t *self = counts_of(f, node);
	for (int e = 0; e < f->n_events; e++)
		self[e] += counts[e];
	return 0;
}

/* ---- finishing: totals, children sorted ------------------------------- */

static int by_total(const void *a, const void *b, void *ctx)
{
	const struct flame *f = ctx;
	int x = *(const int *)a, y = *(const int *)b;
	uint64_t tx = flame_total(f, x, 0), ty = flame_total(f, y, 0);

	if (tx != ty)
		return tx < ty ? 1 : -1;
	return strcmp(f->nodes[x].name, f->nodes[y].name);
}

void flame_finish(struct flame *f)
{
	int ne = f->n_events;

	for (size_t i = 0; i < f->n; i++)
		memcpy(counts_of(f, (int)i) + ne, counts_of(f, (int)i), (size_t)ne * sizeof(uint64_t));
	/* a child is always created after its parent: children first */
	for (size_t i = f->n; i-- > 1;) {
		uint64_t *c = counts_of(f, (int)i) + ne, *p = counts_of(f, f->nodes[i].parent) + ne;
		for (int e = 0; e < ne; e++)
			p[e] += c[e];
	}
	int *kids = NULL;
	size_t kcap = 0;
	for (size_t p = 0; p < f->n; p++) {
		size_t k = 0;
		for (int c = f->nodes[p].first_child; c >= 0; c = f->nodes[c].next) {
			if (GROW(kids, k + 1, kcap) < 0)
				goto out;
			kids[k++] = c;
		}
		if (k < 2)
			continue;
		qsort_r(kids, k, sizeof(*kids), by_total, f);
		f->nodes[p].first_child = kids[0];
		for (size_t j = 0; j < k; j++)
			f->nodes[kids[j]].next = j + 1 < k ? kids[j + 1] : -1;
	}
out:
	free(kids);
}

/* ---- from the call graph ---------------------------------------------- */

#define PATH_MAX_FRAMES 4096

static int add_cg_path(void *arg, const struct cg_frame *frames, size_t n, const uint64_t *counts)
{
	const char *names[PATH_MAX_FRAMES], *modules[PATH_MAX_FRAMES];
	size_t m = n < PATH_MAX_FRAMES ? n : PATH_MAX_FRAMES;

	/* cg_foreach_path gives the leaf first; the flame goes root first */
	for (size_t i = 0; i < m; i++) {
		names[i] = frames[n - 1 - i].name;
		modules[i] = frames[n - 1 - i].module;
	}
	return flame_add_path(arg, names, modules, m, counts);
}

struct flame *flame_from_cg(const struct cg_snapshot *g, const char *process)
{
	struct flame *f = g ? flame_new(cg_n_events(g)) : NULL;

	if (!f)
		return NULL;
	if (cg_foreach_path_of(g, process, add_cg_path, f) != 0) {
		flame_free(f);
		return NULL;
	}
	flame_finish(f);
	return f;
}

/* ---- identity --------------------------------------------------------- */

int flame_path(const struct flame *f, int node, const char **out, int max)
{
	int d = node >= 0 ? f->nodes[node].depth : 0;

	for (int n = node; n > 0; n = f->nodes[n].parent)
		if (f->nodes[n].depth - 1 < max)
			out[f->nodes[n].depth - 1] = f->nodes[n].name;
	return d < max ? d : max;
}

int flame_find(const struct flame *f, const char *const *path, int n, bool *exact)
{
	int node = 0;

	*exact = true;
	for (int i = 0; i < n; i++) {
		int c = flame_child(f, node, path[i]);
		if (c < 0) {
			*exact = false;
			break;
		}
		node = c;
	}
	return node;
}

bool flame_is_ancestor(const struct flame *f, int anc, int node)
{
	for (; node >= 0; node = f->nodes[node].parent)
		if (node == anc)
			return true;
	return false;
}

/* ---- metrics ---------------------------------------------------------- */

static int find_event(const char *const *events, int n, const char *const *names)
{
	for (int i = 0; i < n; i++)
		for (const char *const *w = names; *w; w++)
			if (strcmp(events[i], *w) == 0 || strncmp(events[i], *w, strlen(*w)) == 0)
				return i;
	return -1;
}

static int add_metric(struct flame_metric *out, int k, int max, enum flame_metric_kind kind,
		      int a, int b, const char *pre, const char *ea, const char *sep,
		      const char *eb)
{
	for (int self = 0; self < 2 && k < max; self++) {
		struct flame_metric *m = &out[k++];
		m->kind = kind;
		m->a = a;
		m->b = b;
		m->self = self;
		int len = snprintf(m->name, sizeof(m->name), "%s%s%s%s", pre, ea, sep, eb);
		if (len >= 0 && (size_t)len < sizeof(m->name))
			snprintf(m->name + len, sizeof(m->name) - (size_t)len, " (%s)",
				 self ? "self" : "total");
	}
	return k;
}

/* ---- tree-node-fraction ------------------------------------------------ */

/* A node's tree root (depth 0) in R, the one its share is of. */
static int tree_root(const struct tree_result *r, int i)
{
	while (r->v[i].parent >= 0)
		i = r->v[i].parent;
	return i;
}

/* Tree DEF evaluated on COUNTS (the model its default, the desktop
 * penalties: no frame knows more). */
static void eval_tree(const struct tree_def *def, const struct counts *c, struct tree_result *r)
{
	struct penalties pen;

	penalties_default(&pen, 0);
	struct tree_ctx ctx = { .model = tree_default_model(def), .pen = &pen };
	tree_eval(def, c, &ctx, r);
}

/* NODE's share (%) of its root in R; NAN when either is not measured. */
static double tree_share(const struct tree_result *r, int node)
{
	int root = tree_root(r, node);
	const struct node_value *v = &r->v[node], *rv = &r->v[root];

	if (v->state != NODE_VALUE || rv->state != NODE_VALUE || !(rv->value > 0))
		return NAN;
	return 100.0 * v->value / rv->value;
}

/* A part of a tree whose root is in the same unit (cycles, slots): its
 * share of the root means something. */
static bool share_node(const struct tree_def *def, const struct tree_result *r, int i)
{
	const struct tree_node_def *nd = &def->nodes[i];
	int root = tree_root(r, i);

	return (nd->flags & TN_PART) && !(nd->flags & (TN_GROUP | TN_CLOCK)) && root != i &&
	       def->nodes[root].unit == nd->unit &&
	       (nd->unit == UNIT_CYCLES || nd->unit == UNIT_COUNT);
}

/* The tree-node-fraction metrics of EVENTS: every tree's parts measured
 * when each event counts (a stand-in count, the same for all: which nodes
 * have a value does not depend on it). */
static int add_tree_metrics(const char *const *events, int n, struct flame_metric *out, int k,
			    int max)
{
	struct counts c;
	struct tree_result r;

	counts_init(&c);
	for (int e = 0; e < n; e++)
		counts_add(&c, events[e], 1e9 / (e + 1), 0);
	for (int t = 0; t < TREE_COUNT; t++) {
		const struct tree_def *def = tree_def_get((enum arch_tree)t);
		if (!def)
			continue;
		def = tree_def_pick((enum arch_tree)t, NULL, &c);
		eval_tree(def, &c, &r);
		if (tree_inputs_present(&r) == 0)
			continue;
		for (int i = 0; i < def->n_nodes; i++) {
			if (!share_node(def, &r, i) || r.v[i].state != NODE_VALUE ||
			    r.v[tree_root(&r, i)].state != NODE_VALUE)
				continue;
			for (int self = 0; self < 2 && k < max; self++) {
				struct flame_metric *m = &out[k++];
				*m = (struct flame_metric){ .kind = FM_TREE, .tree = def, .tnode = i,
							    .self = self };
				snprintf(m->name, sizeof(m->name), "tree-node-fraction %s / %s [%s] (%s)",
					 def->nodes[i].id, def->nodes[tree_root(&r, i)].id, def->name,
					 self ? "self" : "total");
			}
		}
	}
	counts_free(&c);
	return k;
}

static double tree_value_at(const struct flame *f, int node, const struct flame_metric *m)
{
	struct counts c;
	struct tree_result r;

	counts_init(&c);
	for (int e = 0; e < f->n_events; e++) {
		uint64_t n = m->self ? flame_self(f, node, e) : flame_total(f, node, e);
		if (f->ev_name[e])
			counts_add(&c, f->ev_name[e], (double)n * f->scale[e], 0);
	}
	eval_tree(m->tree, &c, &r);
	counts_free(&c);
	return tree_share(&r, m->tnode);
}

/* ---- baseline-delta ---------------------------------------------------- */

#define DELTA_PATH_MAX 1024

static double delta_value_at(const struct flame *f, int node, const struct flame_metric *m)
{
	const struct flame *b = m->base.fl;
	const char *path[DELTA_PATH_MAX];
	bool exact;
	int d = flame_path(f, node, path, DELTA_PATH_MAX);
	int bn = flame_find(b, path, d, &exact);
	double now = (double)(m->self ? flame_self(f, node, m->a) : flame_total(f, node, m->a)) *
		     f->scale[m->a];
	double then = !exact || d == DELTA_PATH_MAX ? 0
		      : (double)(m->self ? flame_self(b, bn, m->b) : flame_total(b, bn, m->b)) *
			b->scale[m->b];

	return m->base.k_now * now - m->base.k_base * then;
}

static int add_delta_metrics(const char *const *events, int n, const struct flame_base *base,
			     struct flame_metric *out, int k, int max)
{
	if (!base || !base->fl)
		return k;
	for (int e = 0; e < n; e++)
		for (int be = 0; be < base->fl->n_events; be++) {
			if (!base->fl->ev_name[be] || strcmp(base->fl->ev_name[be], events[e]) != 0)
				continue;
			for (int self = 0; self < 2 && k < max; self++) {
				struct flame_metric *m = &out[k++];
				*m = (struct flame_metric){ .kind = FM_DELTA, .a = e, .b = be,
							    .self = self, .base = *base };
				snprintf(m->name, sizeof(m->name), "baseline-delta %s (%s)", events[e],
					 self ? "self" : "total");
			}
			break;
		}
	return k;
}

int flame_metrics(const char *const *events, int n, const struct flame_base *base,
		  struct flame_metric *out, int max)
{
	/* the names perf and libpfm4 give cycles, instructions and stalls */
	static const char *const cycles[] = { "cycles", "cpu-cycles", "cpu_clk_unhalted",
					      "CPU_CLK_UNHALTED", NULL };
	static const char *const insns[] = { "instructions", "inst_retired", "INST_RETIRED",
					     NULL };
	static const char *const stalls[] = { "stalled-cycles", "cycle_activity.stalls",
					      "CYCLE_ACTIVITY:STALLS", "resource_stalls",
					      "RESOURCE_STALLS", NULL };
	int k = 0;

	if (max < 1)
		return 0;
	out[k] = (struct flame_metric){ .kind = FM_NONE };
	snprintf(out[k++].name, sizeof(out[0].name), "none (by name)");
	int c = find_event(events, n, cycles), in = find_event(events, n, insns);
	int st = find_event(events, n, stalls);
	if (c >= 0 && in >= 0)
		k = add_metric(out, k, max, FM_RATIO, c, in, "CPI ", events[c], "/", events[in]);
	if (c >= 0 && st >= 0 && st != c)
		k = add_metric(out, k, max, FM_RATIO, st, c, "", events[st], "/", events[c]);
	for (int e = 1; e < n; e++)
		k = add_metric(out, k, max, FM_PER_1000, e, 0, "", events[e], " per 1000 ",
			       events[0]);
	k = add_tree_metrics(events, n, out, k, max);
	return add_delta_metrics(events, n, base, out, k, max);
}

double flame_value(const struct flame *f, int node, const struct flame_metric *m)
{
	if (m->kind == FM_NONE || m->a >= f->n_events)
		return NAN;
	if (m->kind == FM_TREE)
		return tree_value_at(f, node, m);
	if (m->kind == FM_DELTA)
		return m->base.fl && m->b < m->base.fl->n_events ? delta_value_at(f, node, m) : NAN;
	if (m->b >= f->n_events)
		return NAN;
	uint64_t a = m->self ? flame_self(f, node, m->a) : flame_total(f, node, m->a);
	uint64_t b = m->self ? flame_self(f, node, m->b) : flame_total(f, node, m->b);
	if (b == 0)
		return NAN;
	return (m->kind == FM_PER_1000 ? 1000.0 : 1.0) * (double)a * f->scale[m->a] /
	       ((double)b * f->scale[m->b]);
}

int flame_delta_bucket(double v, double max)
{
	if (isnan(v) || v == 0 || !(max > 0))
		return -1;
	int k = (int)(fabs(v) / max * 3);
	k = k > 2 ? 2 : k;
	return v < 0 ? 2 - k : 3 + k;
}

int flame_bucket(double v, double lo, double hi)
{
	if (isnan(v) || v < lo || v > hi)
		return -1;
	if (!(hi > lo))
		return 0;
	int b = (int)((v - lo) / (hi - lo) * FLAME_BUCKETS);
	return b >= FLAME_BUCKETS ? FLAME_BUCKETS - 1 : b;
}

int flame_name_bucket(const char *name)
{
	return (int)(hash_str(name) % FLAME_BUCKETS);
}

/* ---- layout ----------------------------------------------------------- */

static struct flame_box *add_box(struct flame_layout *l)
{
	if (GROW(l->box, l->n + 1, l->cap) < 0)
		return NULL;
	struct flame_box *b = &l->box[l->n++];
	memset(b, 0, sizeof(*b));
	return b;
}

struct lay {
	const struct flame *f;
	struct flame_layout *l;
	int w, min_w, max_rows;
	uint64_t total;
};

/* The children of box PB (node P, its samples starting at START). */
static int lay_children(struct lay *c, int pb, int p, uint64_t start)
{
	const struct flame *f = c->f;
	int row = c->l->box[pb].row + 1;
	uint64_t at = start;

	if (row >= c->max_rows || c->total == 0)
		return 0;
	for (int k = f->nodes[p].first_child; k >= 0; k = f->nodes[k].next) {
		uint64_t t = flame_total(f, k, 0);
		int x0 = (int)(at * (uint64_t)c->w / c->total);
		int x1 = (int)((at + t) * (uint64_t)c->w / c->total);
		if (t == 0)
			break;
		if (x1 - x0 < c->min_w) {  /* this one and the rest: a stub */
			uint64_t rest = 0;
			int n = 0;
			for (int r = k; r >= 0; r = f->nodes[r].next, n++)
				rest += flame_total(f, r, 0);
			x1 = (int)((at + rest) * (uint64_t)c->w / c->total);
			if (x1 - x0 >= 1) {
				struct flame_box *b = add_box(c->l);
				if (!b)
					return -1;
				*b = (struct flame_box){ .node = -1, .parent_box = pb, .row = row,
							 .x = x0, .w = x1 - x0, .stub = n,
							 .stub_samples = rest };
			}
			break;
		}
		struct flame_box *b = add_box(c->l);
		if (!b)
			return -1;
		*b = (struct flame_box){ .node = k, .parent_box = pb, .row = row, .x = x0,
					 .w = x1 - x0 };
		if (row + 1 > c->l->rows)
			c->l->rows = row + 1;
		if (lay_children(c, (int)c->l->n - 1, k, at) < 0)
			return -1;
		at += t;
	}
	return 0;
}

int flame_layout(const struct flame *f, int zoom, int w, int min_w, int max_rows,
		 struct flame_layout *out)
{
	struct lay c = { f, out, w, min_w < 1 ? 1 : min_w, max_rows, flame_total(f, zoom, 0) };
	int chain[PATH_MAX_FRAMES], n = 0;

	out->n = 0;
	out->rows = 0;
	out->zoom_total = c.total;
	for (int a = zoom; a >= 0 && n < PATH_MAX_FRAMES; a = f->nodes[a].parent)
		chain[n++] = a;
	/* the ancestors and the zoomed frame, full width, root first */
	for (int i = n - 1; i >= 0 && n - 1 - i < max_rows; i--) {
		struct flame_box *b = add_box(out);
		if (!b)
			return -1;
		*b = (struct flame_box){ .node = chain[i], .parent_box = (int)out->n - 2,
					 .row = n - 1 - i, .x = 0, .w = w, .ancestor = i > 0 };
		out->rows = n - i;
	}
	if (n > max_rows)
		return 0;
	return lay_children(&c, (int)out->n - 1, zoom, 0);
}

void flame_layout_free(struct flame_layout *l)
{
	free(l->box);
	memset(l, 0, sizeof(*l));
}

int flame_box_of(const struct flame_layout *l, int node)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->box[i].node == node)
			return (int)i;
	return -1;
}
