/* The metric tree: expandable, values with units, percent of parent, bars,
 * the bottleneck path marked, and what is missing said exactly. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/session.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

#define BOTTLENECK_PCT 30.0

static bool folded(const struct tui *t, int i)
{
	return (t->folded[i / 64] >> (i % 64)) & 1;
}

static bool hidden(const struct tui *t, int i)
{
	for (int p = t->tres.v[i].parent; p >= 0; p = t->tres.v[p].parent)
		if (folded(t, p))
			return true;
	return false;
}

static bool has_children(const struct tree_result *r, int i)
{
	return i + 1 < r->def->n_nodes && r->v[i + 1].parent == i;
}

/* The largest measured part of each marked node, from the roots down, when
 * it takes at least BOTTLENECK_PCT of its parent. */
static bool bottleneck(const struct tree_result *r, int i)
{
	const struct node_value *v = &r->v[i];
	int p = v->parent;

	if (p < 0 || v->state != NODE_VALUE || !(v->pct_parent >= BOTTLENECK_PCT))
		return false;
	if (!(r->def->nodes[i].flags & TN_PART))
		return false;
	for (int j = p + 1; j < r->def->n_nodes; j++)
		if (r->v[j].parent == p && r->v[j].state == NODE_VALUE &&
		    (r->def->nodes[j].flags & TN_PART) && r->v[j].value > v->value)
			return false;
	return r->v[p].parent < 0 || bottleneck(r, p);
}

static int visible_nodes(struct tui *t, int *out)
{
	int n = 0;

	for (int i = 0; i < t->tres.def->n_nodes; i++)
		if (!hidden(t, i))
			out[n++] = i;
	return n;
}

static void missing_text(struct tui *t, int i, char *buf, size_t sz)
{
	const struct tree_result *r = &t->tres;
	size_t o = (size_t)snprintf(buf, sz, "not measured: ");

	for (int k = 1; k < r->def->n_inputs && k < 64 && o < sz; k++)
		if (r->v[i].missing & (1ull << k))
			o += (size_t)snprintf(buf + o, sz - o, "%s [%s]; ", r->def->inputs[k].name,
					      r->def->inputs[k].derived ? "derived"
						      : tui_missing_reason(t, r->def->inputs[k].name));
	if (r->v[i].no_clock && o < sz)
		snprintf(buf + o, sz - o, "the clock frequency");
}

/* With a baseline shown (D): the trees of both sides, the delta column
 * in the bar's place. */
struct tree_delta {
	bool on;
	struct tree_result cur, base;
};

static void draw_delta(struct tui *t, const struct tree_delta *d, int y, int x, int i, bool sel)
{
	char cell[64];

	baseline_node_cell(&d->cur.v[i], &d->base.v[i], t->tres.def->nodes[i].unit, t->base_mode,
			   cell, sizeof(cell));
	ui_set(sel ? EL_SELECTED : EL_DEFAULT);
	ui_text(y, x, COLS - x, cell, false);
}

static void draw_node(struct tui *t, const struct tree_delta *d, int y, int i, bool sel)
{
	const struct tree_result *r = &t->tres;
	const struct node_value *v = &r->v[i];
	const struct tree_node_def *nd = &r->def->nodes[i];
	char line[1024], val[64];
	int indent = 2 * v->depth, idw = COLS > 90 ? 46 : COLS / 2;

	snprintf(line, sizeof(line), "%*s%s %s", indent, "",
		 has_children(r, i) ? (folded(t, i) ? "+" : "-") : " ", nd->id);
	ui_set(sel ? EL_SELECTED : bottleneck(r, i) ? EL_BOTTLENECK : EL_DEFAULT);
	ui_cell(y, 0, idw, line);   /* a deep id never runs into its value */
	if (v->state == NODE_HEADING) {
		ui_text(y, idw, COLS - idw, nd->label, true);
		return;
	}
	if (v->state == NODE_MISSING) {
		missing_text(t, i, line, sizeof(line));
		ui_set(sel ? EL_SELECTED : EL_MISSING);
		ui_text(y, idw, COLS - idw, line, true);
		return;
	}
	snprintf(line, sizeof(line), "%16s %-10s", fmt_value(val, sizeof(val), v->value, nd->unit),
		 unit_name(nd->unit));
	if (isfinite(v->pct_parent))
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " %6.1f%%", v->pct_parent);
	ui_set(sel ? EL_SELECTED : v->warn ? EL_WARNING : EL_DEFAULT);
	ui_text(y, idw, COLS - idw, line, true);
	int bx = idw + 37;
	if (d->on) {  /* the delta (D) where the bar was */
		if (bx + 10 <= COLS)
			draw_delta(t, d, y, bx, i, sel);
		return;
	}
	if (isfinite(v->pct_parent) && bx + 4 < COLS) {
		ui_set(EL_BAR);
		ui_bar(y, bx, COLS - bx > 30 ? 30 : COLS - bx, v->pct_parent / 100.0);
	}
	if (v->warn && bx + 32 < COLS) {
		ui_set(EL_WARNING);
		ui_text(y, bx + 31, COLS - bx - 31, "!", false);
	}
}

/* The browser's rows are the visible nodes: row k is node vis[k]. */
struct node_rows {
	struct tui *t;
	const int *vis;
	const struct tree_delta *d;
};

static void draw_node_row(void *ctx, int k, int y, bool selected)
{
	const struct node_rows *nodes = ctx;

	draw_node(nodes->t, nodes->d, y, nodes->vis[k], selected);
}

/* Both sides' trees when a baseline is shown: the same definition and
 * context on the baseline's counts (a marked one: rates on both). */
static void eval_delta(struct tui *t, struct tree_delta *d)
{
	struct counts cur, base;

	d->on = tui_baseline_shown(t) &&
		baseline_tree_counts(t->baseline, t->snap, &t->counts, &cur, &base) == 0;
	if (!d->on)
		return;
	tui_eval_tree_counts(t, &cur, &d->cur);
	tui_eval_tree_counts(t, &base, &d->base);
	counts_free(&cur);
	counts_free(&base);
}

static void draw_tree(struct tui *t, int y, int rows)
{
	int vis[TREE_MAX_NODES];
	char line[1024];
	const struct arch_model *m = tui_tree_model(t, t->tree_id);
	struct tree_delta d;

	if (!t->tres.def)
		tui_eval_tree(t);
	eval_delta(t, &d);
	ui_set(EL_HEADER);
	const char *source = !t->sess ? t->source
			     : session_is_recorded(t->sess) ? "recorded session" : "live counts";
	snprintf(line, sizeof(line), "%s  (model %s; %s; %d of its events present)%s%s%s",
		 t->tres.def->title, m ? m->name : "none", source, tree_inputs_present(&t->tres),
		 d.on ? "  " : "", d.on ? (t->base_mode == BASE_DELTA_PCT ? "d% " : "d ") : "",
		 d.on ? baseline_label(t->baseline) : "");
	ui_text(y++, 0, COLS, line, true);
	if (y >= rows)
		return;
	struct node_rows nodes = { t, vis, &d };
	t->tree.nr = visible_nodes(t, vis);
	browser_draw(&t->tree, y, rows, draw_node_row, &nodes);
	ui_set(EL_DEFAULT);
}

/* Whether TREE is one of the host's (or the file's) trees: its model feeds
 * it; with no model known (a counts file of a CPU whose tables cyctop
 * lacks), the file holds some of the tree's events. */
static bool host_tree(const struct tui *t, enum arch_tree tree)
{
	struct tree_result r;
	struct tree_ctx ctx = { .pen = &t->pen };

	if (t->model)
		return tree_fits_model(tree, t->model);
	const struct tree_def *def = tree_def_pick(tree, NULL, &t->counts);
	ctx.model = tree_default_model(def);
	tree_eval(def, &t->counts, &ctx, &r);
	return tree_inputs_present(&r) > 0;
}

/* The order `t` walks: the trees the host's (or the file's) model feeds,
 * then the papers' trees, then the software tree. */
static int tree_order(const struct tui *t, enum arch_tree *out)
{
	static const enum arch_tree host_first[] = {
		TREE_INTEL, TREE_ARM, TREE_TOPDOWN, TREE_ZEN, TREE_CORE2, TREE_IA64, TREE_AMD,
	};
	static const enum arch_tree papers[] = { TREE_CORE2, TREE_IA64, TREE_AMD, TREE_SW };
	int n = 0;

	for (size_t i = 0; i < sizeof(host_first) / sizeof(host_first[0]); i++)
		if (host_tree(t, host_first[i]))
			out[n++] = host_first[i];
	for (size_t i = 0; i < sizeof(papers) / sizeof(papers[0]); i++) {
		bool seen = false;
		for (int k = 0; k < n; k++)
			seen |= out[k] == papers[i];
		if (!seen)
			out[n++] = papers[i];
	}
	return n;
}

static enum arch_tree next_tree(const struct tui *t)
{
	enum arch_tree order[TREE_COUNT];
	int n = tree_order(t, order);

	for (int k = 0; k < n; k++)
		if (order[k] == t->tree_id)
			return order[(k + 1) % n];
	return order[0];
}

static bool key_tree(struct tui *t, int key)
{
	int vis[TREE_MAX_NODES];

	if (browser_key(&t->tree, key))
		return true;
	if (tui_baseline_key(t, key))
		return true;
	if (key == 't') {
		t->tree_id = next_tree(t);
		memset(t->folded, 0, sizeof(t->folded));
		t->tree.sel = t->tree.top = 0;
		tui_eval_tree(t);
		return true;
	}
	if (key == '\n' || key == '\r' || key == KEY_ENTER || key == '+' || key == '-') {
		int n = visible_nodes(t, vis);
		if (t->tree.sel < n && has_children(&t->tres, vis[t->tree.sel])) {
			int i = vis[t->tree.sel];
			t->folded[i / 64] ^= 1ull << (i % 64);
		}
		return true;
	}
	return false;
}

const struct view_ops view_tree = {
	"tree",
	"q quit  ? help  t next tree  Enter fold/unfold  i ILP  Esc hotspots  T theme  D delta",
	draw_tree,
	key_tree,
	NULL,
};
