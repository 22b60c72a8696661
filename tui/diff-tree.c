/* cyctop diff of counts files (and sessions' counts with -A): every node
 * of one metric tree evaluated on each side's files, side by side with its
 * delta, and which nodes' parts add up. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/tree.h"
#include "engine/counts-file.h"
#include "tui/cmd.h"
#include "tui/diff-cmd.h"
#include "tui/format.h"
#include "tui/json.h"

/* Units that are amounts: a sum of parts is meaningful (ratios, rates and
 * percentages are not). */
static bool amount_unit(enum arch_unit u)
{
	return u == UNIT_CYCLES || u == UNIT_COUNT || u == UNIT_SECONDS || u == UNIT_NONE;
}

/* Whether node I's TN_PART children (amounts in its unit) add up to it in
 * every file: V[run][node] over the NV runs of both sides, each part
 * measured in all of them or in none (a remainder node takes up what was
 * not measured).  Then, by linearity, their deltas add up to its delta. */
static bool parts_add_up(const struct tree_def *def, const struct tree_result *shape, int i,
			 double (*v)[TREE_MAX_NODES], int nv)
{
	bool any = false;

	if (!amount_unit(def->nodes[i].unit))
		return false;
	for (int k = 0; k < def->n_nodes; k++) {
		if (shape->v[k].parent != i || !(def->nodes[k].flags & TN_PART))
			continue;
		if (def->nodes[k].unit != def->nodes[i].unit)
			return false;
		for (int r = 1; r < nv; r++)
			if (isfinite(v[r][k]) != isfinite(v[0][k]))
				return false;
		any |= isfinite(v[0][k]);
	}
	for (int r = 0; any && r < nv; r++) {
		double sum = 0;
		for (int k = 0; k < def->n_nodes; k++)
			if (shape->v[k].parent == i && (def->nodes[k].flags & TN_PART) &&
			    isfinite(v[r][k]))
				sum += v[r][k];
		if (!isfinite(v[r][i]) || fabs(sum - v[r][i]) > 1e-9 * fmax(1, fabs(v[r][i])))
			return false;
	}
	return any;
}

static int load_counts(struct counts *c, char *path)
{
	char err[512];

	counts_init(c);
	if (counts_load_files(c, &path, 1, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	return 0;
}

static enum arch_tree pick_tree(const struct diff_opts *o, const struct counts *c,
				const struct tree_ctx *ctx)
{
	if (o->tree != TREE_NONE)
		return o->tree;
	if (o->model)
		return o->model->tree;
	return (enum arch_tree)cmd_tree_guess(c, ctx);
}

/* The values of every node in each of a side's N files into V[run][node]
 * (NAN: not measured). */
static int side_tree(char **paths, int n, const struct tree_def **def, struct tree_ctx *ctx,
		     const struct diff_opts *o, double (*v)[TREE_MAX_NODES],
		     struct tree_result *last)
{
	for (int r = 0; r < n; r++) {
		struct counts c;
		if (load_counts(&c, paths[r]) < 0)
			return -1;
		if (!*def) {
			enum arch_tree t = pick_tree(o, &c, ctx);
			if (t == TREE_NONE) {
				cmd_error("%s: none of its events belongs to a known tree (give -A)",
					  paths[r]);
				counts_free(&c);
				return -1;
			}
			*def = tree_def_pick(t, ctx->model, &c);
			if (!ctx->model)
				ctx->model = tree_default_model(*def);
		}
		tree_eval(*def, &c, ctx, last);
		for (int i = 0; i < (*def)->n_nodes; i++)
			v[r][i] = last->v[i].state == NODE_VALUE ? last->v[i].value : NAN;
		counts_free(&c);
	}
	return 0;
}

/* build_tree's working values, on the heap (2 x 256 runs x 96 nodes of
 * doubles: 384 KB): every node's value in each file, the base's runs then
 * the new's (one array for parts_add_up), and the last file's result,
 * which gives the tree's shape. */
struct tree_work {
	double v[2 * SNAP_MAX_RUNS][TREE_MAX_NODES];
	struct tree_result r;
};

/* Each node's statistics across the sides, and which nodes add up. */
static void compare_tree(const struct diff_opts *o, struct tree_diff *td, struct tree_work *w)
{
	td->method = o->nb > 1 ? DIFF_RUNS : DIFF_SAMPLING;
	td->interval = o->nb > 1;
	for (int i = 0; i < td->def->n_nodes; i++) {
		double b[SNAP_MAX_RUNS], n[SNAP_MAX_RUNS];
		bool ok = true;
		for (int k = 0; k < o->nb; k++)
			ok &= isfinite(b[k] = w->v[k][i]);
		for (int k = 0; k < o->nn; k++)
			ok &= isfinite(n[k] = w->v[o->nb + k][i]);
		td->measured[i] = ok;
		if (!ok)
			continue;
		/* one file a side: counts carry no measure of their noise */
		diff_stat_compute(td->method, b, NULL, o->nb, n, NULL, o->nn, &td->st[i]);
		if (!td->interval) {
			td->st[i].low = td->st[i].high = td->st[i].sd = NAN;
			td->st[i].significant = false;
		}
	}
	/* the last result gives the tree's shape (parents, depths) */
	for (int i = 0; i < td->def->n_nodes; i++) {
		td->parent[i] = w->r.v[i].parent;
		td->depth[i] = w->r.v[i].depth;
		td->additive[i] = td->measured[i] &&
				  parts_add_up(td->def, &w->r, i, w->v, o->nb + o->nn);
		for (int k = 0; k < td->def->n_nodes && td->additive[i]; k++)
			if (w->r.v[k].parent == i && (td->def->nodes[k].flags & TN_PART) &&
			    td->measured[k])
				td->parts_delta[i] += td->st[k].delta;
	}
}

static int eval_sides(const struct diff_opts *o, struct tree_diff *td, struct tree_work *w)
{
	struct penalties pen;
	char err[512];

	if (o->nb > SNAP_MAX_RUNS || o->nn > SNAP_MAX_RUNS) {
		cmd_error("diff: at most %d files a side", SNAP_MAX_RUNS);
		return -1;
	}
	if (penalties_load(&pen, o->penalties, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	struct tree_ctx ctx = { .model = o->model, .pen = &pen, .clock_hz = o->clock_hz };
	if (side_tree(o->base, o->nb, &td->def, &ctx, o, w->v, &w->r) < 0 ||
	    side_tree(o->new_, o->nn, &td->def, &ctx, o, w->v + o->nb, &w->r) < 0)
		return -1;
	return 0;
}

int diff_tree_build(const struct diff_opts *o, struct tree_diff *td)
{
	struct tree_work *w = calloc(1, sizeof(*w));

	memset(td, 0, sizeof(*td));
	if (!w) {
		cmd_error("diff: out of memory");
		return -1;
	}
	int rc = eval_sides(o, td, w);
	if (rc == 0)
		compare_tree(o, td, w);
	free(w);
	return rc;
}

static const char *tree_method(const struct tree_diff *td)
{
	return td->interval ? "runs" : "none";
}

void diff_tree_text(const struct tree_diff *td)
{
	const struct tree_def *def = td->def;
	char val[64];

	printf("\n# tree %s: every node side by side, in its unit; ", def->title);
	if (td->interval)
		printf("95%% intervals from the runs (Welch)\n");
	else
		printf("no interval (one counts file a side carries no measure of its noise: -b "
		       "with two or more a side)\n");
	printf("# '= parts' marks a node whose parts add up to it in every file, so their deltas "
	       "add up to its delta (amounts; ratios do not add)\n");
	printf("# %-42s %18s %18s %18s %8s\n", "id", "base", "new", "delta", "delta%");
	for (int i = 0; i < def->n_nodes; i++) {
		const struct diff_stat *st = &td->st[i];
		int ind = 2 * td->depth[i];
		printf("  %*s%-*s", ind, "", 42 - ind, def->nodes[i].id);
		if (def->nodes[i].flags & TN_GROUP) {
			printf(" %s\n", def->nodes[i].label);
			continue;
		}
		if (!td->measured[i]) {
			printf(" %18s  not measured (on one side or both)\n", "-");
			continue;
		}
		printf(" %18s", fmt_value(val, sizeof(val), st->base, def->nodes[i].unit));
		printf(" %18s", fmt_value(val, sizeof(val), st->new_, def->nodes[i].unit));
		printf(" %18.6g", st->delta);
		if (isfinite(st->delta_pct))
			printf(" %+7.1f%%", st->delta_pct);
		else
			printf(" %8s", "");
		if (td->interval)
			printf("  [%+.6g, %+.6g]%s", st->low, st->high, st->significant ? " *" : "");
		printf("  %s %s%s\n", unit_name(def->nodes[i].unit), def->nodes[i].label,
		       td->additive[i] ? "  (= parts)" : "");
	}
}

void diff_tree_csv(const struct tree_diff *td)
{
	const struct tree_def *def = td->def;

	for (int i = 0; i < def->n_nodes; i++) {
		const struct diff_stat *st = &td->st[i];
		if (!td->measured[i])
			continue;
		printf("tree,");
		fmt_csv_field(stdout, def->nodes[i].id);
		putchar(',');
		fmt_csv_field(stdout, td->parent[i] >= 0 ? def->nodes[td->parent[i]].id : "");
		putchar(',');
		fmt_csv_field(stdout, unit_name(def->nodes[i].unit));
		printf(",%.15g,%.15g,%.15g,", st->base, st->new_, st->delta);
		if (isfinite(st->delta_pct))
			printf("%.6g", st->delta_pct);
		if (td->interval)
			printf(",%.15g,%.15g,%.15g,%s", st->low, st->high, st->sd,
			       st->significant ? "yes" : "no");
		else
			printf(",,,,");
		printf(",,,,%s,\n", td->additive[i] ? "yes" : "no");
	}
}

void diff_tree_json(struct json *j, const struct tree_diff *td)
{
	json_key(j, "tree");
	json_lines_begin(j);
	for (int i = 0; td && td->def && i < td->def->n_nodes; i++) {
		const struct tree_node_def *nd = &td->def->nodes[i];
		const struct diff_stat *st = &td->st[i];
		if (nd->flags & TN_GROUP)
			continue;
		json_object_begin(j);
		json_kstr(j, "id", nd->id);
		json_key(j, "parent");
		if (td->parent[i] >= 0)
			json_str(j, td->def->nodes[td->parent[i]].id);
		else
			json_null(j);
		json_kstr(j, "label", nd->label);
		json_kstr(j, "unit", unit_name(nd->unit));
		json_kbool(j, "measured", td->measured[i]);
		bool m = td->measured[i];
		json_knum(j, "base", m ? st->base : NAN);
		json_knum(j, "new", m ? st->new_ : NAN);
		json_knum(j, "delta", m ? st->delta : NAN);
		json_knum(j, "delta_percent", m ? st->delta_pct : NAN);
		json_knum(j, "low", m ? st->low : NAN);
		json_knum(j, "high", m ? st->high : NAN);
		json_key(j, "significant");
		if (m && td->interval)
			json_bool(j, st->significant);
		else
			json_null(j);
		json_kbool(j, "additive", td->additive[i]);
		json_knum(j, "parts_delta", td->additive[i] ? td->parts_delta[i] : NAN);
		json_end(j);
	}
	json_end(j);
}

/* Counts files only: the tree and nothing else. */
void diff_tree_only(const struct diff_opts *o, const struct tree_diff *td)
{
	if (o->format == OUT_CSV) {
		printf("%s", diff_csv_header);
		diff_tree_csv(td);
	} else if (o->format == OUT_TEXT) {
		printf("# base:");
		for (int r = 0; r < o->nb; r++)
			printf(" %s", o->base[r]);
		printf("\n# new: ");
		for (int r = 0; r < o->nn; r++)
			printf(" %s", o->new_[r]);
		printf("\n");
		diff_tree_text(td);
	} else {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j);
		for (int s = 0; s < 2; s++) {
			json_key(&j, s ? "new" : "base");
			json_object_begin(&j);
			json_key(&j, "files");
			json_array_begin(&j);
			for (int r = 0; r < (s ? o->nn : o->nb); r++)
				json_str(&j, s ? o->new_[r] : o->base[r]);
			json_end(&j);
			json_key(&j, "events");
			json_object_begin(&j);
			json_end(&j);
			json_end(&j);
		}
		json_kstr(&j, "method", tree_method(td));
		json_kstr(&j, "tree_name", td->def->name);
		json_key(&j, "functions");
		json_array_begin(&j);
		json_end(&j);
		diff_tree_json(&j, td);
		json_end(&j);
		putchar('\n');
	}
}
