/* The metric tree: expandable, values with units, percent of parent, bars,
 * the bottleneck path marked, and what is missing said in one line per run
 * of unmeasured nodes.  `t` walks the trees of the host's (or the file's)
 * model, `A` picks one by name; both read the trees' table (arch/tree.c). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/session.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

/* One row of the view: a node, or a run of unmeasured nodes folded into
 * one line (FOLD_END past the run's last node, ROWS how many). */
struct tree_row {
	int node;
	int fold_end;  /* 0: a node row */
	int rows;
	uint64_t missing;
	bool no_clock;
};

/* The view's state: what is folded and unfolded, and the tree picker. */
struct tree_view {
	struct browser br;
	uint64_t folded[2];          /* tree nodes collapsed */
	uint64_t opened[2];          /* runs of unmeasured nodes unfolded */
	struct {                     /* the tree picker (A) */
		bool open;
		struct browser br;
	} pick;
};

static struct tree_view *tv(const struct tui *t)
{
	return tui_view_data(t, VIEW_TREE);
}

static bool bit(const uint64_t *set, int i)
{
	return (set[i / 64] >> (i % 64)) & 1;
}

static bool hidden(const struct tui *t, int i)
{
	for (int p = t->tres.v[i].parent; p >= 0; p = t->tres.v[p].parent)
		if (bit(tv(t)->folded, p))
			return true;
	return false;
}

static bool has_children(const struct tree_result *r, int i)
{
	return i + 1 < r->def->n_nodes && r->v[i + 1].parent == i;
}

/* The view's rows: the nodes not under a folded one, each run of dark
 * siblings as one line unless Enter opened it (its first node's bit). */
static int tree_rows(const struct tui *t, struct tree_row *out)
{
	const struct tree_result *r = &t->tres;
	int n = 0;

	for (int i = 0; i < r->def->n_nodes;) {
		if (hidden(t, i)) {
			i++;
			continue;
		}
		struct tree_row *row = &out[n++];
		memset(row, 0, sizeof(*row));
		row->node = i;
		if (tree_dark(r, i) && !bit(tv(t)->opened, i)) {
			row->fold_end = tree_dark_run(r, i, &row->rows, &row->missing,
						      &row->no_clock);
			i = row->fold_end;
		} else {
			i++;
		}
	}
	return n;
}

/* The first node of the unmeasured run node I is in (I when none). */
static int run_start(const struct tree_result *r, int i)
{
	int k = i;

	while (r->v[k].parent >= 0 && tree_dark(r, r->v[k].parent))
		k = r->v[k].parent;  /* the run is of its topmost dark ancestors */
	for (int s = k - 1; s >= 0 && r->v[s].depth >= r->v[k].depth; s--)
		if (r->v[s].depth == r->v[k].depth) {
			if (!tree_dark(r, s))
				break;
			k = s;
		}
	return k;
}

/* S cut to COLS columns at a space (never inside a word); true if cut.
 * The view's lines end before the last column: a line reaching the edge
 * reads as cut. */
static bool fit_words(char *s, int cols)
{
	if (cols < 0)
		cols = 0;  /* a screen narrower than what stays */
	if ((int)strlen(s) <= cols)
		return false;
	int cut = cols;
	while (cut > 0 && s[cut] != ' ')
		cut--;
	while (cut > 0 && (s[cut - 1] == ' ' || s[cut - 1] == ',' || s[cut - 1] == ';'))
		cut--;
	s[cut] = '\0';
	return true;
}

/* Why EVENTS (an input: alternatives after '|') are missing, or NULL when
 * the inputs of MASK do not share one reason. */
static const char *common_reason(struct tui *t, const struct tree_def *def, uint64_t mask)
{
	const char *why = NULL;

	for (int k = 1; k < def->n_inputs && k < 64; k++) {
		if (!(mask & (1ull << k)))
			continue;
		const char *w = def->inputs[k].derived ? "derived"
				: tui_missing_reason(t, def->inputs[k].name);
		if (why && strcmp(why, w) != 0)
			return NULL;
		why = w;
	}
	return why;
}

/* The name of input NAMES (alternatives after '|') the model knows, else
 * its first alternative. */
static const char *model_name_of(const struct tui *t, const char *names, char *buf, size_t sz)
{
	const char *p = names;

	for (; t->model && p && *p;) {
		const char *bar = strchr(p, '|');
		int len = bar ? (int)(bar - p) : (int)strlen(p);
		snprintf(buf, sz, "%.*s", len, p);
		if (model_lookup(t->model, buf))
			return buf;
		p = bar ? bar + 1 : NULL;
	}
	snprintf(buf, sz, "%.*s", (int)strcspn(names, "|"), names);
	return buf;
}

/* "+ 7 rows not measured: needs A, B and 5 more events (reason)" in COLS:
 * whole event names while they fit, then how many more. */
static void fold_text(struct tui *t, const struct tree_row *row, char *buf, size_t sz, int cols)
{
	const struct tree_def *def = t->tres.def;
	const char *why = common_reason(t, def, row->missing), *names[66];
	char alt[64][COUNT_NAME_MAX];
	int total = 0, named = 0;
	const int more = (int)strlen(" and 99 more events");
	int o = snprintf(buf, sz, "+ %d %s not measured", row->rows, row->rows == 1 ? "row" : "rows");

	for (int k = 1; k < def->n_inputs && k < 64; k++)
		if (row->missing & (1ull << k)) {
			names[total] = model_name_of(t, def->inputs[k].name, alt[total],
						     sizeof(alt[0]));
			total++;
		}
	if (row->no_clock)
		names[total++] = "--clock-hz";
	/* the events first: the reason gives way when not even one would fit */
	if (why && total && o + (int)(strlen(": needs ") + strlen(names[0]) + strlen(why) + 3) +
				    (total > 1 ? more : 0) > cols)
		why = NULL;
	int reason = why ? (int)strlen(why) + 3 : 0;
	for (; named < total; named++) {
		int len = (int)(strlen(named ? ", " : ": needs ") + strlen(names[named]));
		if (o + len + reason + (named < total - 1 ? more : 0) > cols)
			break;
		o += snprintf(buf + o, sz - (size_t)o, "%s%s", named ? ", " : ": needs ",
			      names[named]);
	}
	if (named < total)
		o += snprintf(buf + o, sz - (size_t)o, "%s%d more event%s",
			      named ? " and " : ": needs ", total - named,
			      total - named == 1 ? "" : "s");
	if (why && o < (int)sz)
		snprintf(buf + o, sz - (size_t)o, " (%s)", why);
	fit_words(buf, cols);
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

/* What the rows share while drawing. */
struct node_rows {
	struct tui *t;
	const struct tree_row *rows;
	const struct tree_delta *d;
	int idw;                  /* the id column's width */
	bool leaf;                /* ids by their last part (leaf_ids) */
	bool on_path[TREE_MAX_NODES];  /* the bottleneck path, root excluded */
};

/* The id cell: the dotted id, or where it does not fit the column its last
 * part (".memory_bound": the indentation says where it hangs). */
static void id_cell(const struct tui *t, int i, bool leaf, char *line, size_t sz)
{
	const struct tree_result *r = &t->tres;
	const char *id = r->def->nodes[i].id, *dot = strrchr(id, '.');
	const char *mark = has_children(r, i) ? (bit(tv(t)->folded, i) ? "+" : "-") : " ";

	snprintf(line, sz, "%*s%s %s", 2 * r->v[i].depth, "", mark, leaf && dot ? dot : id);
}

/* The id column: 46 wide, more on a wide screen when the longest dotted
 * id needs it (the value, its unit, percent and bar keep 68 columns);
 * half the screen on a narrow one. */
static int id_width(const struct tui *t, const struct tree_row *rows, int n)
{
	char line[512];
	int longest = 0;

	for (int k = 0; k < n; k++) {
		id_cell(t, rows[k].node, false, line, sizeof(line));
		if (!rows[k].fold_end && (int)strlen(line) > longest)
			longest = (int)strlen(line);
	}
	if (COLS <= 90)
		return COLS / 2;
	return longest + 1 > COLS - 68 ? (COLS - 68 > 46 ? COLS - 68 : 46)
	       : longest + 1 > 46 ? longest + 1 : 46;
}

/* Whether some row's dotted id does not fit the id column: then every
 * row shows its last part, alike. */
static bool leaf_ids(const struct tui *t, const struct tree_row *rows, int n, int idw)
{
	char line[512];

	for (int k = 0; k < n; k++) {
		id_cell(t, rows[k].node, false, line, sizeof(line));
		if (!rows[k].fold_end && (int)strlen(line) > idw - 1)
			return true;
	}
	return false;
}

/* The value, its unit and the share of the parent: TopDown's fractions of
 * slots as percents, as toplev prints them. */
static void value_text(const struct tree_result *r, int i, char *line, size_t sz)
{
	const struct tree_node_def *nd = &r->def->nodes[i];
	const struct node_value *v = &r->v[i];
	char val[64];
	double pct = v->pct_parent;

	if (tree_is_share(r->def, i)) {
		snprintf(val, sizeof(val), "%.1f%%", 100.0 * v->value);
		snprintf(line, sz, "%16s %-10s", val, "");
		pct = 100.0 * tree_parent_share(r, i);
	} else {
		snprintf(line, sz, "%16s %-10s", fmt_value(val, sizeof(val), v->value, nd->unit),
			 unit_name(nd->unit));
	}
	if (isfinite(pct))
		snprintf(line + strlen(line), sz - strlen(line), " %6.1f%%", pct);
}

static void draw_node(const struct node_rows *nr, int y, int i, bool sel)
{
	struct tui *t = nr->t;
	const struct tree_result *r = &t->tres;
	const struct node_value *v = &r->v[i];
	const struct tree_node_def *nd = &r->def->nodes[i];
	char line[1024];
	int idw = nr->idw;

	id_cell(t, i, nr->leaf, line, sizeof(line));
	ui_set(sel ? EL_SELECTED : nr->on_path[i] ? EL_BOTTLENECK : EL_DEFAULT);
	ui_cell(y, 0, idw, line);   /* a deep id never runs into its value */
	if (v->state == NODE_HEADING) {
		snprintf(line, sizeof(line), "%s", nd->label);
		fit_words(line, COLS - idw - 1);
		ui_text(y, idw, COLS - idw, line, true);
		return;
	}
	if (v->state == NODE_MISSING) {
		missing_text(t, i, line, sizeof(line));
		fit_words(line, COLS - idw - 1);
		ui_set(sel ? EL_SELECTED : EL_MISSING);
		ui_text(y, idw, COLS - idw, line, true);
		return;
	}
	value_text(r, i, line, sizeof(line));
	ui_set(sel ? EL_SELECTED : v->warn ? EL_WARNING : EL_DEFAULT);
	ui_text(y, idw, COLS - idw, line, true);
	int bx = idw + 37;
	double pct = isfinite(v->pct_parent) ? v->pct_parent
		     : tree_is_share(r->def, i) ? 100.0 * tree_parent_share(r, i) : NAN;
	if (nr->d->on) {  /* the delta (D) where the bar was */
		if (bx + 10 <= COLS)
			draw_delta(t, nr->d, y, bx, i, sel);
		return;
	}
	if (isfinite(pct) && bx + 4 < COLS) {
		ui_set(EL_BAR);
		ui_bar(y, bx, COLS - bx > 30 ? 30 : COLS - bx, pct / 100.0);
	}
	if (v->warn && bx + 32 < COLS) {
		ui_set(EL_WARNING);
		ui_text(y, bx + 31, COLS - bx - 31, "!", false);
	}
}

static void draw_fold(const struct node_rows *nr, int y, const struct tree_row *row, bool sel)
{
	char line[1024];
	int indent = 2 * nr->t->tres.v[row->node].depth;

	if (indent > COLS / 2)
		indent = 0;
	fold_text(nr->t, row, line, sizeof(line), COLS - indent - 1);
	ui_set(EL_DEFAULT);
	ui_text(y, 0, indent, "", true);
	ui_set(sel ? EL_SELECTED : EL_MISSING);
	ui_text(y, indent, COLS - indent, line, true);
}

static void draw_tree_row(void *ctx, int k, int y, bool selected)
{
	const struct node_rows *nr = ctx;
	const struct tree_row *row = &nr->rows[k];

	if (row->fold_end)
		draw_fold(nr, y, row, selected);
	else
		draw_node(nr, y, row->node, selected);
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

/* Whether a tree with no model of its own (TREE's definitions are for
 * every model: software events) has something to show: some of its
 * inputs, or it is the one shown. */
static bool tree_has_inputs(const struct tui *t, enum arch_tree tree)
{
	struct tree_result r;
	struct tree_ctx ctx = { .pen = &t->pen };
	const struct tree_def *def = tree_def_pick(tree, t->model, &t->counts);

	ctx.model = t->model ? t->model : tree_default_model(def);
	tree_eval(def, &t->counts, &ctx, &r);
	return tree_inputs_present(&r) > 0;
}

/* The trees `t` walks, in its order: those of the host's (or the file's)
 * model (its own first), the generic ones where they have inputs; with
 * no model known (a counts file of a CPU whose tables cyctop lacks), the
 * trees the file holds events of. */
static int host_trees(const struct tui *t, enum arch_tree *out)
{
	enum arch_tree ids[TREE_COUNT];
	int n = 0, nids = t->model ? tree_model_trees(t->model, ids) : tree_all_ids(ids);

	for (int k = 0; k < nids; k++)
		if ((t->model && !tree_is_generic(ids[k])) || ids[k] == t->tree_id ||
		    tree_has_inputs(t, ids[k]))
			out[n++] = ids[k];
	return n;
}

static bool in_list(const enum arch_tree *ids, int n, enum arch_tree id)
{
	for (int k = 0; k < n; k++)
		if (ids[k] == id)
			return true;
	return false;
}

static void show_tree(struct tui *t, enum arch_tree id)
{
	struct tree_view *st = tv(t);

	t->tree_id = id;
	memset(st->folded, 0, sizeof(st->folded));
	memset(st->opened, 0, sizeof(st->opened));
	st->br.sel = st->br.top = 0;
	tui_eval_tree(t);
}

/* A tree asked for (-A, the picker) that this host's model has no
 * variant of: say so in one line and show the model's own tree. */
static void settle_tree(struct tui *t)
{
	enum arch_tree ids[TREE_COUNT];
	int n = host_trees(t, ids);

	if (!t->model || n == 0 || in_list(ids, n, t->tree_id))
		return;
	bool live = t->sess && !session_is_recorded(t->sess);
	snprintf(t->message, sizeof(t->message), "no %s tree for model %s%s: the %s tree instead "
		 "(A: every tree)", tree_name(t->tree_id), t->model->name,
		 !model_is_hardware(t->model) && live ? " (this host has no hardware PMU)" : "",
		 tree_name(ids[0]));
	show_tree(t, ids[0]);
}

/* The title line: the tree, its model and source, cut at words to COLS,
 * the model named whatever else gives way. */
static void draw_title(struct tui *t, int y, const struct tree_delta *d)
{
	const struct arch_model *m = tui_tree_model(t, t->tree_id);
	const char *source = !t->sess ? t->source
			     : session_is_recorded(t->sess) ? "recorded session" : "live counts";
	char title[256], tail[3][700], line[1024], delta[300];

	/* with D the baseline's label stays whatever else gives way */
	snprintf(delta, sizeof(delta), "%s%s%s", d->on ? "  " : "",
		 d->on ? (t->base_mode == BASE_DELTA_PCT ? "d% " : "d ") : "",
		 d->on ? baseline_label(t->baseline) : "");
	int present = tree_inputs_present(&t->tres);
	const char *events = present == 1 ? "event" : "events";  /* "1 event present" */

	snprintf(tail[0], sizeof(tail[0]), "  (model %s; %s; %d of its events present)%s",
		 m ? m->name : "none", source, present, delta);
	snprintf(tail[1], sizeof(tail[1]), "  (model %s; %d %s present)%s",
		 m ? m->name : "none", present, events, delta);
	snprintf(tail[2], sizeof(tail[2]), "  (model %s)%s", m ? m->name : "none", delta);
	snprintf(title, sizeof(title), "%s", t->tres.def->title);
	int k = 0;
	while (k < 2 && (int)(strlen(title) + strlen(tail[k])) > COLS - 1)
		k++;
	fit_words(title, COLS - 1 - (int)strlen(tail[k]));
	snprintf(line, sizeof(line), "%.255s%.699s", title, tail[k]);
	fit_words(line, COLS - 1);
	ui_set(EL_HEADER);
	ui_text(y, 0, COLS, line, true);
}

static void draw_picker(struct tui *t, int y, int rows);

static void draw_tree(struct tui *t, int y, int rows)
{
	struct tree_view *st = tv(t);
	struct tree_row trows[TREE_MAX_NODES];
	struct tree_delta d;
	int path[TREE_MAX_NODES];

	if (!t->tres.def)
		tui_eval_tree(t);
	settle_tree(t);
	if (st->pick.open) {
		draw_picker(t, y, rows);
		return;
	}
	eval_delta(t, &d);
	draw_title(t, y++, &d);
	if (y >= rows)
		return;
	struct node_rows nodes = { .t = t, .rows = trows, .d = &d };
	int np = tree_bottleneck_path(&t->tres, path);
	for (int k = 1; k < np; k++)
		nodes.on_path[path[k]] = true;
	st->br.nr = tree_rows(t, trows);
	nodes.idw = id_width(t, trows, st->br.nr);
	nodes.leaf = leaf_ids(t, trows, st->br.nr, nodes.idw);
	browser_draw(&st->br, y, rows, draw_tree_row, &nodes);
	ui_set(EL_DEFAULT);
}

static enum arch_tree next_tree(const struct tui *t)
{
	enum arch_tree order[TREE_COUNT];
	int n = host_trees(t, order);

	for (int k = 0; k < n; k++)
		if (order[k] == t->tree_id)
			return order[(k + 1) % n];
	return n ? order[0] : t->tree_id;
}

/* Enter on a row: a run of unmeasured nodes opens (its own rows) or, on
 * one of its rows, closes again; a node with children folds. */
static void enter_row(struct tui *t)
{
	struct tree_view *st = tv(t);
	struct tree_row trows[TREE_MAX_NODES];
	int n = tree_rows(t, trows);

	if (st->br.sel >= n)
		return;
	const struct tree_row *row = &trows[st->br.sel];
	int i = row->node;
	if (row->fold_end || tree_dark(&t->tres, i)) {
		int s = row->fold_end ? i : run_start(&t->tres, i);
		st->opened[s / 64] ^= 1ull << (s % 64);
		if (!row->fold_end)  /* the selection stays on the folded line */
			for (int k = 0; k < n; k++)
				if (trows[k].node == s)
					st->br.sel = k;
		return;
	}
	if (has_children(&t->tres, i))
		st->folded[i / 64] ^= 1ull << (i % 64);
}

/* --- the picker (A): every tree of the table by name ------------------ */

struct pick_rows {
	struct tui *t;
	const enum arch_tree *ids;
	const enum arch_tree *mine;
	int nmine;
};

static void draw_pick_row(void *ctx, int k, int y, bool selected)
{
	const struct pick_rows *p = ctx;
	enum arch_tree id = p->ids[k];
	const struct tree_def *def = tree_def_pick(id, p->t->model, &p->t->counts);
	bool mine = in_list(p->mine, p->nmine, id);
	char line[512];

	/* another model's variant would name another CPU: only the name */
	if (mine)
		snprintf(line, sizeof(line), "  %-8s %s", tree_name(id), def->title);
	else if (tree_is_generic(id))
		snprintf(line, sizeof(line), "  %-8s (none of its events here)", tree_name(id));
	else
		snprintf(line, sizeof(line), "  %-8s (no variant for model %s)", tree_name(id),
			 p->t->model ? p->t->model->name : "none");
	fit_words(line, COLS - 1);
	ui_set(selected ? EL_SELECTED : id == p->t->tree_id ? EL_HEADER_VALUE
	       : mine ? EL_DEFAULT : EL_MISSING);
	ui_text(y, 0, COLS, line, true);
}

static void draw_picker(struct tui *t, int y, int rows)
{
	struct tree_view *st = tv(t);
	enum arch_tree ids[TREE_COUNT], mine[TREE_COUNT];
	struct pick_rows p = { t, ids, mine, host_trees(t, mine) };
	char line[256];

	st->pick.br.nr = tree_all_ids(ids);
	snprintf(line, sizeof(line), "Pick a tree (model %s): Enter shows it, a letter jumps, "
		 "Esc back", t->model ? t->model->name : "none");
	fit_words(line, COLS - 1);
	ui_set(EL_HEADER);
	ui_text(y++, 0, COLS, line, true);
	if (y < rows)
		browser_draw(&st->pick.br, y, rows, draw_pick_row, &p);
	ui_set(EL_DEFAULT);
}

static void open_picker(struct tui *t)
{
	struct tree_view *st = tv(t);
	enum arch_tree ids[TREE_COUNT];
	int n = tree_all_ids(ids);

	st->pick.open = true;
	st->pick.br.nr = n;
	for (int k = 0; k < n; k++)
		if (ids[k] == t->tree_id)
			st->pick.br.sel = k;
}

/* A letter: the next tree of the model whose name starts with it, else
 * the next of any model ('a' on a Zen 4 is amd, not arm). */
static void pick_letter(struct tui *t, int key)
{
	struct tree_view *st = tv(t);
	enum arch_tree ids[TREE_COUNT], mine[TREE_COUNT];
	int n = tree_all_ids(ids), nmine = host_trees(t, mine), sel = st->pick.br.sel;

	for (int pass = 0; pass < 2; pass++)
		for (int step = 1; step <= n; step++) {
			int k = (sel + step) % n;
			if (tree_name(ids[k])[0] == key &&
			    (pass == 1 || in_list(mine, nmine, ids[k]))) {
				st->pick.br.sel = k;
				return;
			}
		}
}

static bool key_picker(struct tui *t, int key)
{
	struct tree_view *st = tv(t);
	enum arch_tree ids[TREE_COUNT];
	int n = tree_all_ids(ids);

	if (key == 27 || key == 'A' || key == 'q') {
		st->pick.open = false;
		return true;
	}
	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		st->pick.open = false;
		if (st->pick.br.sel < n)
			show_tree(t, ids[st->pick.br.sel]);
		return true;
	}
	if (key >= 'a' && key <= 'z' && !strchr("jkg", key)) {
		pick_letter(t, key);
		return true;
	}
	browser_key(&st->pick.br, key);
	return true;  /* the picker takes every key while open */
}

static bool key_tree(struct tui *t, int key)
{
	struct tree_view *st = tv(t);

	if (st->pick.open)
		return key_picker(t, key);
	if (browser_key(&st->br, key))
		return true;
	if (tui_baseline_key(t, key))
		return true;
	if (key == 't') {
		show_tree(t, next_tree(t));
		return true;
	}
	if (key == 'A') {
		open_picker(t);
		return true;
	}
	if (key == '\n' || key == '\r' || key == KEY_ENTER || key == '+' || key == '-') {
		enter_row(t);
		return true;
	}
	return false;
}

static void *init_tree(struct tui *t, const struct tui_opts *o)
{
	(void)t;
	(void)o;
	return calloc(1, sizeof(struct tree_view));
}

const struct view_ops view_tree = {
	.name = "tree",
	.hints = "t next tree  A pick tree  Enter fold  i ILP  D delta  Esc back  ? help  q quit",
	.init = init_tree,
	.free = free,
	.draw = draw_tree,
	.key = key_tree,
};
