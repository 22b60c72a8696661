/* Generic tree evaluation: inputs, formulas, remainders and checks. */
#include "arch/tree.h"

#include <math.h>
#include <string.h>

extern const struct tree_def tree_core2, tree_ia64, tree_amd, tree_sw;

const struct tree_def *tree_def_get(enum arch_tree tree)
{
	switch (tree) {
	case TREE_CORE2: return &tree_core2;
	case TREE_IA64: return &tree_ia64;
	case TREE_AMD: return &tree_amd;
	case TREE_SW: return &tree_sw;
	default: return NULL;
	}
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

static void read_inputs(const struct tree_def *def, const struct counts *c,
			const struct tree_ctx *ctx, double *in)
{
	for (int i = 0; i < TREE_MAX_INPUTS; i++)
		in[i] = NAN;
	for (int i = 1; i < def->n_inputs; i++) {
		if (def->inputs[i].derived)
			continue;
		const struct count_entry *e = counts_find(c, ctx->model, def->inputs[i].name);
		if (e && !e->not_counted)
			in[i] = e->value;
	}
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
	memset(out, 0, sizeof(*out));
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
}

int tree_inputs_present(const struct tree_result *r)
{
	int n = 0;

	for (int i = 1; i < r->def->n_inputs; i++)
		if (!r->def->inputs[i].derived && !isnan(r->in[i]))
			n++;
	return n;
}
