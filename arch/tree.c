/* Generic tree evaluation: inputs, formulas, remainders and checks. */
#include "arch/tree.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const struct tree_def tree_core2, tree_ia64, tree_amd, tree_sw;
extern const struct tree_def tree_intel_nhm, tree_intel6, tree_intel8, tree_intel10, tree_intel12;
extern const struct tree_def tree_topdown_skl, tree_topdown_icl, tree_topdown_spr,
	tree_topdown_zen4, tree_topdown_grt, tree_topdown_zen5, tree_topdown_srf;
extern const struct tree_def tree_zen;
extern const struct tree_def tree_wall;
extern const struct tree_def tree_arm_op, tree_arm_inst, tree_topdown_arm_n2, tree_topdown_arm_v1;

/* Every definition; the first of an id is its default variant. */
static const struct tree_def *const all_defs[] = {
	&tree_core2, &tree_ia64, &tree_amd, &tree_sw,
	&tree_intel8, &tree_intel6, &tree_intel10, &tree_intel12, &tree_intel_nhm,
	&tree_topdown_skl, &tree_topdown_icl, &tree_topdown_spr, &tree_topdown_zen4,
	&tree_topdown_grt, &tree_topdown_zen5, &tree_topdown_srf, &tree_topdown_arm_n2,
	&tree_topdown_arm_v1,
	&tree_zen,
	&tree_arm_op, &tree_arm_inst,
	&tree_wall,
};
#define N_DEFS (sizeof(all_defs) / sizeof(all_defs[0]))

const struct tree_def *tree_def_get(enum arch_tree tree)
{
	for (size_t i = 0; i < N_DEFS; i++)
		if (all_defs[i]->id == tree)
			return all_defs[i];
	return NULL;
}

const struct tree_def *tree_def_at(size_t i)
{
	return i < N_DEFS ? all_defs[i] : NULL;
}

static bool def_lists_model(const struct tree_def *def, const struct arch_model *model)
{
	for (const char *const *m = def->models; m && *m; m++)
		if (strcasecmp(*m, model->name) == 0)
			return true;
	return false;
}

bool tree_is_generic(enum arch_tree tree)
{
	bool any = false;

	for (size_t i = 0; i < N_DEFS; i++) {
		if (all_defs[i]->id != tree)
			continue;
		if (all_defs[i]->models)
			return false;
		any = true;
	}
	return any;
}

bool tree_fits_model(enum arch_tree tree, const struct arch_model *model)
{
	if (!model)
		return false;
	if (model->tree == tree || tree_is_generic(tree))
		return true;
	for (size_t i = 0; i < N_DEFS; i++)
		if (all_defs[i]->id == tree && def_lists_model(all_defs[i], model))
			return true;
	return false;
}

static bool listed(const enum arch_tree *ids, int n, enum arch_tree id)
{
	for (int k = 0; k < n; k++)
		if (ids[k] == id)
			return true;
	return false;
}

int tree_all_ids(enum arch_tree *out)
{
	int n = 0;

	for (size_t i = 0; i < N_DEFS; i++)
		if (!listed(out, n, all_defs[i]->id))
			out[n++] = all_defs[i]->id;
	return n;
}

int tree_model_trees(const struct arch_model *model, enum arch_tree *out)
{
	enum arch_tree ids[TREE_COUNT];
	int n = 0, nids = tree_all_ids(ids);

	if (!model)
		return 0;
	if (tree_def_get(model->tree))
		out[n++] = model->tree;
	for (int pass = 0; pass < 2; pass++)  /* the model's own, then generic */
		for (int k = 0; k < nids; k++)
			if (!listed(out, n, ids[k]) && tree_is_generic(ids[k]) == (pass == 1) &&
			    tree_fits_model(ids[k], model))
				out[n++] = ids[k];
	return n;
}

const struct arch_model *tree_default_model(const struct tree_def *def)
{
	const struct arch_model *m = def->models ? model_find(def->models[0]) : NULL;

	return m ? m : model_for_tree(def->id);
}

static void read_inputs(const struct tree_def *def, const struct counts *c,
			const struct tree_ctx *ctx, double *in);

/* How many of DEF's event inputs C holds, and how many it lacks. */
static void score_inputs(const struct tree_def *def, const struct counts *c,
			 const struct arch_model *model, int *present, int *absent)
{
	double in[TREE_MAX_INPUTS];
	struct tree_ctx ctx = { .model = model };

	read_inputs(def, c, &ctx, in);
	*present = *absent = 0;
	for (int i = 1; i < def->n_inputs; i++)
		if (!def->inputs[i].derived && def->inputs[i].name)
			*(isnan(in[i]) ? absent : present) += 1;
}

const struct tree_def *tree_def_pick(enum arch_tree tree, const struct arch_model *model,
				     const struct counts *c)
{
	const struct tree_def *best = tree_def_get(tree);
	int best_present = -1, best_absent = 0;

	for (size_t i = 0; model && i < N_DEFS; i++)
		if (all_defs[i]->id == tree && def_lists_model(all_defs[i], model))
			return all_defs[i];
	for (size_t i = 0; c && i < N_DEFS; i++) {
		int present, absent;
		if (all_defs[i]->id != tree)
			continue;
		score_inputs(all_defs[i], c, model ? model : tree_default_model(all_defs[i]),
			     &present, &absent);
		if (present > best_present || (present == best_present && absent < best_absent)) {
			best = all_defs[i];
			best_present = present;
			best_absent = absent;
		}
	}
	return best;
}

const char *unit_name(enum arch_unit unit)
{
	static const char *const names[] = {
		[UNIT_NONE] = "", [UNIT_CYCLES] = "cycles", [UNIT_RATIO] = "ratio",
		[UNIT_PERCENT] = "percent", [UNIT_MBPS] = "MB/s", [UNIT_SECONDS] = "s",
		[UNIT_UOPS_PER_CYCLE] = "uops/cycle", [UNIT_COUNT] = "count",
		[UNIT_PER_SECOND] = "/s", [UNIT_MFLOPS] = "MFLOP/s",
	};
	return unit <= UNIT_MFLOPS ? names[unit] : "?";
}

const char *warn_text(unsigned warn_bit)
{
	switch (warn_bit) {
	case WARN_NEGATIVE: return "negative";
	case WARN_EXCEEDS_PARENT: return "larger than its parent";
	case WARN_SUM: return "parts do not add up";
	case WARN_MISMATCH: return "disagrees with its reference";
	case WARN_OVERCOUNT: return "negative: the penalties over-count";
	default: return "?";
	}
}

int tree_node_index(const struct tree_def *def, const char *id)
{
	for (int i = 0; i < def->n_nodes; i++)
		if (strcmp(def->nodes[i].id, id) == 0)
			return i;
	return -1;
}

double tree_value(const struct tree_result *r, const char *id)
{
	int i = tree_node_index(r->def, id);

	return i >= 0 && r->v[i].state == NODE_VALUE ? r->v[i].value : NAN;
}

static int parent_of(const struct tree_def *def, int idx)
{
	const char *id = def->nodes[idx].id;
	const char *dot = strrchr(id, '.');

	if (!dot)
		return -1;
	for (int i = idx - 1; i >= 0; i--)
		if (strlen(def->nodes[i].id) == (size_t)(dot - id) &&
		    strncmp(def->nodes[i].id, id, (size_t)(dot - id)) == 0)
			return i;
	return -1;
}

/* The first of the '|'-separated NAMES that C counted, NAN if none. */
static double find_input(const struct counts *c, const struct arch_model *model,
			 const char *names)
{
	char one[COUNT_NAME_MAX];

	for (const char *p = names; p && *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len < sizeof(one)) {
			memcpy(one, p, len);
			one[len] = '\0';
			const struct count_entry *e = counts_find(c, model, one);
			if (e && !e->not_counted)
				return e->value;
		}
		p = bar ? bar + 1 : NULL;
	}
	return NAN;
}

static void read_inputs(const struct tree_def *def, const struct counts *c,
			const struct tree_ctx *ctx, double *in)
{
	for (int i = 0; i < TREE_MAX_INPUTS; i++)
		in[i] = NAN;
	for (int i = 1; i < def->n_inputs; i++)
		if (!def->inputs[i].derived)
			in[i] = find_input(c, ctx->model, def->inputs[i].name);
	if (def->derive)
		def->derive(in, ctx);
}

static void eval_formula(const struct tree_node_def *nd, const double *in,
			 const struct tree_ctx *ctx, struct node_value *v)
{
	for (int k = 0; k < TREE_MAX_NEEDS && nd->needs[k]; k++)
		if (isnan(in[nd->needs[k]]))
			v->missing |= 1ull << nd->needs[k];
	if ((nd->flags & TN_CLOCK) && !(ctx->clock_hz > 0))
		v->no_clock = true;
	if (v->missing || v->no_clock) {
		v->state = NODE_MISSING;
		return;
	}
	v->value = nd->eval(in, ctx);
	v->state = isfinite(v->value) ? NODE_VALUE : NODE_MISSING;
}

/* parent - sum of the measured TN_PART siblings before it */
static void eval_remainder(const struct tree_def *def, struct tree_result *r, int idx)
{
	struct node_value *v = &r->v[idx];
	int p = v->parent;

	if (p < 0 || r->v[p].state != NODE_VALUE) {
		v->state = NODE_MISSING;
		v->missing = p >= 0 ? r->v[p].missing : 0;
		return;
	}
	double sum = 0;
	for (int i = p + 1; i < idx; i++) {
		if (r->v[i].parent != p || !(def->nodes[i].flags & TN_PART))
			continue;
		if (r->v[i].state == NODE_VALUE)
			sum += r->v[i].value;
		else if (def->nodes[idx].flags & TN_STRICT)
			v->missing |= r->v[i].missing;
	}
	if (v->missing) {
		v->state = NODE_MISSING;
		return;
	}
	v->state = NODE_VALUE;
	v->value = r->v[p].value - sum;
}

static bool differs(double a, double ref)
{
	return fabs(a - ref) > TREE_TOLERANCE * fabs(ref);
}

static void check_node(const struct tree_def *def, struct tree_result *r, int idx)
{
	const struct tree_node_def *nd = &def->nodes[idx];
	struct node_value *v = &r->v[idx];
	const struct node_value *pv = v->parent >= 0 ? &r->v[v->parent] : NULL;

	if (v->state != NODE_VALUE)
		return;
	if (v->value < 0 && !(nd->flags & TN_SIGNED))
		v->warn |= WARN_NEGATIVE;
	if ((nd->flags & TN_REMAINDER) && !(nd->flags & TN_STRICT) && v->value < 0)
		v->warn |= WARN_OVERCOUNT;
	if ((nd->flags & TN_REMAINDER) && (nd->flags & TN_STRICT) && pv &&
	    pv->state == NODE_VALUE && fabs(v->value) > TREE_TOLERANCE * fabs(pv->value))
		v->warn |= WARN_MISMATCH;
	if ((nd->flags & TN_PART) && pv && pv->state == NODE_VALUE &&
	    v->value > pv->value * (1 + TREE_TOLERANCE))
		v->warn |= WARN_EXCEEDS_PARENT;
	if (nd->same_as) {
		int o = tree_node_index(def, nd->same_as);
		if (o >= 0 && r->v[o].state == NODE_VALUE && differs(v->value, r->v[o].value))
			v->warn |= WARN_MISMATCH;
	}
}

/* TN_EXACT: the parts must add up when all of them were measured. */
static void check_exact(const struct tree_def *def, struct tree_result *r, int p)
{
	double sum = 0;
	int parts = 0;

	if (!(def->nodes[p].flags & TN_EXACT) || r->v[p].state != NODE_VALUE)
		return;
	for (int i = p + 1; i < def->n_nodes; i++) {
		if (r->v[i].parent != p || !(def->nodes[i].flags & TN_PART))
			continue;
		if (r->v[i].state != NODE_VALUE)
			return;
		sum += r->v[i].value;
		parts++;
	}
	if (parts && differs(sum, r->v[p].value))
		r->v[p].warn |= WARN_SUM;
}

static void fill_percent(const struct tree_def *def, struct tree_result *r, int idx)
{
	struct node_value *v = &r->v[idx];
	int p = v->parent;

	v->pct_parent = NAN;
	if (p < 0 || v->state != NODE_VALUE || r->v[p].state != NODE_VALUE)
		return;
	if (def->nodes[idx].unit != def->nodes[p].unit || r->v[p].value == 0)
		return;
	if (def->nodes[idx].unit != UNIT_CYCLES && def->nodes[idx].unit != UNIT_COUNT)
		return;
	v->pct_parent = 100.0 * v->value / r->v[p].value;
}

void tree_eval(const struct tree_def *def, const struct counts *c,
	       const struct tree_ctx *ctx, struct tree_result *out)
{
	memset(out, 0, offsetof(struct tree_result, join));  /* JOIN: built when used */
	out->def = def;
	read_inputs(def, c, ctx, out->in);
	for (int i = 0; i < def->n_nodes; i++) {
		const struct tree_node_def *nd = &def->nodes[i];
		struct node_value *v = &out->v[i];
		v->parent = parent_of(def, i);
		v->depth = v->parent >= 0 ? out->v[v->parent].depth + 1 : 0;
		if (nd->flags & TN_GROUP)
			v->state = NODE_HEADING;
		else if (nd->flags & TN_REMAINDER)
			eval_remainder(def, out, i);
		else
			eval_formula(nd, out->in, ctx, v);
	}
	for (int i = 0; i < def->n_nodes; i++) {
		check_node(def, out, i);
		check_exact(def, out, i);
		fill_percent(def, out, i);
	}
	tree_wall_link(c, ctx, out);
}

int tree_inputs_present(const struct tree_result *r)
{
	int n = 0;

	for (int i = 1; i < r->def->n_inputs; i++)
		if (!r->def->inputs[i].derived && r->def->inputs[i].name && !isnan(r->in[i]))
			n++;
	return n;
}

int tree_subtree_end(const struct tree_result *r, int i)
{
	int k = i + 1;

	while (k < r->def->n_nodes && r->v[k].depth > r->v[i].depth)
		k++;
	return k;
}

bool tree_dark(const struct tree_result *r, int i)
{
	for (int k = i; k < tree_subtree_end(r, i); k++)
		if (r->v[k].state == NODE_VALUE)
			return false;
	return true;
}

int tree_dark_run(const struct tree_result *r, int i, int *rows, uint64_t *missing,
		  bool *no_clock)
{
	int depth = r->v[i].depth, k = i;

	*rows = 0;
	*missing = 0;
	*no_clock = false;
	while (k < r->def->n_nodes && r->v[k].depth == depth && tree_dark(r, k)) {
		for (int end = tree_subtree_end(r, k); k < end; k++, (*rows)++) {
			*missing |= r->v[k].missing;
			*no_clock |= r->v[k].no_clock;
		}
	}
	return k;
}

double tree_parent_share(const struct tree_result *r, int i)
{
	const struct tree_def *def = r->def;
	int p = r->v[i].parent;

	if (p < 0 || r->v[i].state != NODE_VALUE || r->v[p].state != NODE_VALUE ||
	    def->nodes[i].unit != def->nodes[p].unit || r->v[p].value == 0)
		return NAN;
	return r->v[i].value / r->v[p].value;
}

bool tree_is_share(const struct tree_def *def, int i)
{
	const struct tree_node_def *nd = &def->nodes[i];
	const char *dot = strrchr(nd->id, '.');

	if (nd->unit != UNIT_RATIO)
		return false;
	if (nd->flags & TN_EXACT)
		return true;  /* the whole its parts add up to */
	if (!(nd->flags & TN_PART) || !dot)
		return false;
	for (int p = i - 1; p >= 0; p--)
		if (strlen(def->nodes[p].id) == (size_t)(dot - nd->id) &&
		    strncmp(def->nodes[p].id, nd->id, (size_t)(dot - nd->id)) == 0)
			return def->nodes[p].unit == UNIT_RATIO;
	return false;
}

/* Whether node C, a child of its parent, may be on the bottleneck path. */
static bool bn_candidate(const struct tree_result *r, int c)
{
	unsigned flags = r->def->nodes[c].flags;
	double share = tree_parent_share(r, c);

	if (!(flags & TN_PART) || (flags & TN_OVERLAP) || !isfinite(share))
		return false;
	return share >= ((flags & TN_USEFUL) ? TREE_BN_USEFUL : TREE_BN_SHARE);
}

/* The next node of the path under P, -1 where it ends. */
static int bn_next(const struct tree_result *r, int p)
{
	int best = -1, second = -1;

	for (int c = p + 1; c < tree_subtree_end(r, p); c++) {
		if (r->v[c].parent != p || !bn_candidate(r, c))
			continue;
		if (best < 0 || r->v[c].value > r->v[best].value) {
			second = best;
			best = c;
		} else if (second < 0 || r->v[c].value > r->v[second].value) {
			second = c;
		}
	}
	if (best >= 0 && second >= 0 && r->v[p].parent >= 0 &&
	    tree_parent_share(r, best) - tree_parent_share(r, second) <= TREE_BN_AMBIGUOUS)
		return -1;  /* ambiguous below the first level */
	return best;
}

int tree_bottleneck_path(const struct tree_result *r, int *path)
{
	int n = 0;

	for (int root = 0; root < r->def->n_nodes && !n; root++) {
		if (r->v[root].parent >= 0)
			continue;
		for (int p = root, c; (c = bn_next(r, p)) >= 0; p = c) {
			if (!n)
				path[n++] = root;
			path[n++] = c;
		}
	}
	return n;
}
